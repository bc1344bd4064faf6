package server

import (
	"context"
	"net/http"

	"oanquan/rules"
)

// The seats of games between two players online (docs/API.md, "Playing
// a friend online"): a friend may join through another server sharing
// the store, so a caller who holds no seat here is looked for again
// there before being refused.

// reloadSeats reads g's seats again from the store: another server may
// have given one.
func (s *Server) reloadSeats(g *liveGame) {
	ctx, cancel := context.WithTimeout(s.ctx, saveTimeout)
	defer cancel()
	saved, err := s.store.Get(ctx, g.m.ID())
	if err != nil {
		return
	}
	for p, h := range saved.Seats {
		if h != nil {
			g.setSeat(p, h)
		}
	}
	s.presenceChanged(g)
}

// player returns the seat r acts for in an online game g.
func (s *Server) player(r *http.Request, g *liveGame) (rules.Player, error) {
	held := g.seatsOf(r)
	if len(held) == 0 {
		// Another server may have given the seat since this one read it.
		s.reloadSeats(g)
		if held = g.seatsOf(r); len(held) == 0 {
			return 0, g.authorize(r)
		}
	}
	return held[0], nil
}
