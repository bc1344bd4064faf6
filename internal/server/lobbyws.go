package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/lobby"
	"oanquan/internal/match"
	"oanquan/internal/store"
	"oanquan/internal/wire"
)

// The lobby's socket and quick pairing's ticket (package lobby): the
// host's part.

// lobbySocket serves GET /api/lobby/ws: a WebSocket client (package
// socket), admitted within the caps, served by the lobby (Lobby.Serve)
// as its session's player.
func (s *Server) lobbySocket(w http.ResponseWriter, r *http.Request) error {
	conn, err := s.admitSocket(r)
	if err != nil {
		return err
	}
	defer conn.End()
	se, a, err := host{s: s, r: r}.session(r.Context())
	switch {
	case err == nil:
	case errors.Is(err, api.ErrSignedOut):
		se, a = store.Session{}, store.Account{}
	default:
		return err
	}
	poster := s.ensurePosterKey(w, r) // a new key's cookie goes with the upgrade's answer
	if !conn.Accept(w, r) {
		return nil // Accept has answered
	}
	s.lobby.Serve(conn, lobby.Player{Account: a.ID, Session: se.Key, Client: s.limits.Client(r), Poster: poster})
	return nil
}

// lobbyChanged tells the lobby's sockets that seek id changed (posted,
// accepted or gone).
func (s *Server) lobbyChanged(string) { s.lobby.Changed() }

// lobbyGames makes the lobby's games: the server's live games.
type lobbyGames struct{ s *Server }

// NewMatch saves and makes live the game of a pairing.
func (g lobbyGames) NewMatch(ctx context.Context, id string, cfg match.Config, seats [2][]byte, accounts [2]string) (*match.Match, error) {
	return g.s.newMatch(ctx, id, cfg, seats, accounts)
}

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
