package ai

import (
	"context"
	"testing"

	"oanquan/rules"
)

// FuzzSearchLegal plays the moves the input picks from the start (each
// byte chooses among the legal moves; the first two choose the level,
// the depth and a variant), then checks that Search returns a legal move
// and Hints scores every legal move.
func FuzzSearchLegal(f *testing.F) {
	f.Add([]byte{2, 3, 0, 1, 2, 3, 4, 5})
	f.Add([]byte{0, 1, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9})
	f.Add([]byte{1, 4, 200, 17, 33, 1, 0, 0, 5, 250, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		var r rules.Rules
		if v := int(data[1] >> 4); v < len(rules.Variants) {
			if err := r.Enable(rules.Variants[v].Name); err != nil {
				t.Fatal(err)
			}
		}
		g, _ := rules.NewGame(r, r.Start())
		for _, b := range data[2:] {
			if g.Over() {
				return
			}
			ms := g.LegalMoves(nil)
			g.Play(ms[int(b)%len(ms)], nil)
		}
		if g.Over() {
			return
		}
		pos := g.Position()
		lim := Limits{Level: Level(data[0] % 3), Depth: 1 + int(data[1]&7), Seed: uint64(len(data)), Rules: r, History: g.History(), TableMB: 1}
		res, err := Search(context.Background(), pos, lim)
		if err != nil {
			t.Fatalf("Search(%v): %v", pos, err)
		}
		if err := pos.Legal(res.Move); err != nil {
			t.Fatalf("Search(%v) = %v: %v", pos, res.Move, err)
		}
		lim.Depth = 1 + int(data[1]&3)
		hints, err := Hints(context.Background(), pos, lim)
		if err != nil || len(hints) != len(pos.LegalMoves(nil)) {
			t.Fatalf("Hints(%v) = %v, %v: want every legal move", pos, hints, err)
		}
	})
}
