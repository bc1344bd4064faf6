package server

import (
	"context"
	"errors"
	"net/http"

	"oanquan/internal/api"
	"oanquan/internal/lobby"
	"oanquan/internal/match"
	"oanquan/internal/store"
)

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
