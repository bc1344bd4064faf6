package ai

import (
	"context"
	"math/rand/v2"
	"testing"

	"oanquan/rules"
)

// TestEasyTakesBigCaptures finds positions where one move captures at
// least 5 points more than any other and checks that Easy takes it most
// of the time (it overlooks a capture one time in four) but not always.
func TestEasyTakesBigCaptures(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	var r rules.Rules
	taken, seen := 0, 0
	for range 400 {
		g := randomGame(t, r, rng, rng.IntN(20))
		if g.Over() {
			continue
		}
		pos := g.Position()
		before := bank(&pos, pos.ToMove)
		big, first, second := rules.NoMove, -1000, -1000
		for _, m := range pos.LegalMoves(nil) {
			c := pos
			c.Play(m, &r, nil)
			gain := bank(&c, pos.ToMove) - before
			switch {
			case gain > first:
				big, first, second = m, gain, first
			case gain > second:
				second = gain
			}
		}
		if first < second+5 {
			continue
		}
		for seed := range uint64(20) {
			res, _ := Search(context.Background(), pos, Limits{Level: Easy, Seed: seed})
			seen++
			if res.Move == big {
				taken++
			}
		}
	}
	t.Logf("%d of %d", taken, seen)
	if seen < 200 {
		t.Fatalf("only %d trials", seen)
	}
	share := float64(taken) / float64(seen)
	if share < 0.6 || share > 0.9 {
		t.Errorf("Easy took the big capture in %d of %d trials (%.0f%%), want about 75%%", taken, seen, 100*share)
	}
}
