package endgames

import (
	"testing"

	"oanquan/rules"
)

// TestRankRoundTrip walks every board of small layers in rank order and
// checks that ranking each gives its place, and that the last is the
// layer's size less one.
func TestRankRoundTrip(t *testing.T) {
	for k := range 5 {
		var b bars
		b.unrank(0, k)
		var c [rules.NumCells]uint8
		for i := range layerSize(k) {
			if i > 0 {
				b.next()
			}
			b.cells(&c)
			r, kk := boardRank(&c)
			if r != i || kk != k || pebbles(&c) != k {
				t.Fatalf("layer %d: board %v of rank %d ranks %d in layer %d", k, c, i, r, kk)
			}
			var u bars
			u.unrank(i, k)
			if u != b {
				t.Fatalf("layer %d: unrank(%d) = %v, want %v", k, i, u.t, b.t)
			}
		}
	}
}
