package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"oanquan/ai"
	"oanquan/internal/match"
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

// reviewAnswer is the answer to a review: the move's review (as
// `oanquan review` prints it) and the positions before and after the
// move, in the notation, for a page to show.
type reviewAnswer struct {
	Review ai.MoveReview `json:"review"`
	Before string        `json:"before"`
	After  string        `json:"after"`
	Moves  int           `json:"moves"` // how many moves the game has
}

// review reviews move ply of the game that plays moves from start under
// rules, on the pool, and writes it with the positions around it.
func (s *Server) review(w http.ResponseWriter, ctx context.Context, r rules.Rules, start rules.Position, moves []rules.Move, ply int) error {
	g, err := rules.NewGame(r, start)
	if err != nil {
		return fail(errBadRequest, "position: %v", err)
	}
	history := []rules.Position{start}
	for _, m := range moves[:ply] {
		if _, err := g.Play(m, nil); err != nil {
			return fail(errBadRequest, "move %s: %v", m, err)
		}
		history = append(history, g.Position())
	}
	mr, err := s.pool.Review(ctx, r, history, moves[ply], ai.ReviewLimits{MoveTime: s.cfg.ReviewTime})
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err // the client left
	}
	if err != nil {
		return fail(errBadRequest, "move %d %s: %v", ply+1, moves[ply], err)
	}
	g.Play(moves[ply], nil)
	writeJSON(w, http.StatusOK, reviewAnswer{Review: mr, Before: notation.FormatPosition(history[ply]), After: notation.FormatPosition(g.Position()), Moves: len(moves)})
	return nil
}
