package server

import (
	"oanquan/internal/match"
	"oanquan/notation"
	"oanquan/rules"
)

// The JSON of docs/API.md. These types are the wire format: change them
// only as that page says (additively).

type gameJSON struct {
	ID       string       `json:"id"`
	Mode     string       `json:"mode"`
	Level    string       `json:"level"`
	Human    int          `json:"human"`
	First    int          `json:"first"`
	Variants []string     `json:"variants"`
	Position string       `json:"position"`
	Cells    [12]int      `json:"cells"`
	Stones   [2]bool      `json:"stones"`
	Stores   [2]storeJSON `json:"stores"`
	ToMove   int          `json:"toMove"`
	Ply      int          `json:"ply"`
	Legal    []string     `json:"legal"`
	Moves    []string     `json:"moves"`
	Thinking bool         `json:"thinking"`
	Over     bool         `json:"over"`
	End      string       `json:"end"`
	Result   *resultJSON  `json:"result"`
	CanUndo  bool         `json:"canUndo"`
	History  []playedJSON `json:"history"`
	// Online games: the offer waiting for an answer, the rematch's id,
	// and who is connected.
	Offer    *offerJSON    `json:"offer"`
	Next     string        `json:"next,omitempty"`
	Presence *presenceJSON `json:"presence,omitempty"`
	// Positions, once the game is over: every position from the start to
	// the end, in notation, for going back through the game.
	Positions []string `json:"positions,omitempty"`
}

type offerJSON struct {
	Kind string `json:"kind"` // "draw", "takeback" or "rematch"
	By   int    `json:"by"`   // the seat that offered
}

type presenceJSON struct {
	Seats    [2]bool `json:"seats"`    // each seat's player has the game open
	Watchers int     `json:"watchers"` // others watching
	Taken    [2]bool `json:"taken"`    // each seat has a player (has been joined)
}

// playedJSON says who played one move of a game.
type playedJSON struct {
	Move   string `json:"move"`
	Player int    `json:"player"`
	By     string `json:"by"` // "human" or "computer"
}

// createdJSON is the answer to the creation of a game: its state and the
// secret that acts for the creator's seats.
type createdJSON struct {
	gameJSON
	Secret string `json:"secret"`
	Seat   int    `json:"seat"`  // the creator's seat (the first of Seats)
	Seats  []int  `json:"seats"` // every seat the secret acts for
}

type storeJSON struct {
	Pebbles   int `json:"pebbles"`
	Mandarins int `json:"mandarins"`
	Debt      int `json:"debt"`
}

type resultJSON struct {
	Players [2]tallyJSON `json:"players"`
	Winner  *int         `json:"winner"` // null for a draw
}

type tallyJSON struct {
	Mandarins int `json:"mandarins"`
	Pebbles   int `json:"pebbles"`
	Swept     int `json:"swept"`
	Debt      int `json:"debt"`
	Credit    int `json:"credit"`
	Total     int `json:"total"`
}

type turnJSON struct {
	Ply    int         `json:"ply"`
	Player int         `json:"player"`
	Move   string      `json:"move"`
	By     string      `json:"by"`
	Events []eventJSON `json:"events"`
	State  gameJSON    `json:"state"`
}

type eventJSON struct {
	Kind   string `json:"kind"`
	Player int    `json:"player"`
	Cell   int    `json:"cell"`
	Count  int    `json:"count"`
	Stone  bool   `json:"stone"`
	Points int    `json:"points"`
	Reason string `json:"reason"`
}

// messageJSON is a WebSocket message.
type messageJSON struct {
	Type     string        `json:"type"`
	State    *gameJSON     `json:"state,omitempty"`
	Turn     *turnJSON     `json:"turn,omitempty"`
	Thinking *bool         `json:"thinking,omitempty"`
	Presence *presenceJSON `json:"presence,omitempty"`
}

type hintsJSON struct {
	Hints []hintJSON `json:"hints"`
}

type hintJSON struct {
	Move  string `json:"move"`
	Score int    `json:"score"`
}

func moveList(ms []rules.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = notation.FormatMove(m)
	}
	return out
}

func toGameJSON(s *match.State) gameJSON {
	p := s.Position
	g := gameJSON{
		ID:       s.ID,
		Mode:     string(s.Mode),
		Level:    s.Level.String(),
		Human:    int(s.Human),
		First:    int(s.Rules.First),
		Variants: s.Rules.Names(),
		Position: notation.FormatPosition(p),
		Stones:   p.Stone,
		ToMove:   int(p.ToMove),
		Ply:      int(p.Ply),
		Legal:    moveList(s.Legal),
		Moves:    moveList(s.Moves),
		Thinking: s.Thinking,
		Over:     s.Over(),
		End:      s.End.String(),
	}
	if g.Variants == nil {
		g.Variants = []string{}
	}
	g.CanUndo = s.CanUndo
	if o := s.Status.Outcome; o.Kind != "" {
		g.End = o.Kind // "resign", "draw" or "abort": the players ended it
	}
	if o := s.Status.Offer; o != nil {
		g.Offer = &offerJSON{Kind: o.Kind, By: int(o.By)}
	}
	g.Next = s.Status.Next
	for _, p := range s.Positions {
		g.Positions = append(g.Positions, notation.FormatPosition(p))
	}
	if s.Mode == match.Online {
		g.Presence = &presenceJSON{Seats: s.Presence.Seats, Watchers: s.Presence.Watchers, Taken: s.Presence.Taken}
	}
	g.History = make([]playedJSON, len(s.Moves))
	for i := range s.Moves {
		g.History[i] = playedJSON{Move: g.Moves[i], Player: int(s.Mover(i)), By: "human"}
		if s.Computer[i] {
			g.History[i].By = "computer"
		}
	}
	for i, n := range p.Cells {
		g.Cells[i] = int(n)
	}
	for i, st := range p.Stores {
		g.Stores[i] = storeJSON{Pebbles: int(st.Pebbles), Mandarins: int(st.Mandarins), Debt: int(st.Debt)}
	}
	if s.Over() {
		g.Result = toResultJSON(s.Result)
	}
	return g
}

func toResultJSON(r rules.Result) *resultJSON {
	out := &resultJSON{}
	for i, t := range r.Players {
		out.Players[i] = tallyJSON(t)
	}
	if r.Winner >= 0 {
		w := r.Winner
		out.Winner = &w
	}
	return out
}

func toTurnJSON(t *match.Turn) turnJSON {
	out := turnJSON{
		Ply:    t.Ply,
		Player: int(t.Player),
		Move:   notation.FormatMove(t.Move),
		By:     "human",
		Events: make([]eventJSON, len(t.Events)),
		State:  toGameJSON(&t.State),
	}
	if t.Computer {
		out.By = "computer"
	}
	for i, e := range t.Events {
		out.Events[i] = toEventJSON(e)
	}
	return out
}

func toEventJSON(e rules.Event) eventJSON {
	out := eventJSON{
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
	}
	return out
}

func toMessageJSON(u match.Update) messageJSON {
	switch u.Kind {
	case match.TurnUpdate:
		t := toTurnJSON(u.Turn)
		return messageJSON{Type: "turn", Turn: &t}
	case match.ThinkingUpdate:
		return messageJSON{Type: "thinking", Thinking: &u.Thinking}
	case match.PresenceUpdate:
		return messageJSON{Type: "presence", Presence: &presenceJSON{Seats: u.Presence.Seats, Watchers: u.Presence.Watchers, Taken: u.Presence.Taken}}
	}
	g := toGameJSON(u.State)
	return messageJSON{Type: "state", State: &g}
}
