package rating

import (
	"errors"
	"math"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// paperPlayer and paperResults are the worked example of Glickman's
// "Example of the Glicko-2 system".
var (
	paperPlayer  = Rating{Rating: 1500, RD: 200, Volatility: 0.06}
	paperResults = []Result{
		{Opponent: Rating{Rating: 1400, RD: 30, Volatility: 0.06}, Score: 1},
		{Opponent: Rating{Rating: 1550, RD: 100, Volatility: 0.06}, Score: 0},
		{Opponent: Rating{Rating: 1700, RD: 300, Volatility: 0.06}, Score: 0},
	}
)

// near reports whether got matches a figure printed with the given
// number of decimals: within one unit of its last digit, which admits the
// paper's rounding of intermediate values and its truncation of σ′
// (0.0599960 printed as 0.05999).
func near(got, printed float64, decimals int) bool {
	return math.Abs(got-printed) <= math.Pow(10, -float64(decimals))
}

// TestPaperExample checks every quantity the paper prints for its worked
// example (τ = 0.5), step by step. The paper computes each step from the
// previous one rounded as printed (g and E to 3 or 4 decimals), so its v,
// Δ and φ* differ from the exact ones in the last printed digit or two;
// each is checked to the precision that rounding leaves it.
func TestPaperExample(t *testing.T) {
	st := steps(paperPlayer, paperResults, 0.5)
	for _, c := range []struct {
		name      string
		got, want float64
		decimals  int // the paper's figure holds to this many
	}{
		{"Step 2: μ", st.mu, 0, 4},
		{"Step 2: φ", st.phi, 1.1513, 4},
		{"Step 3: v", st.v, 1.7785, 3},      // exact 1.77898
		{"Step 4: Δ", st.delta, -0.4834, 3}, // exact −0.48393
		{"Step 5: σ′", st.sigma1, 0.05999, 5},
		{"Step 6: φ*", st.phiStar, 1.152862, 5}, // exact 1.1528547 (the paper squares φ = 1.1513)
		{"Step 7: φ′", st.phi1, 0.8722, 4},
		{"Step 7: μ′", st.mu1, -0.2069, 4},
	} {
		if !near(c.got, c.want, c.decimals) {
			t.Errorf("%s = %.7f, want %v to %d decimals (the paper's)", c.name, c.got, c.want, c.decimals)
		}
	}
	if st.iterations == 0 || st.iterations > 10 {
		t.Errorf("Step 5 took %d rounds, want 1 to 10", st.iterations)
	}
	// Step 8, through the public API with its default τ.
	got, err := System{}.Update(paperPlayer, paperResults, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !near(got.Rating, 1464.06, 2) || !near(got.RD, 151.52, 2) || !near(got.Volatility, 0.05999, 5) {
		t.Errorf("Update(paper example) = %.4f / %.4f / %.7f, want 1464.06 / 151.52 / 0.05999", got.Rating, got.RD, got.Volatility)
	}
	if got.Games != 3 || !got.Updated.Equal(t0) {
		t.Errorf("Update(paper example): games %d, updated %v; want 3, %v", got.Games, got.Updated, t0)
	}
}

// TestHandChecked compares Update with figures computed independently:
// the paper's formulas evaluated with 40-digit arithmetic and Step 5
// solved by bisection rather than the Illinois algorithm.
func TestHandChecked(t *testing.T) {
	newP := New()
	settled := Rating{Rating: 1500, RD: 60, Volatility: 0.06}
	strong := Rating{Rating: 1800, RD: 80, Volatility: 0.06}
	weak := Rating{Rating: 1400, RD: 100, Volatility: 0.05}
	idle := settled
	idle.Updated = t0.Add(-365 * 24 * time.Hour) // 182.5 idle periods: RD 153.058 by the game
	for _, c := range []struct {
		name           string
		r              Rating
		results        []Result
		rating, rd, vo float64
	}{
		{"paper example", paperPlayer, paperResults, 1464.0507, 151.5165, 0.0599960},
		{"paper's opponents, results 1, ½, 1", paperPlayer, []Result{
			{paperResults[0].Opponent, 1}, {paperResults[1].Opponent, 0.5}, {paperResults[2].Opponent, 1}},
			1622.7408, 151.5165, 0.0599995},
		{"new beats new", newP, []Result{{newP, 1}}, 1662.3109, 290.3190, 0.0599997},
		{"new loses to new", newP, []Result{{newP, 0}}, 1337.6891, 290.3190, 0.0599997},
		{"new draws with new", newP, []Result{{newP, 0.5}}, 1500, 290.3190, 0.0599990},
		{"settled loses to new", settled, []Result{{newP, 0}}, 1492.9550, 60.4841, 0.0600000},
		{"favourite wins", strong, []Result{{weak, 1}}, 1803.5171, 79.9727, 0.0599990},
		{"favourite's opponent loses", weak, []Result{{strong, 0}}, 1394.6965, 99.0263, 0.0499994},
		{"upset", weak, []Result{{strong, 1}}, 1449.4097, 99.0264, 0.0500050},
		{"back after a year", idle, []Result{{settled, 1}}, 1556.0071, 140.7427, 0.0599996},
	} {
		got, err := System{}.Update(c.r, c.results, t0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(got.Rating-c.rating) > 0.001 || math.Abs(got.RD-c.rd) > 0.001 || math.Abs(got.Volatility-c.vo) > 2e-7 {
			t.Errorf("%s: Update = %.4f / %.4f / %.7f, want %.4f / %.4f / %.7f", c.name,
				got.Rating, got.RD, got.Volatility, c.rating, c.rd, c.vo)
		}
	}
}

// TestGame checks that Game rates both sides from the ratings before the
// game, as two Updates would.
func TestGame(t *testing.T) {
	a := Rating{Rating: 1620, RD: 90, Volatility: 0.058, Games: 40, Updated: t0.Add(-50 * time.Hour)}
	b := Rating{Rating: 1480, RD: 140, Volatility: 0.062, Games: 7, Updated: t0.Add(-time.Hour)}
	for _, s := range []float64{0, 0.5, 1} {
		na, nb, err := System{}.Game(a, b, s, t0)
		if err != nil {
			t.Fatal(err)
		}
		wa, _ := System{}.Update(a, []Result{{b, s}}, t0)
		wb, _ := System{}.Update(b, []Result{{a, 1 - s}}, t0)
		if na != wa || nb != wb {
			t.Errorf("Game(score %v) = %+v, %+v; want %+v, %+v", s, na, nb, wa, wb)
		}
		if na.Games != 41 || nb.Games != 8 {
			t.Errorf("Game(score %v): games %d, %d; want 41, 8", s, na.Games, nb.Games)
		}
	}
}

// TestResultOrder checks that the results of one period are treated as
// simultaneous: their order changes nothing.
func TestResultOrder(t *testing.T) {
	rev := []Result{paperResults[2], paperResults[0], paperResults[1]}
	a, _ := System{}.Update(paperPlayer, paperResults, t0)
	b, _ := System{}.Update(paperPlayer, rev, t0)
	if math.Abs(a.Rating-b.Rating) > 1e-9 || math.Abs(a.RD-b.RD) > 1e-9 || math.Abs(a.Volatility-b.Volatility) > 1e-12 {
		t.Errorf("results reordered: %+v, want %+v", b, a)
	}
}

// grid is a spread of valid ratings for the property tests.
func grid() []Rating {
	var rs []Rating
	for _, r := range []float64{MinRating, 900, 1450, 1500, 1560, 2100, 3000, MaxRating} {
		for _, rd := range []float64{0.5, 30, 60, 110, 200, NewRD} {
			for _, v := range []float64{MinVolatility, 0.06, MaxVolatility} {
				rs = append(rs, Rating{Rating: r, RD: rd, Volatility: v})
			}
		}
	}
	return rs
}

// TestWinNeverLowers checks over the grid that a win never lowers a
// rating and a loss never raises it, and that a win raises more than a
// draw, which raises more than a loss.
func TestWinNeverLowers(t *testing.T) {
	g := grid()
	for _, a := range g {
		for _, b := range g {
			var got [3]float64
			for i, s := range []float64{0, 0.5, 1} {
				r, err := System{}.Update(a, []Result{{b, s}}, t0)
				if err != nil {
					t.Fatal(err)
				}
				got[i] = r.Rating
			}
			if got[2] < a.Rating || got[0] > a.Rating || got[0] > got[1] || got[1] > got[2] {
				t.Fatalf("%+v against %+v: loss %.4f, draw %.4f, win %.4f", a, b, got[0], got[1], got[2])
			}
		}
	}
}

// TestEqualsSymmetry checks that a draw between equals changes neither
// rating and leaves them equal, and that in a decisive game between
// equals the winner gains exactly what the loser loses.
func TestEqualsSymmetry(t *testing.T) {
	for _, a := range grid() {
		a.Updated = t0.Add(-72 * time.Hour)
		da, db, err := System{}.Game(a, a, 0.5, t0)
		if err != nil {
			t.Fatal(err)
		}
		if da != db || da.Rating != a.Rating {
			t.Errorf("draw between two %+v: %+v and %+v, want both at rating %v", a, da, db, a.Rating)
		}
		if a.Rating <= MinRating+700 || a.Rating >= MaxRating-700 {
			continue // a floor or a ceiling may cut the swing
		}
		w, l, _ := System{}.Game(a, a, 1, t0)
		if math.Abs((w.Rating-a.Rating)-(a.Rating-l.Rating)) > 1e-9 || w.RD != l.RD {
			t.Errorf("win between two %+v: winner %+v, loser %+v: gains differ", a, w, l)
		}
	}
}

// TestRDShrinks checks what a game does to RD. Every game leaves RD below
// what the same period without it would give (Update with no results).
// The period itself adds σ′² to φ² (Step 6), so RD falls below its
// value before the game only while it is above the level where one
// game's information balances that: it does for every provisional
// player meeting an opponent within 400 points, whatever the opponent's RD.
func TestRDShrinks(t *testing.T) {
	for _, a := range grid() {
		for _, b := range grid() {
			for _, s := range []float64{0, 0.5, 1} {
				r, _ := System{}.Update(a, []Result{{b, s}}, t0)
				// One period without games, at the new volatility.
				noGame := math.Sqrt(a.RD*a.RD + r.Volatility*r.Volatility*scale*scale)
				if !(r.RD < noGame) {
					t.Fatalf("%+v against %+v, score %v: RD %.4f, want below %.4f (the period without the game)", a, b, s, r.RD, noGame)
				}
				if a.Provisional() && math.Abs(a.Rating-b.Rating) <= 400 && !(r.RD < a.RD) {
					t.Fatalf("%+v against %+v, score %v: RD %.4f, want below %v", a, b, s, r.RD, a.RD)
				}
			}
		}
	}
}

// TestIdle checks RD's growth while a player is away: φ² grows by σ²
// every IdlePeriod, never past 350, and nothing else changes.
func TestIdle(t *testing.T) {
	r := Rating{Rating: 1712, RD: 60, Volatility: 0.06, Games: 90, Updated: t0}
	day := 24 * time.Hour
	for _, c := range []struct {
		after time.Duration
		rd    float64
	}{
		{-day, 60}, // a clock that went back changes nothing
		{0, 60},
		{30 * day, 72.3160},   // √(60² + 15 × (0.06 × 173.7178)²)
		{365 * day, 153.0584}, // 182.5 periods
		{156 * day, 109.9},    // provisional again after about five months...
		{157 * day, 110.1},
		{2189 * day, NewRD},      // ...and back to 350 after six years
		{100 * 365 * day, NewRD}, // never above
		{math.MaxInt64, NewRD},   // nor on any duration
	} {
		got := System{}.AsOf(r, t0.Add(c.after))
		if math.Abs(got.RD-c.rd) > 0.1 {
			t.Errorf("AsOf(%v later).RD = %.4f, want %.4f", c.after, got.RD, c.rd)
		}
		if got.Rating != r.Rating || got.Volatility != r.Volatility || got.Games != r.Games {
			t.Errorf("AsOf(%v later) = %+v: changed more than RD", c.after, got)
		}
	}
	// Growth in steps is growth at once.
	mid := System{}.AsOf(r, t0.Add(40*day))
	var sys System
	if a, b := sys.AsOf(mid, t0.Add(90*day)).RD, sys.AsOf(r, t0.Add(90*day)).RD; math.Abs(a-b) > 1e-9 {
		t.Errorf("AsOf in two steps: RD %.9f, at once %.9f", a, b)
	}
	// A new rating (no Updated) does not grow, and Update with no results is AsOf.
	if got := (System{}).AsOf(New(), t0); got != New() {
		t.Errorf("AsOf(New()) = %+v, want New()", got)
	}
	want := System{}.AsOf(r, t0.Add(30*day))
	if got, err := (System{}).Update(r, nil, t0.Add(30*day)); err != nil || got != want {
		t.Errorf("Update with no results = %+v, %v; want AsOf", got, err)
	}
	// A game dated before the last one (a clock that went back) keeps the later time.
	if got, _ := (System{}).Update(r, []Result{{New(), 1}}, t0.Add(-day)); !got.Updated.Equal(t0) {
		t.Errorf("Update dated a day before Updated: Updated %v, want %v", got.Updated, t0)
	}
	// A System's IdlePeriod is used.
	if got := (System{IdlePeriod: 24 * time.Hour}).AsOf(r, t0.Add(15*day)).RD; math.Abs(got-72.3160) > 0.001 {
		t.Errorf("with a one-day period, 15 days later RD = %.4f, want 72.3160", got)
	}
}

// TestProvisional checks the "?" above RD 110.
func TestProvisional(t *testing.T) {
	for _, c := range []struct {
		r    Rating
		want string
	}{
		{New(), "1500?"},
		{Rating{Rating: 1464.0507, RD: 151.5, Volatility: 0.06}, "1464?"},
		{Rating{Rating: 1464.5, RD: 110.01, Volatility: 0.06}, "1465?"},
		{Rating{Rating: 1464.49, RD: 110, Volatility: 0.06}, "1464"},
		{Rating{Rating: 2011.7, RD: 45, Volatility: 0.06}, "2012"},
	} {
		if got := c.r.String(); got != c.want {
			t.Errorf("%+v.String() = %q, want %q", c.r, got, c.want)
		}
	}
}

// TestInputErrors checks that every out-of-range input is refused with
// an InputError naming it, and the rating comes back unchanged.
func TestInputErrors(t *testing.T) {
	ok := Rating{Rating: 1500, RD: 80, Volatility: 0.06}
	bad := func(f func(*Rating)) Rating { r := ok; f(&r); return r }
	for _, c := range []struct {
		name    string
		sys     System
		r       Rating
		results []Result
		field   string
	}{
		{"zero rating", System{}, Rating{}, nil, "rating"},
		{"NaN rating", System{}, bad(func(r *Rating) { r.Rating = math.NaN() }), nil, "rating"},
		{"rating below the floor", System{}, bad(func(r *Rating) { r.Rating = 399 }), nil, "rating"},
		{"infinite rating", System{}, bad(func(r *Rating) { r.Rating = math.Inf(1) }), nil, "rating"},
		{"RD 0", System{}, bad(func(r *Rating) { r.RD = 0 }), nil, "rd"},
		{"RD above 350", System{}, bad(func(r *Rating) { r.RD = 351 }), nil, "rd"},
		{"volatility 0", System{}, bad(func(r *Rating) { r.Volatility = 0 }), nil, "volatility"},
		{"volatility NaN", System{}, bad(func(r *Rating) { r.Volatility = math.NaN() }), nil, "volatility"},
		{"negative games", System{}, bad(func(r *Rating) { r.Games = -1 }), nil, "games"},
		{"opponent's RD", System{}, ok, []Result{{ok, 1}, {bad(func(r *Rating) { r.RD = -5 }), 0}}, "results[1].opponent.rd"},
		{"score 2", System{}, ok, []Result{{ok, 2}}, "results[0].score"},
		{"score NaN", System{}, ok, []Result{{ok, math.NaN()}}, "results[0].score"},
		{"tau negative", System{Tau: -1}, ok, nil, "tau"},
		{"tau huge", System{Tau: 1e9}, ok, nil, "tau"},
		{"idle period negative", System{IdlePeriod: -time.Hour}, ok, nil, "idle period"},
	} {
		got, err := c.sys.Update(c.r, c.results, t0)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != c.field || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: error %v, want an InputError for %q", c.name, err, c.field)
		}
		if !same(got, c.r) {
			t.Errorf("%s: rating %+v, want it unchanged", c.name, got)
		}
	}
	for _, c := range []struct {
		name  string
		a, b  Rating
		score float64
		field string
	}{
		{"a", Rating{}, ok, 1, "a.rating"},
		{"b", ok, bad(func(r *Rating) { r.Volatility = 1 }), 1, "b.volatility"},
		{"score", ok, ok, -0.5, "score"},
	} {
		na, nb, err := System{}.Game(c.a, c.b, c.score, t0)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != c.field || !same(na, c.a) || !same(nb, c.b) {
			t.Errorf("Game with a bad %s: %+v, %+v, %v; want both unchanged and an InputError for %q", c.name, na, nb, err, c.field)
		}
	}
}

// same reports whether a and b are the same, bit for bit (NaN included).
func same(a, b Rating) bool {
	bits := math.Float64bits
	return bits(a.Rating) == bits(b.Rating) && bits(a.RD) == bits(b.RD) &&
		bits(a.Volatility) == bits(b.Volatility) && a.Games == b.Games && a.Updated.Equal(b.Updated)
}

// TestStep5Converges runs Step 5 on the grid, the most extreme ratings
// and every τ from 0.01 to the largest allowed: it always closes within
// the paper's tolerance in a few dozen rounds, far from the guard.
func TestStep5Converges(t *testing.T) {
	g := append(grid(), Rating{Rating: MinRating, RD: minRDGlicko, Volatility: MinVolatility},
		Rating{Rating: MaxRating, RD: minRDGlicko, Volatility: MaxVolatility})
	most := 0
	for _, a := range g {
		for _, b := range g {
			for _, tau := range []float64{0.01, 0.3, 0.5, 1.2, maxTau} {
				for _, s := range []float64{0, 0.5, 1} {
					st := steps(a, []Result{{b, s}}, tau)
					if st.iterations > 50 || math.IsNaN(st.sigmaRaw) || math.IsInf(st.sigmaRaw, 0) {
						t.Fatalf("%+v against %+v, score %v, τ %v: σ′ %v after %d rounds", a, b, s, tau, st.sigmaRaw, st.iterations)
					}
					most = max(most, st.iterations)
				}
			}
		}
	}
	t.Logf("at most %d rounds", most)
}
