package store

import (
	"context"
	"time"
)

// Buckets are token buckets kept in the store (schema v12), so that a
// limit holds over every server sharing it rather than on each: the
// wrong passwords given for a username, the sign-ins and sign-ups of an
// address. A bucket fills at Rate tokens a second up to Burst, and is
// full when first used. The SQLite, Postgres and Memory stores implement
// it with the same contract (storetest.Buckets).
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

// Filled returns the tokens of a bucket that had tokens at updated, at
// now.
func Filled(tokens float64, updated time.Time, rt BucketRate, now time.Time) float64 {
	if d := now.Sub(updated); d > 0 {
		tokens += d.Seconds() * rt.PerSecond
	}
	return min(tokens, float64(rt.Burst))
}

// BucketRow is a bucket as it was last charged.
type BucketRow struct {
	Tokens  float64
	Updated time.Time
	Rate    BucketRate
}

// Take is TakeToken on row (nil: none yet); it returns the row to save
// (nil: nothing to save).
func Take(row *BucketRow, rt BucketRate, now time.Time, debt bool) (bool, float64, *BucketRow) {
	t := float64(rt.Burst)
	if row != nil {
		t = Filled(row.Tokens, row.Updated, rt, now)
	}
	if t < 1 && !debt {
		return false, t, nil
	}
	return true, t, &BucketRow{Tokens: t - 1, Updated: now, Rate: rt}
}
