package memory

import (
	"cmp"
	"context"
	"slices"

	"oanquan/internal/store"
)

// Results counts account's finished games by result.
func (m *DB) Results(ctx context.Context, account string) (store.Tally, error) {
	if err := ctx.Err(); err != nil {
		return store.Tally{}, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	var t store.Tally
	for _, g := range m.games {
		if g.Mode != "online" || account == "" || g.Accounts[0] == g.Accounts[1] {
			continue
		}
		switch account {
		case g.Accounts[0]:
			t.Add(g.Result, 0)
		case g.Accounts[1]:
			t.Add(g.Result, 1)
		}
	}
	return t, nil
}

// Unresulted returns account's finished games with no result.
func (m *DB) Unresulted(ctx context.Context, account string, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := []string{}
	for id, g := range m.games {
		if _, over := m.finished[id]; over && g.Mode == "online" && g.Result == store.NoResult && account != "" &&
			(g.Accounts[0] == account || g.Accounts[1] == account) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out[:min(len(out), limit)], nil
}

// RatingHistory returns account's ratings after its rated games.
func (m *DB) RatingHistory(ctx context.Context, account string, perSpeed int) (map[string][]store.RatingPoint, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := map[string][]store.RatingPoint{}
	for _, h := range m.accts.history {
		if h.account == account {
			out[h.speed] = append(out[h.speed], store.RatingPoint{Game: h.game, At: h.at, Rating: h.after})
		}
	}
	for speed, ps := range out {
		slices.SortStableFunc(ps, func(a, b store.RatingPoint) int {
			if c := a.At.Compare(b.At); c != 0 {
				return c
			}
			return cmp.Compare(a.Game, b.Game)
		})
		out[speed] = ps[max(0, len(ps)-perSpeed):]
	}
	return out, nil
}
