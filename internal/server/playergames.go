package server

import (
	"context"
	"errors"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/store"
)

// PlayerGames returns a page of player name's games, newest first.
func (h host) PlayerGames(ctx context.Context, name string, before time.Time, limit int) (api.PlayerGames, error) {
	pg := h.s.store
	if err := h.allowProfile(); err != nil {
		return api.PlayerGames{}, err
	}
	if err := h.s.limits.AllowGame(h.s.limits.Client(h.r)); err != nil {
		return api.PlayerGames{}, err
	}
	acct, err := h.playerID(ctx, name)
	if err != nil {
		return api.PlayerGames{}, err
	}
	if err := h.s.fillResults(ctx, h.s.store, acct); err != nil {
		return api.PlayerGames{}, err
	}
	ids, err := pg.GamesOf(ctx, acct, before, limit)
	if err != nil {
		return api.PlayerGames{}, err
	}
	out := api.PlayerGames{Games: []api.PlayerGame{}}
	var last time.Time // the creation of the last game read: the next page's before
	for _, id := range ids {
		g, err := h.s.store.Get(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue // expired meanwhile
		}
		if err != nil {
			return api.PlayerGames{}, err
		}
		last = g.Created
		if g.Seats[0] == nil || g.Seats[1] == nil {
			// An invitation, its seat free for the friend invited: its
			// id would let anyone reading this list take that seat.
			continue
		}
		seat := 0
		if g.Accounts[1] == acct {
			seat = 1
		}
		v := api.PlayerGame{ID: g.ID, Created: g.Created.UTC(), Rated: g.Rated, Seat: seat, Moves: len(g.Moves)}
		if o := g.Players[1-seat]; o != "" {
			v.Opponent = &o
		}
		v.Result, v.RatingDiff = gameResult(g, seat), ratingDiff(g, seat)
		out.Games = append(out.Games, v)
	}
	if len(ids) == limit && !last.IsZero() {
		out.Next = last.UTC().Format(time.RFC3339Nano)
	}
	return out, nil
}
