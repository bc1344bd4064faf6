package ai

import (
	"context"
	"testing"

	"oanquan/rules"
)

// BenchmarkSearch searches the start position to a fixed depth on one
// thread and reports nodes per second.
func BenchmarkSearch(b *testing.B) {
	var r rules.Rules
	pos := r.Start()
	var nodes int64
	b.ReportAllocs()
	for b.Loop() {
		res, err := Search(context.Background(), pos, Limits{Level: Hard, Depth: 12, Threads: 1})
		if err != nil {
			b.Fatal(err)
		}
		nodes += res.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkSearchMidgame does the same from a position after eight
// random moves.
func BenchmarkSearchMidgame(b *testing.B) {
	moves, _ := Opening(rules.Rules{}, 8, 42)
	var r rules.Rules
	pos := r.Start()
	for _, m := range moves {
		pos.Play(m, &r, nil)
	}
	var nodes int64
	for b.Loop() {
		res, _ := Search(context.Background(), pos, Limits{Level: Hard, Depth: 11, Threads: 1})
		nodes += res.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
