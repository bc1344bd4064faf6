package memory

import (
	"cmp"
	"context"
	"slices"
	"time"

	"oanquan/internal/store"
)

// Leaderboard returns speed's leaders.
func (m *DB) Leaderboard(ctx context.Context, speed string, since time.Time, maxRD float64, limit int) ([]store.Leader, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	ac := m.acc()
	var out []store.Leader
	for id, rs := range ac.ratings {
		r, ok := rs[speed]
		a := ac.accounts[id]
		if ok && a != nil && !r.Updated.Before(since) && r.RD <= maxRD {
			out = append(out, store.Leader{Account: id, Username: a.Username, Rating: r})
		}
	}
	slices.SortFunc(out, func(a, b store.Leader) int {
		if c := cmp.Compare(b.Rating.Rating, a.Rating.Rating); c != 0 {
			return c
		}
		return cmp.Compare(a.Username, b.Username)
	})
	return out[:min(len(out), limit)], nil
}
