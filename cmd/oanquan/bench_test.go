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

// TestBenchSameGames: from the same random numbers the engine's playouts
// and the plain implementation's play the same games (as `oanquan bench`
// says), game after game: the same number of turns, and the same
// generator state after each.
func TestBenchSameGames(t *testing.T) {
	var r rules.Rules
	start := r.Start()
	g, _ := rules.NewGame(r, start)
	plain := newPlainPlayer()
	a, b := &lcg{7}, &lcg{7}
	for i := range 2000 {
		ta, tb := playout(g, r, start, a), plain.playout(b)
		if ta != tb || *a != *b {
			t.Fatalf("game %d: the engine played %d turns, the plain implementation %d", i, ta, tb)
		}
	}
}
