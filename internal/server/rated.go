package server

import (
	"context"
	"errors"
	"time"

	"oanquan/internal/accounts"
	"oanquan/internal/api"
	"oanquan/internal/match"
	"oanquan/internal/rating"
	"oanquan/internal/store"
	"oanquan/notation"
)

// Rated games (issue 21): an online game with a clock between two
// accounts, created with "rated": true. When it ends, but for an abort,
// the change that ends it and both players' new ratings are saved in one
// transaction of the store (store.Accounts.EndRated); the ratings before
// and after are read back by GET /api/games/{id}/players.

// speedOf returns the speed a time control is rated in.
func speedOf(tc match.TimeControl) rating.Speed {
	sp, err := rating.SpeedOf(tc)
	if err != nil { // a time control match accepted always has a speed
		return rating.Classical
	}
	return sp
}

// score0 is seat 0's score in a game won by winner (-1: a draw).
func score0(winner int) float64 {
	switch winner {
	case 0:
		return 1
	case 1:
		return 0
	}
	return 0.5
}

// endsRated reports whether c is the change that ends a rated game with
// a result: the last move, or the status that first says how it ended
// (not an abort, and not a later change of an ended game's status, such
// as a rematch offer).
func endsRated(c match.Change) bool {
	if !c.Over || !c.Rated {
		return false
	}
	if c.Kind == match.Moved {
		return true
	}
	k := c.Status.Outcome.Kind
	return c.Kind == match.StatusSet && c.From.Outcome.Kind == "" && k != "" && k != match.OutcomeAbort
}

// endRated saves c, the change that ends a rated game, with both
// players' new ratings (package accounts), and reports whether it did.
// It did not, with no error, when the game turns out not to be rated in
// the store (a seat with no account): c is then saved as any change.
func (s *Server) endRated(ctx context.Context, c match.Change) (bool, error) {
	if c.Ratings == nil {
		return false, nil
	}
	e := store.Ending{Waiting: store.Waiting(c.Waiting), Score0: score0(c.Winner), At: time.Now()}
	switch c.Kind {
	case match.Moved:
		e.Index, e.Move, e.Clock = c.Index, notation.FormatMove(c.Move), clockOfChange(c)
	case match.StatusSet:
		e.From, e.To, e.Flag, e.Index = statusText(c.From), statusText(c.Status), c.Flag, c.Index
	default:
		return false, nil
	}
	rc, ok, err := s.accounts.EndRated(ctx, c.ID, e)
	if !ok {
		return false, err
	}
	c.Ratings.Speed = rc.Speed
	for p := range 2 {
		c.Ratings.Before[p], c.Ratings.After[p] = rc.Before[p].Rating, rc.After[p].Rating
	}
	return true, nil
}

// Seats returns who plays game id's seats, and what the game did to
// their ratings once it ended rated.
func (h host) Seats(ctx context.Context, id string) (api.Seats, error) {
	// As any request naming a game: limited per address, for what does
	// not exist.
	if _, err := h.s.gameFor(ctx, h.r, id); err != nil {
		return api.Seats{}, err
	}
	g, err := h.s.store.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return api.Seats{}, api.Fail(api.ErrNotFound, "no such game")
	}
	if err != nil {
		return api.Seats{}, err
	}
	out := api.Seats{Rated: g.Rated}
	for p, name := range g.Players {
		if name != "" {
			out.Players[p].Username = &name
		}
		if rc := g.RatingChange; rc != nil {
			out.Players[p].Before, out.Players[p].After = accounts.Rating(rc.Before[p]), accounts.Rating(rc.After[p])
		}
	}
	return out, nil
}

// seatAccount returns the account of the caller who takes a seat of the
// game g ("" for none), refusing one with no session in a rated game,
// or the account that holds the other seat.
func (c seated) seatAccount(ctx context.Context) (string, error) {
	h := host{s: c.s, r: c.r}
	_, a, err := h.session(ctx)
	rated := c.g.m.Config().Rated
	switch {
	case err != nil && rated:
		return "", err
	case err != nil && (errors.Is(err, api.ErrSignedOut)):
		return "", nil
	case err != nil:
		return "", err
	case !rated:
		return a.ID, nil
	}
	saved, err := c.s.store.Get(ctx, c.g.m.ID())
	if err != nil {
		return "", err
	}
	if saved.Accounts[0] == a.ID || saved.Accounts[1] == a.ID {
		return "", api.Fail(match.ErrConflict, "you hold the other seat of this rated game: invite someone else")
	}
	return a.ID, nil
}
