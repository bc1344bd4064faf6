package server

import (
	"context"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/rating"
	"oanquan/internal/store"
)

// The leaderboards (issue 21): per speed, the top leaderSize accounts
// with a rated game in the last leaderActive, not provisional.
const (
	leaderSize   = 100
	leaderActive = 30 * 24 * time.Hour
)

// Leaderboard returns the top players of speed.
func (h host) Leaderboard(ctx context.Context, speed string) (api.Leaderboard, error) {
	ls, ok := h.s.store.(store.Leaderboards)
	if !ok {
		return api.Leaderboard{}, api.Fail(api.ErrNotOffline, "this server keeps no ratings")
	}
	sp, err := rating.ParseSpeed(speed)
	if err != nil {
		return api.Leaderboard{}, api.Fail(api.ErrNotFound, "no such speed: want bullet, blitz, rapid, classical or correspondence")
	}
	now := time.Now()
	// As saved, RD is as of each player's last game; it grows with time
	// since (System.AsOf): a few read beyond the board, for those that
	// grew provisional since to drop out.
	rows, err := ls.Leaderboard(ctx, sp.String(), now.Add(-leaderActive), rating.ProvisionalRD, leaderSize+leaderSize/2)
	if err != nil {
		return api.Leaderboard{}, err
	}
	out := api.Leaderboard{Speed: sp.String(), Leaders: []api.Leader{}}
	for _, l := range rows {
		r := rating.System{}.AsOf(l.Rating, now)
		if r.Provisional() || len(out.Leaders) == leaderSize {
			continue
		}
		out.Leaders = append(out.Leaders, api.Leader{Rank: len(out.Leaders) + 1, Username: l.Username, Rating: ratingOf(r)})
	}
	return out, nil
}
