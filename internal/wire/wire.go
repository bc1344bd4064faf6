// Package wire is the JSON of docs/API.md: the game state, a turn and
// its events, hints and the WebSocket's messages, made from a
// match.State or match.Turn. The server sends it, and the engine
// compiled to WebAssembly (cmd/engine-wasm) answers the page with the
// same JSON for games played in the browser, so the page cannot tell the
// two apart.
//
//	st := m.State()
//	b, _ := json.Marshal(wire.GameOf(&st))
//
// These types are the wire format: change them only as docs/API.md says
// (additively). The package depends only on match, notation and rules.
package wire

import (
	"encoding/json"
	"time"

	"oanquan/internal/match"
	"oanquan/notation"
	"oanquan/rules"
)

// Game is a game's state (GameState in docs/API.md).
type Game struct {
	ID       string   `json:"id"`
	Mode     string   `json:"mode"`
	Level    string   `json:"level"`
	Human    int      `json:"human"`
	First    int      `json:"first"`
	Variants []string `json:"variants"`
	Position string   `json:"position"`
	Cells    [12]int  `json:"cells"`
	Stones   [2]bool  `json:"stones"`
	// StoneValue is what a mandarin stone is worth in points
	// (rules.StoneValue), so that a page need not know it.
	StoneValue int      `json:"stoneValue"`
	Stores     [2]Store `json:"stores"`
	ToMove     int      `json:"toMove"`
	Ply        int      `json:"ply"`
	Legal      []string `json:"legal"`
	Moves      []string `json:"moves"`
	Thinking   bool     `json:"thinking"`
	Over       bool     `json:"over"`
	End        string   `json:"end"`
	// EndReason tells apart two endings of one End (docs/API.md,
	// "Clocks"): with "abort", "player" (a player aborted) or "firstMove"
	// (a first move's limit ran out); with "draw", "agreed" or "claim"
	// (claimed, the other player having left). Absent otherwise.
	EndReason string  `json:"endReason,omitempty"`
	Result    *Result `json:"result"`
	CanUndo   bool    `json:"canUndo"`
	// What else the game's players may ask now (match.State): abort and
	// take back, per seat, in online games; hints in the others.
	CanAbort    [2]bool `json:"canAbort"`
	CanTakeback [2]bool `json:"canTakeback"`
	CanHint     bool    `json:"canHint"`
	// CanClaim says, for each seat of a real-time game, whether its
	// player may claim the game: the other has left.
	CanClaim [2]bool  `json:"canClaim"`
	History  []Played `json:"history"`
	// Clock is a clocked game's time control and clock; nil: none.
	Clock *Clock `json:"clock,omitempty"`
	// Rated is true for a rated game (issue 21); absent for a casual one.
	// Ratings, once a rated game ended, is what it did to each seat's
	// rating in its speed.
	Rated   bool     `json:"rated,omitempty"`
	Ratings *Ratings `json:"ratings,omitempty"`
	// Online games: the offer waiting for an answer, the rematch's id,
	// and who is connected.
	Offer    *Offer    `json:"offer"`
	Next     string    `json:"next,omitempty"`
	Presence *Presence `json:"presence,omitempty"`
	// Positions, once the game is over: every position from the start to
	// the end, in notation, for going back through the game.
	Positions []string `json:"positions,omitempty"`
}

// Offer is an online game's offer waiting for an answer.
type Offer struct {
	Kind string `json:"kind"` // "draw", "takeback" or "rematch"
	By   int    `json:"by"`   // the seat that offered
}

// Presence says who is connected to an online game.
type Presence struct {
	Seats    [2]bool `json:"seats"`    // each seat's player has the game open
	Watchers int     `json:"watchers"` // others watching
	Taken    [2]bool `json:"taken"`    // each seat has a player (has been joined)
	Dropped  [2]bool `json:"dropped"`  // each absent seat's last connection dropped, rather than its page left
}

// presenceOf is the JSON of a match's presence.
func presenceOf(p match.Presence) *Presence {
	return &Presence{Seats: p.Seats, Watchers: p.Watchers, Taken: p.Taken, Dropped: p.Dropped}
}

