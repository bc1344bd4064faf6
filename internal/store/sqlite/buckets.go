package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"oanquan/internal/store"
)

// TakeToken takes a token in one of the writer's transactions.
func (s *DB) TakeToken(ctx context.Context, key string, rt store.BucketRate, now time.Time, debt bool) (bool, float64, error) {
	var taken bool
	var t float64
	err := s.write(ctx, func(w *sqliteWriter) error {
		var row *store.BucketRow
		var r store.BucketRow
		var updated int64
		switch err := w.queryRow(`SELECT tokens, updated FROM buckets WHERE key = ?`, key).Scan(&r.Tokens, &updated); err {
		case nil:
			r.Updated = time.Unix(0, updated)
			row = &r
		case sql.ErrNoRows:
		default:
			return err
		}
		var save *store.BucketRow
		taken, t, save = store.Take(row, rt, now, debt)
		if save == nil {
			return nil
		}
		_, err := w.exec(`INSERT INTO buckets (key, tokens, updated, rate, burst) VALUES (?1, ?2, ?3, ?4, ?5)
			ON CONFLICT (key) DO UPDATE SET tokens = ?2, updated = ?3, rate = ?4, burst = ?5`,
			key, save.Tokens, now.UnixNano(), rt.PerSecond, rt.Burst)
		return err
	})
	if err != nil {
		return false, 0, fmt.Errorf("store: taking a token: %w", err)
	}
	return taken, t, nil
}

// Tokens returns a bucket's tokens.
func (s *DB) Tokens(ctx context.Context, key string, rt store.BucketRate, now time.Time) (float64, error) {
	var tokens float64
	var updated int64
	switch err := s.rdb.QueryRowContext(ctx, `SELECT tokens, updated FROM buckets WHERE key = ?`, key).Scan(&tokens, &updated); err {
	case nil:
		return store.Filled(tokens, time.Unix(0, updated), rt, now), nil
	case sql.ErrNoRows:
		return float64(rt.Burst), nil
	default:
		return 0, fmt.Errorf("store: reading a bucket: %w", err)
	}
}

// ExpireBuckets deletes the full buckets.
func (s *DB) ExpireBuckets(ctx context.Context, now time.Time) (int, error) {
	var n int64
	err := s.write(ctx, func(w *sqliteWriter) error {
		res, err := w.exec(`DELETE FROM buckets WHERE tokens + max(?1 - updated, 0) / 1e9 * rate >= burst`, now.UnixNano())
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}
