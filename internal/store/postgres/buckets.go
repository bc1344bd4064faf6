package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"oanquan/internal/store"
)

// TakeToken takes a token in a transaction that locks the bucket's row:
// of two servers charging one bucket at once, one waits for the other.
func (p *DB) TakeToken(ctx context.Context, key string, rt store.BucketRate, now time.Time, debt bool) (bool, float64, error) {
	var taken bool
	var t float64
	err := p.inTx(ctx, "taking a token", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO buckets (key, tokens, updated, rate, burst) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING`,
			key, float64(rt.Burst), now, rt.PerSecond, rt.Burst); err != nil {
			return err
		}
		var r store.BucketRow
		if err := tx.QueryRow(ctx, `SELECT tokens, updated FROM buckets WHERE key = $1 FOR UPDATE`, key).Scan(&r.Tokens, &r.Updated); err != nil {
			return err
		}
		var save *store.BucketRow
		taken, t, save = store.Take(&r, rt, now, debt)
		if save == nil {
			return nil
		}
		_, err := tx.Exec(ctx, `UPDATE buckets SET tokens = $2, updated = $3, rate = $4, burst = $5 WHERE key = $1`,
			key, save.Tokens, now, rt.PerSecond, rt.Burst)
		return err
	})
	return taken, t, err
}

// Tokens returns a bucket's tokens.
func (p *DB) Tokens(ctx context.Context, key string, rt store.BucketRate, now time.Time) (float64, error) {
	var r store.BucketRow
	switch err := p.pool.QueryRow(ctx, `SELECT tokens, updated FROM buckets WHERE key = $1`, key).Scan(&r.Tokens, &r.Updated); err {
	case nil:
		return store.Filled(r.Tokens, r.Updated, rt, now), nil
	case pgx.ErrNoRows:
		return float64(rt.Burst), nil
	default:
		return 0, fmt.Errorf("store: reading a bucket: %w", err)
	}
}

// ExpireBuckets deletes the full buckets.
func (p *DB) ExpireBuckets(ctx context.Context, now time.Time) (int, error) {
	tag, err := p.pool.Exec(ctx, `DELETE FROM buckets WHERE tokens + greatest(extract(epoch FROM $1::timestamptz - updated), 0) * rate >= burst`, now)
	if err != nil {
		return 0, fmt.Errorf("store: deleting full buckets: %w", err)
	}
	return int(tag.RowsAffected()), nil
}
