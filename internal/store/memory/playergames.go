package memory

import (
	"cmp"
	"context"
	"slices"
	"time"

	"oanquan/internal/store"
)

// GamesOf returns account's games created before before, newest first.
func (m *DB) GamesOf(ctx context.Context, account string, before time.Time, limit int) ([]string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var gs []*store.Game
	for _, g := range m.games {
		if account != "" && (g.Accounts[0] == account || g.Accounts[1] == account) && g.Created.Before(before) {
			gs = append(gs, g)
		}
	}
	slices.SortFunc(gs, func(a, b *store.Game) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	out := []string{}
	for _, g := range gs[:min(len(gs), limit)] {
		out = append(out, g.ID)
	}
	return out, nil
}

// RatedInPlay returns account's rated games that go on.
func (m *DB) RatedInPlay(ctx context.Context, account string) ([]string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := []string{}
	for id, g := range m.games {
		_, finished := m.finished[id]
		if account != "" && (g.Accounts[0] == account || g.Accounts[1] == account) && g.Accounts[0] != "" && g.Accounts[1] != "" &&
			g.Rated != "" && g.RatingChange == nil && !finished {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}
