package server

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"oanquan/ai"
	"oanquan/internal/match"
	"oanquan/internal/wire"
	"oanquan/notation"
	"oanquan/rules"
)

// The handlers of docs/API.md. Each returns an error for writeError, or
// writes its answer and returns nil.

type createRequest struct {
	Mode     string     `json:"mode"`
	Level    string     `json:"level"`
	Human    *int       `json:"human"` // the creator's seat (ai and online)
	First    seatChoice `json:"first"` // 0, 1 or "random"
	Variants []string   `json:"variants"`
	Position string     `json:"position"` // a start position in notation; "": the usual one
}

// config checks a new game's settings, filling in the defaults.
func (q *createRequest) config() (match.Config, error) {
	cfg := match.Config{Mode: match.AI, Level: ai.Easy, Seed: newSeed(), Created: time.Now()}
	switch q.Mode {
	case "", "ai":
	case "local":
		cfg.Mode = match.Local
	case "online":
		cfg.Mode = match.Online
	default:
		return cfg, fail(errBadRequest, "mode: unknown %s, want ai, local or online", short(q.Mode))
	}
	if q.Level != "" {
		l, err := ai.ParseLevel(q.Level)
		if err != nil {
			return cfg, fail(errBadRequest, "level: unknown %s, want easy, medium or hard", short(q.Level))
		}
		cfg.Level = l
	}
	seat := func(name string, v *int) (rules.Player, error) {
		if v == nil {
			return 0, nil
		}
		if *v != 0 && *v != 1 {
			return 0, fail(errBadRequest, "%s %d: want 0 or 1", name, *v)
		}
		return rules.Player(*v), nil
	}
	var err error
	if cfg.Human, err = seat("human", q.Human); err != nil {
		return cfg, err
	}
	first := q.First.pick()
	if cfg.Rules.First, err = seat("first", first); err != nil {
		return cfg, err
	}
	for _, v := range q.Variants {
		if err := cfg.Rules.Enable(v); err != nil {
			return cfg, fail(errBadRequest, "variants: unknown %s, want one of %s", short(v), strings.Join(variantNames(), ", "))
		}
	}
	if q.Position != "" {
		p, err := notation.ParsePosition(q.Position)
		if err != nil {
			return cfg, inputError("position", err)
		}
		if first != nil && rules.Player(*first) != p.ToMove {
			return cfg, fail(errBadRequest, "first %d: the position has player %d to move", *first, p.ToMove)
		}
		cfg.Start = &p
		cfg.Rules.First = p.ToMove
	}
	return cfg, nil
}

// actor returns the game r acts in, if r carries the secret of one of its
// seats.
func (s *Server) actor(r *http.Request) (*liveGame, error) {
	g, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	if err := g.authorize(r); err != nil {
		return nil, err
	}
	return g, nil
}

