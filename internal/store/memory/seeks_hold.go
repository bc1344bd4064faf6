package memory

import (
	"context"
	"time"
)

// A seek's hold is a lease in its row (issue 21): every server renews
// the holds of the seeks its lobby sockets hold, so that a poster whose
// page reconnects to another server keeps its seek, and any server
// sweeps the seeks no server holds any more.

// HoldSeeks extends the hold of the open seeks ids to until.
func (m *DB) HoldSeeks(ctx context.Context, ids []string, holder string, until time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		k, ok := m.seeks[id]
		if ok && k.Game == "" && k.Held.Before(until) {
			k.Holder, k.Held = holder, until
			m.seeks[id] = k
		}
	}
	return nil
}

// SweepSeeks deletes the open seeks whose hold lapsed before now.
func (m *DB) SweepSeeks(ctx context.Context, now time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for id, k := range m.seeks {
		if k.Game == "" && !k.Held.IsZero() && k.Held.Before(now) {
			delete(m.seeks, id)
			n++
		}
	}
	return n, nil
}
