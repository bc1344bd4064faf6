package rules

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkPlay measures one turn, Position.Play without a trace, on the
// turns of 1,000 random games. (oanquan bench and BenchmarkPlayout in
// cmd/oanquan measure whole games.)
func BenchmarkPlay(b *testing.B) {
	type turn struct {
		p Position
		m Move
	}
	var turns []turn
	rng := rand.New(rand.NewPCG(1, 2))
	var r Rules
	for range 1000 {
		g, _ := NewGame(r, r.Start())
		for !g.Over() {
			ms := g.MoveSet()
			m := ms.Moves[rng.IntN(int(ms.N))]
			turns = append(turns, turn{g.Position(), m})
			g.PlayLegal(m, nil)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t := &turns[i]
		p := t.p
		p.Play(t.m, &r, nil)
		if i++; i == len(turns) {
			i = 0
		}
	}
}

// BenchmarkPlayTraced is BenchmarkPlay recording every event, as the
// server does, into a reused trace.
func BenchmarkPlayTraced(b *testing.B) {
	var r Rules
	var tr Trace
	p0 := r.Start()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		p := p0
		p.Play(MakeMove(7, Right), &r, &tr)
	}
}

func BenchmarkPerft5(b *testing.B) {
	var r Rules
	for b.Loop() {
		Perft(r, r.Start(), 5)
	}
}
