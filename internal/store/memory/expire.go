package memory

import (
	"context"
	"fmt"

	"oanquan/internal/store"
)

// Finish records that the game has ended, and how, unless it is
// recorded.
func (m *DB) Finish(ctx context.Context, id string, r store.Result) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.games[id]
	if !ok {
		return fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	if _, ok := m.finished[id]; !ok {
		m.finished[id] = m.now()
	}
	if g.Result == store.NoResult {
		g.Result = r
	}
	return nil
}

// Expire deletes the games due.
func (m *DB) Expire(ctx context.Context, e store.Expiry) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := []string{}
	for id, g := range m.games {
		if len(ids) >= e.Limit {
			break
		}
		if e.Due(g.Mode, g.Seats, len(g.Moves), g.Updated, m.finished[id]) {
			ids = append(ids, id)
			delete(m.games, id)
			delete(m.phrases, phraseKey{id, 0})
			delete(m.phrases, phraseKey{id, 1})
			delete(m.leases, id)
			delete(m.finished, id)
		}
	}
	return ids, nil
}
