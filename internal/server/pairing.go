package server

import (
	"context"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/wire"
)

// Quick pairing (issue 21, package lobby): a player joins the pool of a
// time control (POST /api/pairing) with a ticket, paired at once if it
// can be (Lobby.Pair), or held by its poster's lobby socket.

// JoinPool puts the caller's ticket in the pool of q's time control and
// pairs it at once if it can.
func (h host) JoinPool(ctx context.Context, q api.SeekRequest) (api.Ticket, error) {
	// A caller who sends the secret of its ticket waiting in this pool
	// gets it back: a second click never makes a second ticket, which
	// could be paired with the first.
	if b := bearer(h.r); b != "" {
		open, err := h.s.store.OpenSeeks(ctx, time.Now())
		if err != nil {
			return api.Ticket{}, err
		}
		for _, k := range open {
			if k.Pool && h.posted(k) && k.Initial == q.Clock.Initial && k.Increment == q.Clock.Increment && k.Days == q.Clock.Days && k.Rated == q.Rated {
				return api.Ticket{ID: k.ID, Secret: b, Speed: k.Speed}, nil
			}
		}
	}
	k, secret, err := h.newSeek(ctx, q, true)
	if err != nil {
		return api.Ticket{}, err
	}
	t := api.Ticket{ID: k.ID, Secret: secret, Speed: k.Speed}
	p, err := h.s.lobby.Pair(ctx, k)
	if err != nil || p.Match == nil {
		// Not paired; or paired by another request, on this server or
		// another, which may not have made the game yet: the ticket
		// says it once held (lobby socket), or GET /api/seeks/{id}.
		return t, err
	}
	st := p.Match.State()
	game := wire.GameOf(&st)
	t.Game, t.Seat = &game, &p.Seat
	return t, nil
}
