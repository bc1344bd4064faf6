package rating

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestBoundsUnreachedInOrdinaryPlay plays 20,000 rated games among 200
// players of fixed true strengths (spread as N(1500, 350)), each game
// won by the stronger with the Elo probability and drawn one time in
// twenty, a game every five minutes between two players drawn at random
// (about one game a player a day). It checks that no bound of the
// package is ever reached (so they change nothing in ordinary play),
// that Step 5 always converges in a few rounds, and that the ratings
// end up ordered as the strengths are.
func TestBoundsUnreachedInOrdinaryPlay(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	const players, games = 200, 20000
	strength := make([]float64, players)
	rs := make([]Rating, players)
	for i := range rs {
		strength[i] = 1500 + 350*rnd.NormFloat64()
		rs[i] = New()
	}
	var sys System
	at := t0
	maxIter := 0
	minSigma, maxSigma := math.Inf(1), math.Inf(-1)
	for range games {
		at = at.Add(5 * time.Minute)
		a := rnd.IntN(players)
		b := (a + 1 + rnd.IntN(players-1)) % players
		score := 0.0
		switch u := rnd.Float64(); {
		case u < 0.05:
			score = 0.5
		case u < 0.05+0.95/(1+math.Pow(10, (strength[b]-strength[a])/400)):
			score = 1
		}
		for _, side := range []struct {
			me, opp int
			s       float64
		}{{a, b, score}, {b, a, 1 - score}} {
			r, o := sys.AsOf(rs[side.me], at), sys.AsOf(rs[side.opp], at)
			st := steps(r, []Result{{o, side.s}}, Tau)
			raw := st.mu1*scale + NewRating
			if raw <= MinRating || raw >= MaxRating || st.sigmaRaw <= MinVolatility || st.sigmaRaw >= MaxVolatility || st.phi1 >= newPhi {
				t.Fatalf("game at %v: rating %.1f, σ′ %.5f, RD %.1f: a bound reached", at, raw, st.sigmaRaw, st.phi1*scale)
			}
			maxIter = max(maxIter, st.iterations)
			minSigma, maxSigma = min(minSigma, st.sigmaRaw), max(maxSigma, st.sigmaRaw)
		}
		na, nb, err := sys.Game(rs[a], rs[b], score, at)
		if err != nil {
			t.Fatal(err)
		}
		rs[a], rs[b] = na, nb
	}
	if maxIter > 30 {
		t.Errorf("Step 5 took up to %d rounds, want at most 30", maxIter)
	}
	// Ratings ordered as strengths: Spearman's rank correlation.
	rho := rankCorrelation(strength, func() []float64 {
		x := make([]float64, players)
		for i, r := range rs {
			x[i] = r.Rating
		}
		return x
	}())
	if rho < 0.95 {
		t.Errorf("rank correlation of ratings with strengths %.3f, want at least 0.95", rho)
	}
	rds := make([]float64, players)
	for i, r := range rs {
		rds[i] = r.RD
	}
	slices.Sort(rds)
	t.Logf("%d games: σ′ from %.5f to %.5f, Step 5 at most %d rounds, rank correlation %.3f, median RD %.1f (%.1f to %.1f)",
		games, minSigma, maxSigma, maxIter, rho, rds[players/2], rds[0], rds[players-1])
}

func rankCorrelation(x, y []float64) float64 {
	rx, ry := ranks(x), ranks(y)
	n := float64(len(x))
	var d2 float64
	for i := range rx {
		d := rx[i] - ry[i]
		d2 += d * d
	}
	return 1 - 6*d2/(n*(n*n-1))
}

func ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	r := make([]float64, len(x))
	for rank, i := range idx {
		r[i] = float64(rank)
	}
	return r
}
