package rating

import "math"

// The steps of Glickman's "Example of the Glicko-2 system", numbered as
// there. Inputs are checked by Update; every rating here is already
// brought to the period's moment.

// period runs Steps 2 to 8 for one player with at least one result and
// returns the new rating, RD and volatility, kept within the bounds.
func (s System) period(r Rating, results []Result) Rating {
	st := steps(r, results, s.tau())
	r.Rating = clamp(st.mu1*scale+NewRating, MinRating, MaxRating)
	r.RD = st.phi1 * scale
	r.Volatility = st.sigma1
	return r
}

// stepValues holds the paper's quantities for one period, kept so that a
// test can compare each with the paper's worked example.
type stepValues struct {
	mu, phi    float64 // Step 2
	v          float64 // Step 3
	delta      float64 // Step 4
	sigma1     float64 // Step 5: σ′, within MinVolatility and MaxVolatility
	sigmaRaw   float64 // Step 5: σ′ before those bounds
	iterations int     // Step 5: rounds of the iteration
	phiStar    float64 // Step 6: φ*
	phi1, mu1  float64 // Step 7: φ′ and μ′
}

func steps(r Rating, results []Result, tau float64) stepValues {
	// Step 2: to the Glicko-2 scale.
	st := stepValues{mu: (r.Rating - NewRating) / scale, phi: r.RD / scale}
	// Steps 3 and 4: the estimated variance v of the rating from the
	// results alone, and the estimated improvement Δ.
	var info, gain float64
	for _, res := range results {
		muJ, phiJ := (res.Opponent.Rating-NewRating)/scale, res.Opponent.RD/scale
		g := gFactor(phiJ)
		e := expected(st.mu, muJ, g)
		info += g * g * e * (1 - e)
		gain += g * (res.Score - e)
	}
	st.v = 1 / info
	st.delta = st.v * gain
	// Step 5: the new volatility, bounded (ours, not the paper's).
	sigma, n := volatility(st.phi, r.Volatility, st.v, st.delta, tau)
	st.sigmaRaw, st.sigma1, st.iterations = sigma, clamp(sigma, MinVolatility, MaxVolatility), n
	// Step 6: the pre-period RD grown by one period at the new volatility.
	st.phiStar = math.Sqrt(st.phi*st.phi + st.sigma1*st.sigma1)
	// Step 7: the new RD and rating; RD never above a new player's.
	st.phi1 = min(1/math.Sqrt(1/(st.phiStar*st.phiStar)+1/st.v), newPhi)
	st.mu1 = st.mu + st.phi1*st.phi1*gain
	return st
}

// gFactor is the paper's g(φ): how much an opponent's uncertainty φ
// weakens what a game against them says.
func gFactor(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expected is the paper's E(μ, μj, φj): the expected score against an
// opponent at muJ whose g factor is g.
func expected(mu, muJ, g float64) float64 {
	return 1 / (1 + math.Exp(-g*(mu-muJ)))
}

// volatility is Step 5: σ′ is e^(A/2) where A is the root of
//
//	f(x) = eˣ(Δ² − φ² − v − eˣ) / (2(φ² + v + eˣ)²) − (x − a)/τ²,  a = ln σ²,
//
// found by the Illinois algorithm (regula falsi that halves the kept
// end's value when the same end stays twice) within the paper's
// tolerance ε. It returns σ′ and the number of rounds taken.
func volatility(phi, sigma, v, delta, tau float64) (float64, int) {
	a := math.Log(sigma * sigma)
	phi2, d2 := phi*phi, delta*delta
	f := func(x float64) float64 {
		ex := math.Exp(x)
		den := phi2 + v + ex
		return ex*(d2-phi2-v-ex)/(2*den*den) - (x-a)/(tau*tau)
	}
	// Bracket the root between A and B.
	A := a
	var B float64
	if d2 > phi2+v {
		B = math.Log(d2 - phi2 - v)
	} else {
		// The first term of f is above −½, so this ends once k > τ/2.
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	n := 0
	for ; math.Abs(B-A) > tolerance && n < maxIterations; n++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		// ≤, not <: with <, an fC of exactly 0 would keep halving fA and
		// never let the bracket close.
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2), n
}

func clamp(x, lo, hi float64) float64 {
	return max(lo, min(x, hi))
}
