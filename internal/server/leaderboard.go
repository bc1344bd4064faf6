package server

import (
	"context"

	"oanquan/internal/api"
)

// Leaderboard returns the top players of speed (package players),
// within the client's limit of reads of profiles.
func (h host) Leaderboard(ctx context.Context, speed string) (api.Leaderboard, error) {
	if err := h.allowProfile(); err != nil {
		return api.Leaderboard{}, err
	}
	return h.s.players.Leaderboard(ctx, speed)
}