// Clock is a clocked game's clock (docs/API.md, "Clocks"): its time
// control, real time (Initial and Increment, in seconds) or
// correspondence (Days per move), and the time left.
type Clock struct {
	Initial   *int `json:"initial,omitempty"`
	Increment *int `json:"increment,omitempty"`
	Days      int  `json:"days,omitempty"`
	// Remaining is each seat's time left, in milliseconds, when the
	// state was made.
	Remaining [2]int64 `json:"remaining"`
	// Running is the seat whose clock runs; null when none does (before
	// the first moves are played, and after the end).
	Running *int `json:"running"`
	// FirstMoveMs is the time left for the first move being timed, in
	// milliseconds: past it the game is aborted. Absent when none is.
	FirstMoveMs *int64 `json:"firstMoveMs,omitempty"`
	// After is each seat's time left after each move, in milliseconds,
	// once the game is over (for its replay: the time each move took).
	After [][2]int64 `json:"after,omitempty"`
	// Used is the time each move took, in milliseconds, beside After
	// (null for a move saved before it was kept).
	Used []*int64 `json:"used,omitempty"`
	// AwayMs is, while a real-time game goes on and a seat has no
	// connection to it, how long it has had none, in milliseconds, for
	// each seat (null for one connected); absent when neither is away.
	AwayMs []*int64 `json:"awayMs,omitempty"`
}

// ClockOf returns the JSON of a clocked game's clock, nil for none.
func ClockOf(c *match.ClockState) *Clock {
	if c == nil {
		return nil
	}
	out := &Clock{Days: c.Control.Days}
	if !c.Control.Correspondence() {
		initial, inc := int(c.Control.Initial/time.Second), int(c.Control.Increment/time.Second)
		out.Initial, out.Increment = &initial, &inc
	}
	for i, d := range c.Left {
		out.Remaining[i] = d.Milliseconds()
	}
	if c.Running >= 0 {
		r := c.Running
		out.Running = &r
	}
	if c.FirstMove > 0 {
		ms := c.FirstMove.Milliseconds()
		out.FirstMoveMs = &ms
	}
	for i, a := range c.After {
		out.After = append(out.After, [2]int64{a[0].Milliseconds(), a[1].Milliseconds()})
		var used *int64
		if i < len(c.Used) && c.Used[i] >= 0 {
			ms := c.Used[i].Milliseconds()
			used = &ms
		}
		out.Used = append(out.Used, used)
	}
	if c.Away[0] >= 0 || c.Away[1] >= 0 {
		out.AwayMs = make([]*int64, 2)
		for p, d := range c.Away {
			if d >= 0 {
				ms := d.Milliseconds()
				out.AwayMs[p] = &ms
			}
		}
	}
	return out
}

// Played says who played one move of a game.
type Played struct {
	Move   string `json:"move"`
	Player int    `json:"player"`
	By     string `json:"by"` // "human" or "computer"
}

// Store is what a player has captured, and owes. Points is what it
// counts for now: 10 per mandarin stone and 1 per pebble, less the debt
// this player owes, plus the debt the other owes them — the final count
// but for the pebbles still on the rows.
type Store struct {
	Pebbles   int `json:"pebbles"`
	Mandarins int `json:"mandarins"`
	Debt      int `json:"debt"`
	Points    int `json:"points"`
}

// StoreOf returns the JSON of player pl's store in p.
func StoreOf(p *rules.Position, pl rules.Player) Store {
	s := p.Stores[pl]
	return Store{
		Pebbles: int(s.Pebbles), Mandarins: int(s.Mandarins), Debt: int(s.Debt),
		Points: s.Points() - int(s.Debt) + int(p.Stores[pl.Other()].Debt),
	}
}

// Result is a finished game's final count.
type Result struct {
	Players [2]Tally `json:"players"`
	Winner  *int     `json:"winner"` // null for a draw
}

