package rating

import (
	"math"
	"testing"
	"time"

	"oanquan/timecontrol"
)

// FuzzUpdate rates one game from arbitrary numbers. Taken as they come,
// they are either refused with an InputError, the rating unchanged, or
// rated; folded into the valid ranges, they are always rated. Every
// rating gives finite figures within the package's bounds (valid input
// again), a win never lowers and a loss never raises the rating, RD ends
// below that of the same period without the game, and Step 5 converges.
func FuzzUpdate(f *testing.F) {
	f.Add(1500.0, 200.0, 0.06, 1400.0, 30.0, 0.06, 1.0, int64(0), 0.5)
	f.Add(400.0, 350.0, 0.1, 4000.0, 0.001, 0.01, 1.0, int64(1e6), 1.2)
	f.Add(4000.0, 1e-9, 0.01, 400.0, 350.0, 0.1, 0.0, int64(-5), 10.0)
	f.Add(math.NaN(), math.Inf(1), -0.06, 1e308, 0.0, 0.06, 0.5, int64(math.MaxInt64), 0.0)
	f.Fuzz(func(t *testing.T, r, rd, vol, or, ord, ovol, score float64, idleHours int64, tau float64) {
		me := Rating{Rating: r, RD: rd, Volatility: vol, Updated: t0.Add(-time.Duration(idleHours) * time.Hour)}
		opp := Rating{Rating: or, RD: ord, Volatility: ovol, Updated: t0}
		sys := System{Tau: tau}
		if got, err := sys.Update(me, []Result{{opp, score}}, t0); err != nil {
			if _, ok := err.(*InputError); !ok || !same(got, me) {
				t.Fatalf("refused with %v (%T), rating %+v: want an InputError and the rating unchanged", err, err, got)
			}
		} else {
			checkRated(t, sys, me, opp, score, got)
		}
		me = Rating{Rating: fold(r, MinRating, MaxRating), RD: fold(rd, minRDGlicko, NewRD), Volatility: fold(vol, MinVolatility, MaxVolatility), Updated: me.Updated}
		opp = Rating{Rating: fold(or, MinRating, MaxRating), RD: fold(ord, minRDGlicko, NewRD), Volatility: fold(ovol, MinVolatility, MaxVolatility), Updated: t0}
		score = []float64{0, 0.5, 1}[int(fold(score, 0, 2.99))]
		sys = System{Tau: fold(tau, 0.01, maxTau)}
		got, err := sys.Update(me, []Result{{opp, score}}, t0)
		if err != nil {
			t.Fatalf("Update(%+v against %+v, score %v, τ %v): %v", me, opp, score, sys.Tau, err)
		}
		checkRated(t, sys, me, opp, score, got)
	})
}

// fold maps any x into [lo, hi], keeping values already there.
func fold(x, lo, hi float64) float64 {
	if x >= lo && x <= hi {
		return x
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return lo
	}
	return lo + math.Mod(math.Abs(x), hi-lo)
}

func checkRated(t *testing.T, sys System, me, opp Rating, score float64, got Rating) {
	t.Helper()
	if err := got.check(""); err != nil || got.RD <= 0 {
		t.Fatalf("Update(%+v against %+v, score %v) = %+v: not valid input again: %v", me, opp, score, got, err)
	}
	if score == 1 && got.Rating < me.Rating || score == 0 && got.Rating > me.Rating {
		t.Fatalf("score %v moved the rating from %v to %v", score, me.Rating, got.Rating)
	}
	now := sys.AsOf(me, t0)
	if noGame := math.Sqrt(now.RD*now.RD + got.Volatility*got.Volatility*scale*scale); !(got.RD < noGame) {
		t.Fatalf("RD %v after the game, want below %v", got.RD, noGame)
	}
	st := steps(now, []Result{{opp, score}}, sys.tau())
	if st.iterations >= maxIterations || math.IsNaN(st.sigmaRaw) || math.IsInf(st.sigmaRaw, 0) {
		t.Fatalf("Step 5: σ′ %v after %d rounds", st.sigmaRaw, st.iterations)
	}
}

// FuzzSpeedOf classifies arbitrary time controls: each is refused with an
// InputError or gets a speed, and a longer control is never faster.
func FuzzSpeedOf(f *testing.F) {
	f.Add(180, 2, 0)
	f.Add(0, 0, 3)
	f.Add(-1, 1<<62, 0)
	f.Fuzz(func(t *testing.T, initial, increment, days int) {
		tc := timecontrol.Seconds(initial, increment, days)
		s, err := SpeedOf(tc)
		if err != nil {
			if _, ok := err.(*InputError); !ok {
				t.Fatalf("SpeedOf(%+v): %v (%T), want an InputError", tc, err, err)
			}
			return
		}
		if s < Bullet || s > Correspondence || (s == Correspondence) != (days > 0) {
			t.Fatalf("SpeedOf(%+v) = %v", tc, s)
		}
		if days == 0 && initial < math.MaxInt && increment < math.MaxInt {
			for _, longer := range []timecontrol.Control{timecontrol.Seconds(initial+1, increment, 0), timecontrol.Seconds(initial, increment+1, 0)} {
				if s2, err := SpeedOf(longer); err != nil || s2 < s {
					t.Fatalf("SpeedOf(%+v) = %v but SpeedOf(%+v) = %v, %v", tc, s, longer, s2, err)
				}
			}
		}
	})
}
