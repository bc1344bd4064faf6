package server

import (
	"context"
	"time"

	"oanquan/internal/api"
)

// PlayerGames returns a page of player name's games, newest first
// (package accounts), within the client's limits.
func (h host) PlayerGames(ctx context.Context, name string, before time.Time, limit int) (api.PlayerGames, error) {
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
	return h.s.accounts.PlayerGames(ctx, acct, before, limit)
}
