package main

import (
	"testing"

	"oanquan/rules"
)

// BenchmarkPlayout measures what `oanquan bench` measures: one random game
// from the start per op.
func BenchmarkPlayout(b *testing.B) {
	var r rules.Rules
	start := r.Start()
	g, _ := rules.NewGame(r, start)
	rng := &lcg{1}
	turns := 0
	b.ReportAllocs()
	for b.Loop() {
		turns += playout(g, r, start, rng)
	}
	b.ReportMetric(float64(turns)/float64(b.N), "turns/op")
}
