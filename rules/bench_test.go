package rules

import (
	"math/rand/v2"
	"testing"
)

// playout plays random moves from the start of g to the end and returns the
// number of turns.
func playout(g *Game, r Rules, rng *rand.PCG) int {
	g.Reset(r, r.Start())
	turns := 0
	for !g.Over() {
		ms := g.MoveSet()
		g.play(ms.Moves[(rng.Uint64()>>32)*uint64(ms.N)>>32], nil)
		turns++
	}
	return turns
}

func BenchmarkPlayout(b *testing.B) {
	var r Rules
	g, _ := NewGame(r, r.Start())
	rng := rand.NewPCG(1, 2)
	turns := 0
	b.ReportAllocs()
	for b.Loop() {
		turns += playout(g, r, rng)
	}
	b.ReportMetric(float64(turns)/float64(b.N), "turns/op")
}
