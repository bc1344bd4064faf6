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

// BenchmarkPlayoutPlain is BenchmarkPlayout with the plain implementation
// (internal/plainrules), the yardstick of `oanquan bench`: from the same
// random numbers it plays the same games.
func BenchmarkPlayoutPlain(b *testing.B) {
	p := newPlainPlayer()
	rng := &lcg{1}
	turns := 0
	b.ReportAllocs()
	for b.Loop() {
		turns += p.playout(rng)
	}
	b.ReportMetric(float64(turns)/float64(b.N), "turns/op")
}