// Tally is one player's final count: total = mandarinPoints + pebbles +
// swept − debt + credit, where mandarinPoints is what the mandarin stones
// are worth (MandarinPoints). Its JSON has mandarinPoints too, so that a
// page need not know the stones' value.
//
// Tally has rules.Tally's fields, so that one converts to the other;
// mandarinPoints, derived from Mandarins, is added by its JSON methods
// rather than kept as a field.
type Tally struct {
	Mandarins int
	Pebbles   int
	Swept     int
	Debt      int
	Credit    int
	Total     int
}

// tallyJSON is a Tally as it is written.
type tallyJSON struct {
	Mandarins      int `json:"mandarins"`
	MandarinPoints int `json:"mandarinPoints"`
	Pebbles        int `json:"pebbles"`
	Swept          int `json:"swept"`
	Debt           int `json:"debt"`
	Credit         int `json:"credit"`
	Total          int `json:"total"`
}

// MandarinPoints returns what the tally's mandarin stones are worth: 10
// each (rules.StoneValue).
func (t Tally) MandarinPoints() int { return rules.StoneValue * t.Mandarins }

// MarshalJSON writes the tally with its mandarinPoints.
func (t Tally) MarshalJSON() ([]byte, error) {
	return json.Marshal(tallyJSON{t.Mandarins, t.MandarinPoints(), t.Pebbles, t.Swept, t.Debt, t.Credit, t.Total})
}

// UnmarshalJSON reads a tally as MarshalJSON writes it; mandarinPoints,
// derived from mandarins, is read and dropped.
func (t *Tally) UnmarshalJSON(b []byte) error {
	var j tallyJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*t = Tally{j.Mandarins, j.Pebbles, j.Swept, j.Debt, j.Credit, j.Total}
	return nil
}

// Turn is one move played, what it did, and the state after it.
type Turn struct {
	Ply    int     `json:"ply"`
	Player int     `json:"player"`
	Move   string  `json:"move"`
	By     string  `json:"by"`
	Events []Event `json:"events"`
	State  Game    `json:"state"`
}

// Event is one step of a turn (docs/API.md lists the kinds).
type Event struct {
	Kind   string `json:"kind"`
	Player int    `json:"player"`
	Cell   int    `json:"cell"`
	Count  int    `json:"count"`
	Stone  bool   `json:"stone"`
	Points int    `json:"points"`
	Reason string `json:"reason"`
	// Cells are the ring cells a refill put a pebble on: the refilling
	// player's five squares. Only for "refill" (omitted for the others:
	// no refill has all zeros). An array, so that events compare with ==.
	Cells [5]int `json:"cells,omitzero"`
}

