package match

import "oanquan/rules"

// The ways a game between humans ends otherwise than by the rules, and
// the kinds of offer. They are saved (as Status) and are part of the API.
const (
	OutcomeResign = "resign" // Outcome.Player resigned: the other wins
	OutcomeDraw   = "draw"   // the players agreed a draw
	OutcomeAbort  = "abort"  // Outcome.Player aborted the game before it began

	OfferDraw     = "draw"
	OfferTakeback = "takeback"
	OfferRematch  = "rematch"
)

// Outcome is how a game between humans ended otherwise than by the rules.
// The zero Outcome: it did not.
type Outcome struct {
	Kind   string       `json:"kind,omitempty"` // "", OutcomeResign, OutcomeDraw or OutcomeAbort
	Player rules.Player `json:"player"`         // who resigned or aborted
	// Reason says which of two endings of one Kind it was: ReasonFirstMove
	// (an abort at a first move's limit) or ReasonClaim (a draw claimed
	// when the other player left); "" for the players' own (an abort by
	// Player, a draw agreed).
	Reason string `json:"reason,omitempty"`
}

// The reasons of an Outcome that its Kind alone does not tell.
const (
	ReasonFirstMove = "firstMove" // OutcomeAbort: a first move's limit ran out
	ReasonClaim     = "claim"     // OutcomeDraw: claimed, the other player having left
)

// Offer is a question one player put to the other, waiting for an answer.
type Offer struct {
	Kind string       `json:"kind"` // OfferDraw, OfferTakeback or OfferRematch
	By   rules.Player `json:"by"`
	// Ply is the ply it was made at: a move played since lapses it.
	Ply int `json:"ply"`
}

// Status is the part of an online game that is not its moves: how it
// ended if the players ended it, the offer waiting for an answer, the
// rematch. It is saved with the game (Change.Status), as JSON.
type Status struct {
	Outcome Outcome `json:"outcome"`
	Offer   *Offer  `json:"offer,omitempty"`
	Next    string  `json:"next,omitempty"` // the rematch's id, once both agreed
}

// statusLocked is the status as it stands: an offer lapsed by a move is
// gone.
func (m *Match) statusLocked() Status {
	s := m.status
	if s.Offer != nil && s.Offer.Ply != int(m.game.Position().Ply) {
		s.Offer = nil
	}
	if s.Offer != nil {
		o := *s.Offer
		s.Offer = &o
	}
	return s
}

// overLocked reports whether the game has ended, by the rules or by the
// players.
func (m *Match) overLocked() bool {
	return m.game.Over() || m.status.Outcome.Kind != ""
}

// setStatusLocked commits st and makes it the match's status, telling the
// subscribers.
func (m *Match) setStatusLocked(st Status) (State, error) {
	return m.commitStatusLocked(Change{Kind: StatusSet, Status: st, From: m.status, Index: len(m.game.Moves())})
}

// commitStatusLocked commits c, a StatusSet, and makes its status the
// match's, telling the subscribers.
func (m *Match) commitStatusLocked(c Change) (State, error) {
	st := c.Status
	if err := m.commitLocked(c); err != nil {
		return State{}, err
	}
	m.status = st
	m.armLocked() // an ended game's timer stops
	return m.publishLocked(), nil
}

// onlineLocked refuses requests of online games in other modes, and
// after Close.
func (m *Match) onlineLocked(what string) error {
	switch {
	case m.closed:
		return refuse(ErrClosed, "the game has been closed")
	case !m.pol.Online:
		return refuse(ErrInvalid, "%s: only in a game between two players online", what)
	}
	return nil
}

// Resign ends the game: p resigns and the other player wins.
func (m *Match) Resign(p rules.Player) (State, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.onlineLocked("resign"); err != nil {
		return State{}, err
	}
	if m.overLocked() {
		return State{}, refuse(ErrGameOver, "resign: the game is over")
	}
	st := m.statusLocked()
	st.Outcome, st.Offer = Outcome{Kind: OutcomeResign, Player: p}, nil
	return m.setStatusLocked(st)
}

