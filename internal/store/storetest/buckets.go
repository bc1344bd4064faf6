package storetest

import (
	"context"
	"math"
	"testing"
	"time"

	"oanquan/internal/store"
)

// Buckets: a bucket is full when new, gives its tokens, refuses when
// empty unless told to go into debt, fills with time up to its burst,
// and is deleted once full again (as good as new), others kept.
func Buckets(t *testing.T, b store.Full) {
	ctx := context.Background()
	rt := store.BucketRate{PerSecond: 1.0 / 60, Burst: 2}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-6 }
	if n, err := b.Tokens(ctx, "k", rt, now); err != nil || n != 2 {
		t.Fatalf("a new bucket's tokens = %v, %v; want 2", n, err)
	}
	for i, want := range []struct {
		debt   bool
		taken  bool
		before float64
	}{{false, true, 2}, {false, true, 1}, {false, false, 0}, {true, true, 0}} {
		taken, before, err := b.TakeToken(ctx, "k", rt, now, want.debt)
		if err != nil || taken != want.taken || !near(before, want.before) {
			t.Errorf("take %d (debt %v) = %v, %v, %v; want %v, %v", i+1, want.debt, taken, before, err, want.taken, want.before)
		}
	}
	if n, _ := b.Tokens(ctx, "k", rt, now.Add(90*time.Second)); !near(n, 0.5) {
		t.Errorf("tokens 90 s after a debt of one = %v, want 0.5", n)
	}
	if _, _, err := b.TakeToken(ctx, "other", rt, now, false); err != nil {
		t.Fatal(err)
	}
	if n, err := b.ExpireBuckets(ctx, now.Add(30*time.Second)); err != nil || n != 0 {
		t.Errorf("ExpireBuckets 30 s on = %d, %v; want none (neither is full)", n, err)
	}
	// "other" is full again a minute on; "k", in debt, three.
	if n, err := b.ExpireBuckets(ctx, now.Add(time.Minute)); err != nil || n != 1 {
		t.Errorf("ExpireBuckets a minute on = %d, %v; want 1", n, err)
	}
	if n, _ := b.Tokens(ctx, "k", rt, now.Add(2*time.Minute)); !near(n, 1) {
		t.Errorf("k's tokens after the expiry of another = %v, want 1", n)
	}
	if n, err := b.ExpireBuckets(ctx, now.Add(time.Hour)); err != nil || n != 1 {
		t.Errorf("ExpireBuckets an hour on = %d, %v; want 1", n, err)
	}
	if n, _ := b.Tokens(ctx, "k", rt, now.Add(time.Hour)); n != 2 {
		t.Errorf("tokens after expiry = %v, want 2", n)
	}
}
