package memory

import (
	"context"
	"time"

	"oanquan/internal/store"
)

// TakeToken takes a token, under the lock.
func (m *DB) TakeToken(ctx context.Context, key string, rt store.BucketRate, now time.Time, debt bool) (bool, float64, error) {
	if err := ctx.Err(); err != nil {
		return false, 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.buckets == nil {
		m.buckets = map[string]store.BucketRow{}
	}
	var row *store.BucketRow
	if r, ok := m.buckets[key]; ok {
		row = &r
	}
	taken, t, save := store.Take(row, rt, now, debt)
	if save != nil {
		m.buckets[key] = *save
	}
	return taken, t, nil
}

// Tokens returns a bucket's tokens.
func (m *DB) Tokens(ctx context.Context, key string, rt store.BucketRate, now time.Time) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.buckets[key]; ok {
		return store.Filled(r.Tokens, r.Updated, rt, now), nil
	}
	return float64(rt.Burst), nil
}

// ExpireBuckets deletes the full buckets.
func (m *DB) ExpireBuckets(ctx context.Context, now time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for k, r := range m.buckets {
		if store.Filled(r.Tokens, r.Updated, r.Rate, now) >= float64(r.Rate.Burst) {
			delete(m.buckets, k)
			n++
		}
	}
	return n, nil
}
