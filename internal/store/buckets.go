package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Buckets are token buckets kept in the store (schema v12), so that a
// limit holds over every server sharing it rather than on each: the
// wrong passwords given for a username, the sign-ins and sign-ups of an
// address. A bucket fills at Rate tokens a second up to Burst, and is
// full when first used. The SQLite, Postgres and Memory stores implement
// it with the same contract (buckets_test.go).
type Buckets interface {
	// TakeToken takes a token from bucket key at now if it has one, or
	// in any case when debt (its tokens then fall below zero, a debt
	// the time to come pays). It reports whether it took one, and the
	// tokens the bucket had at now before.
	TakeToken(ctx context.Context, key string, rt BucketRate, now time.Time, debt bool) (taken bool, tokens float64, err error)
	// Tokens returns the tokens bucket key has at now.
	Tokens(ctx context.Context, key string, rt BucketRate, now time.Time) (float64, error)
	// ExpireBuckets deletes the buckets full at now (as good as new),
	// and returns how many.
	ExpireBuckets(ctx context.Context, now time.Time) (int, error)
}

// BucketRate is how a bucket fills: PerSecond tokens a second, up to
// Burst.
type BucketRate struct {
	PerSecond float64
	Burst     int
}

var (
	_ Buckets = (*Memory)(nil)
	_ Buckets = (*SQLite)(nil)
	_ Buckets = (*Postgres)(nil)
)

// filled returns the tokens of a bucket that had tokens at updated, at
// now.
func filled(tokens float64, updated time.Time, rt BucketRate, now time.Time) float64 {
	if d := now.Sub(updated); d > 0 {
		tokens += d.Seconds() * rt.PerSecond
	}
	return min(tokens, float64(rt.Burst))
}

// bucketRow is a bucket as it was last charged.
type bucketRow struct {
	tokens  float64
	updated time.Time
	rt      BucketRate
}

// take is TakeToken on row (nil: none yet); it returns the row to save
// (nil: nothing to save).
func take(row *bucketRow, rt BucketRate, now time.Time, debt bool) (bool, float64, *bucketRow) {
	t := float64(rt.Burst)
	if row != nil {
		t = filled(row.tokens, row.updated, rt, now)
	}
	if t < 1 && !debt {
		return false, t, nil
	}
	return true, t, &bucketRow{tokens: t - 1, updated: now, rt: rt}
}

// TakeToken takes a token, under the lock.
func (m *Memory) TakeToken(ctx context.Context, key string, rt BucketRate, now time.Time, debt bool) (bool, float64, error) {
	if err := ctx.Err(); err != nil {
		return false, 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.buckets == nil {
		m.buckets = map[string]bucketRow{}
	}
	var row *bucketRow
	if r, ok := m.buckets[key]; ok {
		row = &r
	}
	taken, t, save := take(row, rt, now, debt)
	if save != nil {
		m.buckets[key] = *save
	}
	return taken, t, nil
}

// Tokens returns a bucket's tokens.
func (m *Memory) Tokens(ctx context.Context, key string, rt BucketRate, now time.Time) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.buckets[key]; ok {
		return filled(r.tokens, r.updated, rt, now), nil
	}
	return float64(rt.Burst), nil
}

// ExpireBuckets deletes the full buckets.
func (m *Memory) ExpireBuckets(ctx context.Context, now time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for k, r := range m.buckets {
		if filled(r.tokens, r.updated, r.rt, now) >= float64(r.rt.Burst) {
			delete(m.buckets, k)
			n++
		}
	}
	return n, nil
}

