package api

import (
	"encoding/json"
	"errors"
	mrand "math/rand/v2"
	"strings"

	"oanquan/ai"
	"oanquan/internal/match"
	"oanquan/notation"
	"oanquan/rules"
)

// Settings are a game's settings as the JSON of POST /api/games has
// them. They are the one parser of settings: of a new game, of a game
// the browser kept (package offline) and of a saved one (the server's
// store), each turned into a match.Config by Config.
type Settings struct {
	Mode     string   `json:"mode"`  // ai (""), local or online
	Level    string   `json:"level"` // easy (""), medium or hard
	Human    *int     `json:"human"` // the creator's seat (ai and online); nil: 0
	First    Seat     `json:"first"` // 0, 1 or "random"; unset: 0, or the position's player to move
	Variants []string `json:"variants"`
	Position string   `json:"position"` // a start position in notation; "": the usual one
	// Clock is an online game's time control; nil: none.
	Clock *ClockSetting `json:"clock"`
}

// Config checks the settings, filling in the defaults. The game it
// makes can start (the position is one the rules can play from). It
// sets neither the game's id, seed, time of creation nor moves.
func (q Settings) Config() (match.Config, error) {
	cfg := match.Config{Mode: match.AI, Level: ai.Easy}
	var err error
	if cfg.Mode, err = parseMode(q.Mode); err != nil {
		return cfg, err
	}
	if q.Level != "" {
		if cfg.Level, err = ParseLevel(q.Level); err != nil {
			return cfg, err
		}
	}
	if cfg.Human, err = seat("human", q.Human); err != nil {
		return cfg, err
	}
	first := q.First.pick()
	if cfg.Rules.First, err = seat("first", first); err != nil {
		return cfg, err
	}
	for _, v := range q.Variants {
		if err := cfg.Rules.Enable(v); err != nil {
			return cfg, Fail(ErrBadRequest, "variants: unknown %s, want one of %s", Short(v), strings.Join(variantNames(), ", "))
		}
	}
	if q.Position != "" {
		p, err := notation.ParsePosition(q.Position)
		if err != nil {
			return cfg, inputError("position", err)
		}
		if first != nil && rules.Player(*first) != p.ToMove {
			return cfg, Fail(ErrBadRequest, "first %d: the position has player %d to move", *first, p.ToMove)
		}
		cfg.Start = &p
		cfg.Rules.First = p.ToMove
	}
	if q.Clock != nil {
		if cfg.Mode != match.Online {
			return cfg, Fail(ErrBadRequest, "clock: only with mode online")
		}
		tc := q.Clock.control()
		cfg.Clock = &tc
	}
	return cfg, startable(cfg)
}

// startable refuses a game that cannot be played from its start.
func startable(cfg match.Config) error {
	start := cfg.Rules.Start()
	if cfg.Start != nil {
		start = *cfg.Start
	}
	if _, err := rules.NewGame(cfg.Rules, start); err != nil {
		return Fail(ErrBadRequest, "position: %v", err)
	}
	return nil
}

// parseMode reads a mode's name; "" is ai.
func parseMode(name string) (match.Mode, error) {
	switch name {
	case "", "ai":
		return match.AI, nil
	case "local":
		return match.Local, nil
	case "online":
		return match.Online, nil
	}
	return match.AI, Fail(ErrBadRequest, "mode: unknown %s, want ai, local or online", Short(name))
}

// ParseLevel reads a level's name.
func ParseLevel(name string) (ai.Level, error) {
	l, err := ai.ParseLevel(name)
	if err != nil {
		return l, Fail(ErrBadRequest, "level: unknown %s, want easy, medium or hard", Short(name))
	}
	return l, nil
}

// seat reads the seat of field name; nil is seat 0.
func seat(name string, v *int) (rules.Player, error) {
	if v == nil {
		return 0, nil
	}
	if *v != 0 && *v != 1 {
		return 0, Fail(ErrBadRequest, "%s %d: want 0 or 1", name, *v)
	}
	return rules.Player(*v), nil
}

// ParseMoves reads a game's moves in notation.
func ParseMoves(texts []string) ([]rules.Move, error) {
	var moves []rules.Move
	for _, text := range texts {
		mv, err := notation.ParseMove(text)
		if err != nil {
			return nil, inputError("moves", err)
		}
		moves = append(moves, mv)
	}
	return moves, nil
}

// Seat is a seat in a request: 0, 1 or "random". The zero Seat is
// unset.
type Seat struct {
	set    bool
	random bool
	seat   int
}

// SeatOf returns seat p, set.
func SeatOf(p int) Seat { return Seat{set: true, seat: p} }

// UnmarshalJSON takes 0, 1 or "random".
func (c *Seat) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		if s != "random" {
			return Fail(ErrBadRequest, "first: want 0, 1 or \"random\", not %s", Short(s))
		}
		c.set, c.random = true, true
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil || n != 0 && n != 1 {
		return Fail(ErrBadRequest, "first: want 0, 1 or \"random\"")
	}
	c.set, c.seat = true, n
	return nil
}

// pick returns the seat chosen, drawing one if it is "random".
func (c Seat) pick() *int {
	if !c.set {
		return nil
	}
	n := c.seat
	if c.random {
		n = mrand.IntN(2)
	}
	return &n
}

// variantNames lists the rule variants, for messages.
func variantNames() []string {
	names := make([]string, len(rules.Variants))
	for i, v := range rules.Variants {
		names[i] = v.Name
	}
	return names
}

// inputError is the refusal of a field's text that does not parse: what
// the parser said, with the input cut short.
func inputError(field string, err error) error {
	var pe *notation.ParseError
	if !errors.As(err, &pe) {
		return Fail(ErrBadRequest, "%s: %v", field, err)
	}
	if pe.Input == "" {
		return Fail(ErrBadRequest, "%s: %s: %s", field, pe.Field, pe.Msg)
	}
	return Fail(ErrBadRequest, "%s: %s %s: %s", field, pe.Field, Short(pe.Input), pe.Msg)
}
