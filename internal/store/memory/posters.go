package memory

import (
	"context"
	"maps"

	"oanquan/internal/rating"
	"oanquan/internal/store"
)

// Posters returns the accounts of ids not deleted, with their ratings.
func (m *DB) Posters(ctx context.Context, ids []string) (map[string]store.Poster, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ac := m.acc()
	out := map[string]store.Poster{}
	for _, id := range ids {
		if a := ac.accounts[id]; a != nil {
			rs := maps.Clone(ac.ratings[id])
			if rs == nil {
				rs = map[string]rating.Rating{}
			}
			out[id] = store.Poster{Username: a.Username, Ratings: rs}
		}
	}
	return out, nil
}
