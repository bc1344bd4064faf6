package memory

import (
	"context"
	"slices"
	"time"

	"oanquan/internal/store"
)

// CreateReport saves r.
func (m *DB) CreateReport(ctx context.Context, r store.Report) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reported = append(m.reported, r)
	return nil
}

// Reports returns the reports since since, newest first.
func (m *DB) Reports(ctx context.Context, since time.Time, limit int) ([]store.Report, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []store.Report
	for _, r := range slices.Backward(m.reported) {
		if !r.Created.Before(since) && len(out) < limit {
			out = append(out, r)
		}
	}
	return out, nil
}

// CountReports counts account's reports since since.
func (m *DB) CountReports(ctx context.Context, account string, since time.Time) (int, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n := 0
	for _, r := range m.reported {
		if r.Reporter == account && !r.Created.Before(since) {
			n++
		}
	}
	return n, nil
}
