package server

import (
	"net/http"
	"time"

	"oanquan/ai"
	"oanquan/internal/match"
	"oanquan/notation"
	"oanquan/rules"
)

// The handlers of docs/API.md. Each returns an error for writeError, or
// writes its answer and returns nil.

type createRequest struct {
	Mode     string   `json:"mode"`
	Level    string   `json:"level"`
	Human    *int     `json:"human"`
	First    *int     `json:"first"`
	Variants []string `json:"variants"`
	Position string   `json:"position"` // a start position in notation; "": the usual one
}

// config checks a new game's settings, filling in the defaults.
func (q *createRequest) config() (match.Config, error) {
	cfg := match.Config{Mode: match.AI, Level: ai.Easy, Seed: newSeed(), Created: time.Now()}
	switch q.Mode {
	case "", "ai":
	case "local":
		cfg.Mode = match.Local
	default:
		return cfg, fail(errBadRequest, "unknown mode %q: want ai or local", q.Mode)
	}
	if q.Level != "" {
		l, err := ai.ParseLevel(q.Level)
		if err != nil {
			return cfg, fail(errBadRequest, "unknown level %q: want easy, medium or hard", q.Level)
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
	if cfg.Rules.First, err = seat("first", q.First); err != nil {
		return cfg, err
	}
	for _, v := range q.Variants {
		if err := cfg.Rules.Enable(v); err != nil {
			return cfg, fail(errBadRequest, "%v", err)
		}
	}
	if q.Position != "" {
		p, err := notation.ParsePosition(q.Position)
		if err != nil {
			return cfg, fail(errBadRequest, "position: %v", err)
		}
		if q.First != nil && rules.Player(*q.First) != p.ToMove {
			return cfg, fail(errBadRequest, "first %d: the position has player %d to move", *q.First, p.ToMove)
		}
		cfg.Start = &p
		cfg.Rules.First = p.ToMove
	}
	return cfg, nil
}

func (s *Server) createGame(w http.ResponseWriter, r *http.Request) error {
	var q createRequest
	if err := decode(w, r, &q, true); err != nil {
		return err
	}
	cfg, err := q.config()
	if err != nil {
		return err
	}
	m, err := s.newMatch(r.Context(), cfg)
	if err != nil {
		return err
	}
	st := m.State()
	w.Header().Set("Location", "/api/games/"+st.ID)
	writeJSON(w, http.StatusCreated, toGameJSON(&st))
	return nil
}

func (s *Server) getGame(w http.ResponseWriter, r *http.Request) error {
	m, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	st := m.State()
	writeJSON(w, http.StatusOK, toGameJSON(&st))
	return nil
}

type moveRequest struct {
	Move *string `json:"move"`
	Ply  *int    `json:"ply"`
}

func (s *Server) playMove(w http.ResponseWriter, r *http.Request) error {
	m, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
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
		return fail(errBadRequest, "%v", err)
	}
	turn, err := m.Play(mv, q.Ply)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, toTurnJSON(&turn))
	return nil
}

func (s *Server) undo(w http.ResponseWriter, r *http.Request) error {
	m, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	var q struct{}
	if err := decode(w, r, &q, true); err != nil {
		return err
	}
	st, err := m.Undo()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, toGameJSON(&st))
	return nil
}

type levelRequest struct {
	Level *string `json:"level"`
}

func (s *Server) setLevel(w http.ResponseWriter, r *http.Request) error {
	m, err := s.game(r.Context(), r.PathValue("id"))
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
		return fail(errBadRequest, "unknown level %q: want easy, medium or hard", *q.Level)
	}
	st, err := m.SetLevel(l)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, toGameJSON(&st))
	return nil
}

func (s *Server) hints(w http.ResponseWriter, r *http.Request) error {
	m, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	hs, err := m.Hints(r.Context())
	if err != nil {
		return err
	}
	out := hintsJSON{Hints: make([]hintJSON, len(hs))}
	for i, h := range hs {
		out.Hints[i] = hintJSON{Move: notation.FormatMove(h.Move), Score: h.Score}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// record answers with the game record of docs/RECORD.md.
func (s *Server) record(w http.ResponseWriter, r *http.Request) error {
	m, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	st := m.State()
	cfg := m.Config()
	g, err := rules.NewGame(st.Rules, st.Start)
	if err != nil {
		return err
	}
	for _, mv := range st.Moves {
		if _, err := g.Play(mv, nil); err != nil {
			return err
		}
	}
	tags := map[string]string{"Event": "Ô Ăn Quan", "Site": "oanquan", "Mode": string(st.Mode)}
	if !cfg.Created.IsZero() {
		tags["Date"] = cfg.Created.UTC().Format("2006.01.02")
	}
	if st.Mode == match.AI {
		tags["Player"+st.Human.String()] = "Human"
		tags["Player"+st.Human.Other().String()] = "Computer (" + st.Level.String() + ")"
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `inline; filename="oanquan-`+st.ID+`.txt"`)
	w.WriteHeader(http.StatusOK)
	w.Write([]byte(notation.FormatGame(g, tags)))
	return nil
}
