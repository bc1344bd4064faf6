package server

import (
	"context"
	"errors"
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
	ply, err := reviewPly(r.URL.Query().Get("ply"), len(st.Moves))
	if err != nil {
		return err
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
	ply, err := reviewPly(strconv.Itoa(*q.Ply), len(rec.Moves))
	if err != nil {
		return err
	}
	return s.review(w, r.Context(), rec.Rules, rec.Start, rec.Moves, ply)
}

// reviewPly reads the index of the move to review among n moves.
func reviewPly(text string, n int) (int, error) {
	ply, err := strconv.Atoi(text)
	switch {
	case n == 0:
		return 0, fail(errBadRequest, "ply: the game has no move to review")
	case text == "":
		return 0, fail(errBadRequest, "missing ply: want a move's index, 0 to %d", n-1)
	case err != nil || ply < 0 || ply >= n:
		return 0, fail(errBadRequest, "ply: want a move's index, 0 to %d, not %s", n-1, short(text))
	}
	return ply, nil
}

// review reviews move ply of the game that plays moves from start under
// rules, on the pool, and writes it with the positions around it.
func (s *Server) review(w http.ResponseWriter, ctx context.Context, r rules.Rules, start rules.Position, moves []rules.Move, ply int) error {
	var searchErr error
	answer, err := wire.ReviewAt(r, start, moves, ply, func(history []rules.Position, m rules.Move) (ai.MoveReview, error) {
		mr, err := s.pool.Review(ctx, r, history, m, ai.ReviewLimits{MoveTime: s.cfg.ReviewTime})
		searchErr = err
		return mr, err
	})
	if errors.Is(searchErr, context.Canceled) || errors.Is(searchErr, context.DeadlineExceeded) {
		return searchErr // the client left
	}
	if err != nil {
		return fail(errBadRequest, "move %d: %v", ply+1, err)
	}
	writeJSON(w, http.StatusOK, answer)
	return nil
}