// TakeToken takes a token in one of the writer's transactions.
func (s *SQLite) TakeToken(ctx context.Context, key string, rt BucketRate, now time.Time, debt bool) (bool, float64, error) {
	var taken bool
	var t float64
	err := s.write(ctx, func(w *sqliteWriter) error {
		var row *bucketRow
		var r bucketRow
		var updated int64
		switch err := w.queryRow(`SELECT tokens, updated FROM buckets WHERE key = ?`, key).Scan(&r.tokens, &updated); err {
		case nil:
			r.updated = time.Unix(0, updated)
			row = &r
		case sql.ErrNoRows:
		default:
			return err
		}
		var save *bucketRow
		taken, t, save = take(row, rt, now, debt)
		if save == nil {
			return nil
		}
		_, err := w.exec(`INSERT INTO buckets (key, tokens, updated, rate, burst) VALUES (?1, ?2, ?3, ?4, ?5)
			ON CONFLICT (key) DO UPDATE SET tokens = ?2, updated = ?3, rate = ?4, burst = ?5`,
			key, save.tokens, now.UnixNano(), rt.PerSecond, rt.Burst)
		return err
	})
	if err != nil {
		return false, 0, fmt.Errorf("store: taking a token: %w", err)
	}
	return taken, t, nil
}

// Tokens returns a bucket's tokens.
func (s *SQLite) Tokens(ctx context.Context, key string, rt BucketRate, now time.Time) (float64, error) {
	var tokens float64
	var updated int64
	switch err := s.rdb.QueryRowContext(ctx, `SELECT tokens, updated FROM buckets WHERE key = ?`, key).Scan(&tokens, &updated); err {
	case nil:
		return filled(tokens, time.Unix(0, updated), rt, now), nil
	case sql.ErrNoRows:
		return float64(rt.Burst), nil
	default:
		return 0, fmt.Errorf("store: reading a bucket: %w", err)
	}
}

// ExpireBuckets deletes the full buckets.
func (s *SQLite) ExpireBuckets(ctx context.Context, now time.Time) (int, error) {
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

// TakeToken takes a token in a transaction that locks the bucket's row:
// of two servers charging one bucket at once, one waits for the other.
func (p *Postgres) TakeToken(ctx context.Context, key string, rt BucketRate, now time.Time, debt bool) (bool, float64, error) {
	var taken bool
	var t float64
	err := p.inTx(ctx, "taking a token", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO buckets (key, tokens, updated, rate, burst) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING`,
			key, float64(rt.Burst), now, rt.PerSecond, rt.Burst); err != nil {
			return err
		}
		var r bucketRow
		if err := tx.QueryRow(ctx, `SELECT tokens, updated FROM buckets WHERE key = $1 FOR UPDATE`, key).Scan(&r.tokens, &r.updated); err != nil {
			return err
		}
		var save *bucketRow
		taken, t, save = take(&r, rt, now, debt)
		if save == nil {
			return nil
		}
		_, err := tx.Exec(ctx, `UPDATE buckets SET tokens = $2, updated = $3, rate = $4, burst = $5 WHERE key = $1`,
			key, save.tokens, now, rt.PerSecond, rt.Burst)
		return err
	})
	return taken, t, err
}

// Tokens returns a bucket's tokens.
func (p *Postgres) Tokens(ctx context.Context, key string, rt BucketRate, now time.Time) (float64, error) {
	var r bucketRow
	switch err := p.pool.QueryRow(ctx, `SELECT tokens, updated FROM buckets WHERE key = $1`, key).Scan(&r.tokens, &r.updated); err {
	case nil:
		return filled(r.tokens, r.updated, rt, now), nil
	case pgx.ErrNoRows:
		return float64(rt.Burst), nil
	default:
		return 0, fmt.Errorf("store: reading a bucket: %w", err)
	}
}

// ExpireBuckets deletes the full buckets.
func (p *Postgres) ExpireBuckets(ctx context.Context, now time.Time) (int, error) {
	tag, err := p.pool.Exec(ctx, `DELETE FROM buckets WHERE tokens + greatest(extract(epoch FROM $1::timestamptz - updated), 0) * rate >= burst`, now)
	if err != nil {
		return 0, fmt.Errorf("store: deleting full buckets: %w", err)
	}
	return int(tag.RowsAffected()), nil
}