// Abort ends a game that has not really begun: p may abort while they
// have not moved (no move yet, or only the other player's first move).
func (m *Match) Abort(p rules.Player) (State, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.onlineLocked("abort"); err != nil {
		return State{}, err
	}
	if err := m.abortRefusedLocked(p); err != nil {
		return State{}, err
	}
	st := m.statusLocked()
	st.Outcome, st.Offer = Outcome{Kind: OutcomeAbort, Player: p}, nil
	return m.setStatusLocked(st)
}

// abortRefusedLocked returns why p may not abort now, or nil: the game
// is not online, or over, or p has moved.
func (m *Match) abortRefusedLocked(p rules.Player) error {
	moves := len(m.game.Moves())
	switch {
	case !m.pol.Online:
		return refuse(ErrInvalid, "abort: only in a game between two players online")
	case m.overLocked():
		return refuse(ErrGameOver, "abort: the game is over")
	case moves >= 2 || moves == 1 && m.game.Start().ToMove == p:
		return refuse(ErrConflict, "abort: you have moved already; resign instead")
	}
	return nil
}

// takebackRefusedLocked returns why p may not offer a takeback now, or
// nil: the game is not online, or over, or p has no move to take back.
func (m *Match) takebackRefusedLocked(p rules.Player) error {
	switch {
	case !m.pol.Takeback:
		return refuse(ErrInvalid, "takeback offer: only in a game between two players online")
	case m.overLocked():
		return refuse(ErrGameOver, "takeback offer: the game is over")
	case m.takebackCountLocked(p) == 0:
		return refuse(ErrNothingToUndo, "takeback: you have no move to take back")
	}
	return nil
}

// Offer puts a question of kind (OfferDraw, OfferTakeback, OfferRematch)
// from p to the other player. Offering what the other player has just
// offered accepts it. A rematch is offered after the end, the others
// during the game; a takeback needs a move of p's to take back. For a
// rematch accepted this way, Offer returns the state with the offer and
// accepted true: the caller makes the new game and calls SetNext.
func (m *Match) Offer(kind string, p rules.Player) (st State, accepted bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.onlineLocked(kind + " offer"); err != nil {
		return State{}, false, err
	}
	cur := m.statusLocked()
	if o := cur.Offer; o != nil && o.Kind == kind && o.By != p {
		st, err := m.answerLocked(kind, p, true)
		return st, err == nil, err
	}
	switch kind {
	case OfferDraw, OfferTakeback:
		if kind == OfferTakeback {
			if err := m.takebackRefusedLocked(p); err != nil {
				return State{}, false, err
			}
		} else if m.overLocked() {
			return State{}, false, refuse(ErrGameOver, "%s offer: the game is over", kind)
		}
	case OfferRematch:
		if !m.overLocked() {
			return State{}, false, refuse(ErrConflict, "rematch: the game is not over")
		}
		if cur.Next != "" {
			return State{}, false, refuse(ErrConflict, "rematch: it is agreed already")
		}
	default:
		return State{}, false, refuse(ErrInvalid, "unknown offer %q: want draw, takeback or rematch", kind)
	}
	if o := cur.Offer; o != nil && o.Kind == kind && o.By == p {
		return m.stateLocked(), false, nil // asked already
	}
	cur.Offer = &Offer{Kind: kind, By: p, Ply: int(m.game.Position().Ply)}
	st, err = m.setStatusLocked(cur)
	return st, false, err
}

// Answer is p's answer to the other player's offer of kind: accept or
// decline. Accepting a draw ends the game; accepting a takeback takes back
// the asker's last move (and the reply to it, if any); accepting a
// rematch returns accepted true: the caller makes the new game and calls
// SetNext.
func (m *Match) Answer(kind string, p rules.Player, accept bool) (st State, accepted bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.onlineLocked(kind + " answer"); err != nil {
		return State{}, false, err
	}
	st, err = m.answerLocked(kind, p, accept)
	return st, err == nil && accept, err
}