// Message is a WebSocket message.
type Message struct {
	Type     string    `json:"type"`
	State    *Game     `json:"state,omitempty"`
	Turn     *Turn     `json:"turn,omitempty"`
	Thinking *bool     `json:"thinking,omitempty"`
	Presence *Presence `json:"presence,omitempty"`
	// Seat and Phrase are a "phrase" message's: the player on Seat said
	// Phrase (one of Phrases). A "phrase_refused" message has Phrase,
	// the one refused, and Reason, one of the PhraseRefused… words.
	Seat   *int   `json:"seat,omitempty"`
	Phrase string `json:"phrase,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Phrases are the preset phrases the players of an online game may say
// to each other on its WebSocket (issue 21), by id: the page says each
// in the player's language. There is no free text.
var Phrases = []string{"hello", "good_luck", "good_game", "well_played", "thanks"}

// The reasons of a "phrase_refused" message.
const (
	PhraseUnknown     = "unknown"      // not one of Phrases
	PhraseNotAPlayer  = "not_a_player" // the socket said no seat's secret (a watcher), or the game is not between players online
	PhraseRateLimited = "rate_limited" // the seat said one less than 3 s ago, or 20 in the game
	PhraseUnavailable = "unavailable"  // the server could not count it (its store failed): try again later
)

// PhraseMessage is the message of a phrase said by seat.
func PhraseMessage(seat int, phrase string) Message {
	return Message{Type: "phrase", Seat: &seat, Phrase: phrase}
}

// PhraseRefused is the message refusing phrase for reason.
func PhraseRefused(phrase, reason string) Message {
	return Message{Type: "phrase_refused", Phrase: phrase, Reason: reason}
}

// Hints is the answer to a request for hints: every legal move, best
// first.
type Hints struct {
	Hints []Hint `json:"hints"`
}

// Hint is one legal move and its score from the mover's view.
type Hint struct {
	Move  string `json:"move"`
	Score int    `json:"score"`
}

// MoveList writes moves in the notation.
func MoveList(ms []rules.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = notation.FormatMove(m)
	}
	return out
}

// Ratings is what a rated game did to its players' ratings:
// {"speed":"blitz","before":[1500,1500],"after":[1662.3,1337.7]}, seat
// by seat.
type Ratings struct {
	Speed  string     `json:"speed"`
	Before [2]float64 `json:"before"`
	After  [2]float64 `json:"after"`
}

// GameOf returns the JSON of a match's state.
func GameOf(s *match.State) Game {
	p := s.Position
	g := Game{
		ID:         s.ID,
		Mode:       string(s.Mode),
		Level:      s.Level.String(),
		Human:      int(s.Human),
		First:      int(s.Rules.First),
		Variants:   s.Rules.Names(),
		Position:   notation.FormatPosition(p),
		Stones:     p.Stone,
		StoneValue: rules.StoneValue,
		ToMove:     int(p.ToMove),
		Ply:        int(p.Ply),
		Legal:      MoveList(s.Legal),
		Moves:      MoveList(s.Moves),
		Thinking:   s.Thinking,
		Over:       s.Over(),
		End:        s.End.String(),
	}
	if g.Variants == nil {
		g.Variants = []string{}
	}
	g.CanUndo, g.CanAbort, g.CanTakeback, g.CanHint, g.CanClaim = s.CanUndo, s.CanAbort, s.CanTakeback, s.CanHint, s.CanClaim
	g.Clock = ClockOf(s.Clock)
	g.Rated = s.Rated
	if r := s.Ratings; r != nil {
		g.Ratings = &Ratings{Speed: r.Speed, Before: r.Before, After: r.After}
	}
	if o := s.Status.Outcome; o.Kind != "" {
		g.End = o.Kind // "resign", "draw", "abort", "timeout" or "abandon": the players or the clock ended it
		g.EndReason = endReasonOf(o)
	}
	if o := s.Status.Offer; o != nil {
		g.Offer = &Offer{Kind: o.Kind, By: int(o.By)}
	}
	g.Next = s.Status.Next
	for _, p := range s.Positions {
		g.Positions = append(g.Positions, notation.FormatPosition(p))
	}
	if s.Policy().Online {
		g.Presence = presenceOf(s.Presence)
	}
	g.History = make([]Played, len(s.Moves))
	for i := range s.Moves {
		g.History[i] = Played{Move: g.Moves[i], Player: int(s.Mover(i)), By: "human"}
		if s.Computer[i] {
			g.History[i].By = "computer"
		}
	}
	for i, n := range p.Cells {
		g.Cells[i] = int(n)
	}
	for i := range p.Stores {
		g.Stores[i] = StoreOf(&p, rules.Player(i))
	}
	if s.Over() {
		g.Result = ResultOf(s.Result)
	}
	return g
}

// ResultOf returns the JSON of a final count.
func ResultOf(r rules.Result) *Result {
	out := &Result{}
	for i, t := range r.Players {
		out.Players[i] = Tally(t)
	}
	if r.Winner >= 0 {
		w := r.Winner
		out.Winner = &w
	}
	return out
}

// TurnOf returns the JSON of a turn.
func TurnOf(t *match.Turn) Turn {
	out := Turn{
		Ply:    t.Ply,
		Player: int(t.Player),
		Move:   notation.FormatMove(t.Move),
		By:     "human",
		Events: make([]Event, len(t.Events)),
		State:  GameOf(&t.State),
	}
	if t.Computer {
		out.By = "computer"
	}
	for i, e := range t.Events {
		out.Events[i] = EventOf(e)
	}
	return out
}

// EventOf returns the JSON of one event.
func EventOf(e rules.Event) Event {
	out := Event{
		Kind:   e.Kind.String(),
		Player: int(e.Player),
		Cell:   int(e.Cell),
		Count:  int(e.Count),
		Stone:  e.Stone,
		Points: int(e.Points),
	}
	switch e.Kind {
	case rules.EvStop:
		out.Reason = rules.StopReason(e.Reason).String()
	case rules.EvEnd:
		out.Reason = rules.End(e.Reason).String()
	case rules.EvRefill:
		out.Cells = e.Player.Row()
	}
	return out
}

// MessageOf returns the WebSocket message of a match's update.
func MessageOf(u match.Update) Message {
	switch u.Kind {
	case match.TurnUpdate:
		t := TurnOf(u.Turn)
		return Message{Type: "turn", Turn: &t}
	case match.ThinkingUpdate:
		return Message{Type: "thinking", Thinking: &u.Thinking}
	case match.PresenceUpdate:
		return Message{Type: "presence", Presence: presenceOf(*u.Presence)}
	}
	g := GameOf(u.State)
	return Message{Type: "state", State: &g}
}

// Record returns the game record (docs/RECORD.md) of a match's state;
// created, if not zero, gives its date.
func Record(st *match.State, created time.Time) (string, error) {
	return RecordTagged(st, created, nil)
}

// RecordTagged is Record with the tags extra added (a player's name as
// Player0, say), or replacing those Record would write.
func RecordTagged(st *match.State, created time.Time, extra map[string]string) (string, error) {
	game, err := rules.NewGame(st.Rules, st.Start)
	if err != nil {
		return "", err
	}
	for _, mv := range st.Moves {
		if _, err := game.Play(mv, nil); err != nil {
			return "", err
		}
	}
	tags := map[string]string{"Event": "Ô Ăn Quan", "Site": "oanquan", "Mode": string(st.Mode)}
	if !created.IsZero() {
		tags["Date"] = created.UTC().Format("2006.01.02")
	}
	if st.Policy().Computer {
		tags["Player"+st.Human.String()] = "Human"
		tags["Player"+st.Human.Other().String()] = "Computer (" + st.Level.String() + ")"
	}
	var comments map[int]string
	if c := st.Clock; c != nil {
		tags[notation.TagTimeControl] = c.Control.String()
		comments = map[int]string{}
		for i, a := range c.After {
			ms := [2]int64{a[0].Milliseconds(), a[1].Milliseconds()}
			comments[i+1] = notation.ClockComment(ms)
			if i < len(c.Used) && c.Used[i] >= 0 {
				comments[i+1] = notation.ClockTookComment(ms, c.Used[i].Milliseconds())
			}
		}
	}
	for k, v := range extra {
		tags[k] = v
	}
	how, result := "", ""
	if o := st.Status.Outcome; o.Kind != "" && !game.Over() {
		how, result = endOf(o)
	}
	return notation.FormatCommented(game, tags, how, result, comments), nil
}

// endReasonOf returns the EndReason of an outcome.
func endReasonOf(o match.Outcome) string {
	switch {
	case o.Reason != "":
		return o.Reason
	case o.Kind == match.OutcomeAbort:
		return "player"
	case o.Kind == match.OutcomeDraw:
		return "agreed"
	}
	return ""
}

// endOf returns the Termination tag and the result token of a game its
// players ended (docs/RECORD.md).
func endOf(o match.Outcome) (how, result string) {
	switch o.Kind {
	case match.OutcomeResign:
		if o.Player == rules.Player0 {
			return notation.TerminationResign, "0-1"
		}
		return notation.TerminationResign, "1-0"
	case match.OutcomeDraw:
		return notation.TerminationDraw, "1/2-1/2"
	case match.OutcomeTimeout, match.OutcomeAbandon:
		how := notation.TerminationTime
		if o.Kind == match.OutcomeAbandon {
			how = notation.TerminationAbandon
		}
		if o.Player == rules.Player0 {
			return how, "0-1"
		}
		return how, "1-0"
	}
	return notation.TerminationAbort, "*"
}
