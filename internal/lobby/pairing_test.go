package lobby

import (
	"testing"
	"time"

	"oanquan/internal/store"
)

// TestPairReach: tickets pair within 100 points, 50 more every 5 s of
// the longer wait; never across time controls, rated and casual, or
// with the same player.
func TestPairReach(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tk := func(id string, r float64, wait time.Duration) store.Seek {
		return store.Seek{ID: id, Key: []byte(id), Pool: true, Initial: 180, Increment: 2, Rating: r, Created: t0.Add(-wait)}
	}
	for _, c := range []struct {
		name string
		a, b store.Seek
		want bool
	}{
		{"near", tk("a", 1500, 0), tk("b", 1600, 0), true},
		{"far", tk("a", 1500, 0), tk("b", 1601, 0), false},
		{"far, waited 4 s", tk("a", 1500, 4*time.Second), tk("b", 1650, 0), false},
		{"far, waited 5 s", tk("a", 1500, 5*time.Second), tk("b", 1650, 0), true},
		{"far, the other waited 10 s", tk("a", 1500, 0), tk("b", 1700, 10*time.Second), true},
		{"other clock", tk("a", 1500, 0), func() store.Seek { k := tk("b", 1500, 0); k.Increment = 0; return k }(), false},
		{"rated and casual", tk("a", 1500, 0), func() store.Seek { k := tk("b", 1500, 0); k.Rated = true; return k }(), false},
		{"same account", func() store.Seek { k := tk("a", 1500, 0); k.Account = "x"; return k }(), func() store.Seek { k := tk("b", 1500, 0); k.Account = "x"; return k }(), false},
		{"same secret", tk("a", 1500, 0), func() store.Seek { k := tk("b", 1500, 0); k.Key = []byte("a"); return k }(), false},
	} {
		if got := pairable(c.a, c.b, t0); got != c.want {
			t.Errorf("%s: pairable = %v, want %v", c.name, got, c.want)
		}
	}
}