func (s *Server) createGame(w http.ResponseWriter, r *http.Request) error {
	if err := s.limits.allow(r, "new game", s.limits.cfg.Creates); err != nil {
		return err
	}
	var q createRequest
	if err := decode(w, r, &q, true); err != nil {
		return err
	}
	cfg, err := q.config()
	if err != nil {
		return err
	}
	seats := []rules.Player{cfg.Human} // against the computer, and online: the other seat is the friend's
	if cfg.Mode == match.Local {
		seats = []rules.Player{rules.Player0, rules.Player1}
	}
	secret := newSecret()
	m, err := s.newMatch(r.Context(), cfg, seats, secret)
	if err != nil {
		return err
	}
	st := m.State()
	out := createdJSON{Game: wire.GameOf(&st), Secret: secret, Seat: int(seats[0])}
	for _, p := range seats {
		out.Seats = append(out.Seats, int(p))
	}
	s.log.Info("game created", "id", st.ID, "mode", st.Mode, "level", st.Level.String())
	w.Header().Set("Location", "/api/games/"+st.ID)
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (s *Server) getGame(w http.ResponseWriter, r *http.Request) error {
	g, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	st := g.m.State()
	writeJSON(w, http.StatusOK, wire.GameOf(&st))
	return nil
}

type moveRequest struct {
	Move *string `json:"move"`
	Ply  *int    `json:"ply"`
}

func (s *Server) playMove(w http.ResponseWriter, r *http.Request) error {
	g, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	// Online, the move is the seat's whose secret is sent; otherwise any
	// seat's secret acts for the game.
	var seat *rules.Player
	if g.m.Mode() == match.Online {
		p, err := s.player(r, g)
		if err != nil {
			return err
		}
		seat = &p
	} else if err := g.authorize(r); err != nil {
		return err
	}
	var q moveRequest
	if err := decode(w, r, &q, false); err != nil {
		return err
	}
	if q.Move == nil {
		return fail(errBadRequest, `missing "move": want a move such as "7R"`)
	}
	mv, err := notation.ParseMove(*q.Move)
	if err != nil {
		return inputError("move", err)
	}
	var turn match.Turn
	if seat != nil {
		turn, err = g.m.PlayFor(*seat, mv, q.Ply)
	} else {
		turn, err = g.m.Play(mv, q.Ply)
	}
	if errors.Is(err, match.ErrStale) && q.Ply != nil {
		// Sent again after its answer was lost? Then it was played once,
		// and this is its answer. Anything else: the game as it stands.
		// (Played through another server, it may not be here yet.)
		s.resync(g.m.ID())
		if t, ok := g.m.PlayedAt(*q.Ply, mv, seat); ok {
			writeJSON(w, http.StatusOK, wire.TurnOf(&t))
			return nil
		}
		st := g.m.State()
		return &staleError{err, wire.GameOf(&st)}
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.TurnOf(&turn))
	return nil
}

func (s *Server) undo(w http.ResponseWriter, r *http.Request) error {
	g, err := s.actor(r)
	if err != nil {
		return err
	}
	var q struct{}
	if err := decode(w, r, &q, true); err != nil {
		return err
	}
	st, err := g.m.Undo()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.GameOf(&st))
	return nil
}

type levelRequest struct {
	Level *string `json:"level"`
}

func (s *Server) setLevel(w http.ResponseWriter, r *http.Request) error {
	g, err := s.actor(r)
	if err != nil {
		return err
	}
	var q levelRequest
	if err := decode(w, r, &q, false); err != nil {
		return err
	}
	if q.Level == nil {
		return fail(errBadRequest, `missing "level": want easy, medium or hard`)
	}
	l, err := ai.ParseLevel(*q.Level)
	if err != nil {
		return fail(errBadRequest, "level: unknown %s, want easy, medium or hard", short(*q.Level))
	}
	st, err := g.m.SetLevel(l)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.GameOf(&st))
	return nil
}

func (s *Server) hints(w http.ResponseWriter, r *http.Request) error {
	g, err := s.actor(r)
	if err != nil {
		return err
	}
	if err := s.limits.allow(r, "hint", s.limits.cfg.Hints); err != nil {
		return err
	}
	hs, err := g.m.Hints(r.Context())
	if err != nil {
		return err
	}
	out := wire.Hints{Hints: make([]wire.Hint, len(hs))}
	for i, h := range hs {
		out.Hints[i] = wire.Hint{Move: notation.FormatMove(h.Move), Score: h.Score}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// record answers with the game record of docs/RECORD.md.
func (s *Server) record(w http.ResponseWriter, r *http.Request) error {
	g, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	st := g.m.State()
	text, err := wire.Record(&st, g.m.Config().Created)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `inline; filename="oanquan-`+st.ID+`.txt"`)
	w.WriteHeader(http.StatusOK)
	w.Write([]byte(text))
	return nil
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
		return fail(errBadRequest, "%s: %v", field, err)
	}
	if pe.Input == "" {
		return fail(errBadRequest, "%s: %s: %s", field, pe.Field, pe.Msg)
	}
	return fail(errBadRequest, "%s: %s %s: %s", field, pe.Field, short(pe.Input), pe.Msg)
}
