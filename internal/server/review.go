package server

import (
	"context"
	"net/http"
	"strconv"

	"oanquan/ai"
	"oanquan/internal/match"
	"oanquan/internal/wire"
	"oanquan/notation"
	"oanquan/rules"
)

// Game review (docs/API.md, "Game review"): one move at a time, so that a
// page can show the review as it grows and stop it by asking no more.
// The searches are background work on the pool: they run only when no
// game waits for its computer's move or a hint.

// reviewGame answers GET /api/games/{id}/review?ply=N: the review of
// move N (from 0) of the game. An online game is reviewed only once it
// is over: during it, a review would be a player's hint.
func (s *Server) reviewGame(w http.ResponseWriter, r *http.Request) error {
	if err := s.limits.allow(r, "review", s.limits.cfg.Reviews); err != nil {
		return err
	}
	g, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	st := g.m.State()
	if st.Mode == match.Online && !st.Over() {
		return fail(match.ErrConflict, "an online game is reviewed once it is over")
	}
	text := r.URL.Query().Get("ply")
	ply, err := strconv.Atoi(text)
	if err != nil {
		return fail(errBadRequest, "ply: want a move's index, from 0, not %s", short(text))
	}
	return s.review(w, r.Context(), st.Rules, st.Start, st.Moves, ply)
}

// reviewRecord answers POST /api/review with {"record": "…", "ply": N}:
// the review of move N of a pasted game record (docs/RECORD.md).
func (s *Server) reviewRecord(w http.ResponseWriter, r *http.Request) error {
	if err := s.limits.allow(r, "review", s.limits.cfg.Reviews); err != nil {
		return err
	}
	var q struct {
		Record *string `json:"record"`
		Ply    *int    `json:"ply"`
	}
	if err := decode(w, r, &q, false); err != nil {
		return err
	}
	if q.Record == nil {
		return fail(errBadRequest, `missing "record": want a game record (docs/RECORD.md)`)
	}
	rec, err := notation.ParseRecord(*q.Record)
	if err != nil {
		return fail(errBadRequest, "record: %v", err)
	}
	if _, err := rec.Game(); err != nil {
		return fail(errBadRequest, "record: %v", err)
	}
	if q.Ply == nil {
		return fail(errBadRequest, `missing "ply": want a move's index, from 0`)
	}
	return s.review(w, r.Context(), rec.Rules, rec.Start, rec.Moves, *q.Ply)
}

// review reviews move ply of the game that plays moves from start under
// rules, on the pool, and writes it with the positions around it. A ply
// that is not a move's index is refused (wire.ReviewAt says which are);
// a move reviewed lately is answered from the server's cache;
// a search the pool refuses (the server shutting down) or the client
// leaving keeps its own error.
func (s *Server) review(w http.ResponseWriter, ctx context.Context, r rules.Rules, start rules.Position, moves []rules.Move, ply int) error {
	var searchErr error
	answer, err := wire.ReviewAt(r, start, moves, ply, func(history []rules.Position, m rules.Move) (ai.MoveReview, error) {
		key := newReviewKey(r, start, moves, ply)
		if mr, ok := s.reviews.get(key); ok {
			return mr, nil
		}
		mr, err := s.pool.Review(ctx, r, history, m, ai.ReviewLimits{MoveTime: s.cfg.ReviewTime})
		if searchErr = err; err == nil {
			s.reviews.put(key, mr)
		}
		return mr, err
	})
	if searchErr != nil {
		return searchErr
	}
	if err != nil {
		return fail(errBadRequest, "%v", err)
	}
	writeJSON(w, http.StatusOK, answer)
	return nil
}