func (m *Match) answerLocked(kind string, p rules.Player, accept bool) (State, error) {
	cur := m.statusLocked()
	o := cur.Offer
	if o == nil || o.Kind != kind || o.By == p {
		return State{}, refuse(ErrConflict, "no %s offer of the other player's to answer", kind)
	}
	cur.Offer = nil
	if !accept || kind == OfferRematch {
		if accept { // the caller makes the game; the offer stays until SetNext
			return m.stateLocked(), nil
		}
		return m.setStatusLocked(cur)
	}
	switch kind {
	case OfferDraw:
		cur.Outcome = Outcome{Kind: OutcomeDraw}
		return m.setStatusLocked(cur)
	case OfferTakeback:
		n := m.takebackCountLocked(o.By)
		if n == 0 {
			return State{}, refuse(ErrNothingToUndo, "takeback: there is no move to take back")
		}
		if err := m.undoLocked(n); err != nil {
			return State{}, err
		}
		// The offer is answered: clear it, or it would come back when
		// the game reaches its ply again.
		st, err := m.setStatusLocked(cur)
		if err != nil {
			m.publishLocked() // the moves are taken back all the same
		}
		return st, err
	}
	return State{}, refuse(ErrInvalid, "unknown offer %q", kind)
}

// takebackCountLocked returns how many moves a takeback asked by p takes
// back: p's last move and the moves after it, 0 if p has none.
func (m *Match) takebackCountLocked(p rules.Player) int {
	moves := len(m.game.Moves())
	start := m.game.Start()
	for i := moves - 1; i >= 0 && i >= moves-2; i-- {
		if moverOf(start, i) == p {
			return moves - i
		}
	}
	return 0
}

// SetNext records the rematch agreed, once the caller has made it: id
// is the new game's.
func (m *Match) SetNext(id string) (State, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.onlineLocked("rematch"); err != nil {
		return State{}, err
	}
	cur := m.statusLocked()
	cur.Offer, cur.Next = nil, id
	return m.setStatusLocked(cur)
}

// PlayFor plays mv for seat p, which must be the seat to move: the move
// of an online game's player.
func (m *Match) PlayFor(p rules.Player, mv rules.Move, ply *int) (Turn, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.checkHumanMoveLocked(mv, ply); err != nil {
		return Turn{}, err
	}
	if to := m.game.Position().ToMove; to != p {
		return Turn{}, refuse(ErrNotYourTurn, "move %v: it is the other player's turn", mv)
	}
	return m.playLocked(mv)
}

// PlayedAt returns the turn played at ply if it was mv, played by p (any
// seat if p is nil): a move sent again after its answer was lost is
// answered with its turn, not played twice. The turn's State is the
// match's state now.
func (m *Match) PlayedAt(ply int, mv rules.Move, p *rules.Player) (Turn, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	start := m.game.Start()
	i := ply - int(start.Ply)
	moves := m.game.Moves()
	if i < 0 || i >= len(moves) || moves[i] != mv {
		return Turn{}, false
	}
	mover := moverOf(start, i)
	if p != nil && *p != mover {
		return Turn{}, false
	}
	g, err := m.replayLocked(moves[:i])
	if err != nil {
		return Turn{}, false
	}
	before := g.Position()
	var tr rules.Trace
	g.Play(mv, &tr)
	return m.turnLocked(before, mv, tr.Events), true
}

// Presence says who is connected to a game now: for each seat, whether
// its player has a page open on it, and how many others watch.
type Presence struct {
	Seats    [2]bool `json:"seats"`
	Watchers int     `json:"watchers"`
	// Dropped says, for each seat whose player is not there, whether
	// their last connection dropped (the network or their device failed)
	// rather than being closed by their page (they left it).
	Dropped [2]bool `json:"dropped"`
	// Taken says which seats have a player (the free one waits for the
	// friend invited).
	Taken [2]bool `json:"taken"`
}

// SetPresence records who is connected and tells the subscribers if it
// changed.
func (m *Match) SetPresence(p Presence) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || p == m.presence {
		return
	}
	m.presenceClockLocked(p)
	m.presence = p
	m.broadcastLocked(Update{Kind: PresenceUpdate, Presence: &p})
}
