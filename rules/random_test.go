package rules_test

import (
	"math/rand/v2"
	"testing"

	"oanquan/rules"
)

// TestRandomMove: at every position of 300 random games, the 256 values
// of the random byte choose only legal moves, each of them by 256/N values
// rounded down or up, in the order of MoveSet (value r chooses move
// r·N/256).
func TestRandomMove(t *testing.T) {
	var r rules.Rules
	rng := rand.New(rand.NewPCG(1, 2))
	g, _ := rules.NewGame(r, r.Start())
	positions := 0
	for range 300 {
		g.Reset(r, r.Start())
		for !g.Over() {
			ms := g.MoveSet()
			n := int(ms.N)
			counts := map[rules.Move]int{}
			for b := range 256 {
				m := g.RandomMove(uint8(b))
				if want := ms.Moves[b*n/256]; m != want {
					t.Fatalf("%v: RandomMove(%d) = %v, want move %d of %v, %v", g.Position(), b, m, b*n/256, ms.Moves[:n], want)
				}
				counts[m]++
			}
			for _, m := range ms.Moves[:n] {
				if c := counts[m]; c != 256/n && c != (256+n-1)/n {
					t.Fatalf("%v: move %v chosen by %d of the 256 values, want %d or %d", g.Position(), m, c, 256/n, (256+n-1)/n)
				}
			}
			if len(counts) != n {
				t.Fatalf("%v: %d moves chosen, %d legal", g.Position(), len(counts), n)
			}
			g.PlayLegal(ms.Moves[rng.IntN(n)], nil)
			positions++
		}
	}
	t.Logf("%d positions", positions)
}
