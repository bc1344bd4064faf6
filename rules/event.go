package rules

// EventKind says what an Event records.
type EventKind uint8

// The things that happen during a turn, in the order Play reports them.
// Do not reorder: the values are part of the JSON the server sends.
const (
	EvPickUp   EventKind = iota // the mover takes Count pebbles from Cell to sow
	EvDrop                      // one pebble dropped on Cell, which now holds Count
	EvRelay                     // the sowing goes on: Count pebbles taken from Cell
	EvCapture                   // Cell captured: Count pebbles, Stone if its mandarin stone, Points in all
	EvStop                      // the turn ends; Reason says why, Cell is the square that stopped it
	EvExchange                  // Player exchanges a captured mandarin stone for 10 pebbles
	EvBorrow                    // Player borrows Count pebbles from the other player and now owes Debt in all
	EvRefill                    // Player puts one pebble from the store on each of their five squares
	EvEnd                       // the game is over; Reason is an End, and Trace.Result holds the count
)

var eventNames = [...]string{"pickup", "drop", "relay", "capture", "stop", "exchange", "borrow", "refill", "end"}

// String returns a lower-case name such as "pickup" or "capture".
func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "unknown"
}

// StopReason says why a turn's sowing ended.
type StopReason uint8

// Why a turn stops. Do not reorder: the values are part of the JSON the
// server sends.
const (
	StopNone           StopReason = iota
	StopMandarin                  // the square after the last pebble is an occupied mandarin square
	StopDoubleEmpty               // the square after the last pebble and the one after it are empty
	StopYoungMandarin             // a capture reached a young mandarin (young-mandarin variant)
	StopAfterCapture              // a capture chain ended
	StopStrictMandarin            // strict-mandarin-stop: the last pebble reached an empty mandarin square
	StopRelayLimit                // the move reached MaxSowings; see MaxSowings
)

var stopNames = [...]string{"none", "mandarin", "double-empty", "young-mandarin", "after-capture", "strict-mandarin", "relay-limit"}

// String returns a name such as "double-empty".
func (r StopReason) String() string {
	if int(r) < len(stopNames) {
		return stopNames[r]
	}
	return "unknown"
}

// End says whether and how a game has ended.
type End uint8

// The ways a game ends. Do not reorder: the values are part of the JSON
// the server sends.
const (
	EndNone       End = iota // the game goes on
	EndMandarins             // both mandarin squares are empty
	EndNoRefill              // the side to move must refill and the two stores cannot supply 5 pebbles
	EndRepetition            // the same position arose for the third time
	EndPlyLimit              // the game reached MaxPlies turns; see MaxPlies
)

var endNames = [...]string{"none", "mandarins", "no-refill", "repetition", "ply-limit"}

// String returns a name such as "mandarins".
func (e End) String() string {
	if int(e) < len(endNames) {
		return endNames[e]
	}
	return "unknown"
}

// Event is one step of a turn, fine enough to animate pebble by pebble.
// Which fields mean something depends on Kind (see the EventKind
// constants); the others are zero.
type Event struct {
	Kind   EventKind
	Player Player // who acted: the mover, or for refills the player refilling
	Cell   int8   // ring cell (0–11), or -1 where no cell applies
	Count  uint8  // pebbles picked up, on the cell after a drop, captured, borrowed
	Stone  bool   // a capture took the mandarin stone
	Points uint8  // points captured
	Reason uint8  // a StopReason for EvStop, an End for EvEnd
	Debt   uint16 // for EvBorrow, the borrower's whole debt after borrowing
}

// Square returns the citizen square number of the event's cell, or -1 for
// a mandarin square or no cell.
func (e Event) Square() int {
	if e.Cell < 0 {
		return -1
	}
	return CellSquare(int(e.Cell))
}

// Trace collects the events of turns. Reuse one Trace (Reset) to play
// without allocating. A nil *Trace records nothing.
type Trace struct {
	Events []Event
	// Result is the final count, set with the EvEnd event when a turn ends
	// the game.
	Result Result
}

// Reset empties the trace, keeping its storage.
func (t *Trace) Reset() {
	t.Events = t.Events[:0]
	t.Result = Result{}
}

// end records the end of the game in position p.
func (t *Trace) end(p *Position, end End) {
	t.add(Event{Kind: EvEnd, Player: p.ToMove, Cell: -1, Reason: uint8(end)})
	t.Result = p.Count(end)
}

func (t *Trace) add(e Event) { t.Events = append(t.Events, e) }
