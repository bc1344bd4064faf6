package rating

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// The defaults of a new player, from Step 1 of the paper.
const (
	NewRating     = 1500.0 // a new player's rating
	NewRD         = 350.0  // a new player's rating deviation, and the most RD ever grows to
	NewVolatility = 0.06   // a new player's volatility
)

// The system's settings (System's zero value uses them).
const (
	// Tau is the system constant τ, which limits how fast volatility
	// changes. The paper suggests 0.3 to 1.2 and smaller values when very
	// improbable results are expected. Here every game is its own rating
	// period (see the package doc), so each volatility update sees one
	// result, the noisiest evidence there is: a value in the lower part of
	// the range keeps one upset from shaking a settled rating. 0.5 is
	// also the value of the paper's worked example, which the defaults
	// therefore reproduce. (lichess uses 0.75.)
	Tau = 0.5
	// IdlePeriod is how much time without a rated game counts as one
	// rating period without games, in which the paper lets φ² grow by σ²
	// (see System.AsOf). Two days: a settled player (RD 60, volatility
	// 0.06) who stops playing is provisional again after about five months
	// and back at 350 after about six years (TestIdle). lichess counts
	// 0.21436 periods a day, a period of about 4.7 days: its settled
	// players take over a year to become provisional again.
	IdlePeriod = 48 * time.Hour
	// ProvisionalRD is the RD above which a rating is provisional and
	// shown with a "?", as lichess does (issue 21).
	ProvisionalRD = 110.0
)

// Bounds that are this package's, not the paper's. They keep every
// result finite and meaningful whatever the inputs; ordinary play never
// reaches them (TestBoundsUnreachedInOrdinaryPlay plays 20,000 games).
// Update refuses a rating outside them and never returns one outside.
const (
	MinRating     = 400.0  // a floor (lichess keeps one too); no one falls below it
	MaxRating     = 4000.0 // a ceiling far above any real player
	MinVolatility = 0.01   // keeps ln σ² finite; settled players stay near 0.06
	MaxVolatility = 0.1    // keeps one freak result from making a rating meaningless (lichess caps at 0.1 too)
)

// Constants of the computation: the paper's scale and tolerance, and guards.
const (
	scale          = 173.7178 // Step 2: μ = (r − 1500)/173.7178, φ = RD/173.7178
	tolerance      = 0.000001 // Step 5: ε, the volatility iteration's convergence tolerance
	maxIterations  = 1000     // a guard: no input tried took more than 35 rounds (TestStep5Converges)
	maxTau         = 10.0     // τ above this is refused (the paper suggests at most 1.2)
	minRDGlicko    = 1e-9     // RD below this is refused as no real deviation
	newPhi         = NewRD / scale
	maxIdlePeriods = 1e9 // elapsed periods beyond this change nothing: RD is at 350 long before
)

// Rating is one player's Glicko-2 rating in one speed. The zero Rating is
// not valid: start from New.
type Rating struct {
	Rating     float64   // on the familiar scale: 1500 for a new player
	RD         float64   // rating deviation: the rating is within ±2 RD with 95% confidence
	Volatility float64   // σ: how erratic the player's results have been
	Games      int       // rated games played
	Updated    time.Time // when RD was last brought up to date (the last game's end); zero for a new rating
}

// New returns a new player's rating: 1500, RD 350, volatility 0.06, no games.
func New() Rating {
	return Rating{Rating: NewRating, RD: NewRD, Volatility: NewVolatility}
}

// Provisional reports whether the rating is still uncertain (RD above
// ProvisionalRD). To decide what to show now, call it on System.AsOf(r,
// now): RD grows while a player is away.
func (r Rating) Provisional() bool { return r.RD > ProvisionalRD }

// String returns the rating rounded to a whole number, followed by "?"
// when it is provisional: "1500?", "1464".
func (r Rating) String() string {
	s := strconv.FormatFloat(math.Round(r.Rating), 'f', 0, 64)
	if r.Provisional() {
		s += "?"
	}
	return s
}

// Result is one game's outcome from the rated player's side.
type Result struct {
	Opponent Rating
	Score    float64 // 1 for a win, 0.5 for a draw, 0 for a loss
}

// System applies Glicko-2 with its settings. Its zero value uses Tau and
// IdlePeriod. A System is a plain value: safe for concurrent use.
type System struct {
	Tau        float64       // the system constant τ; 0: Tau
	IdlePeriod time.Duration // idle time counted as one rating period; 0: IdlePeriod
}

func (s System) tau() float64 {
	if s.Tau == 0 {
		return Tau
	}
	return s.Tau
}

func (s System) idlePeriod() time.Duration {
	if s.IdlePeriod == 0 {
		return IdlePeriod
	}
	return s.IdlePeriod
}

func (s System) check() error {
	if t := s.tau(); !(t > 0 && t <= maxTau) {
		return inputErr("tau", "is %v; want above 0 and at most %v", t, maxTau)
	}
	if s.IdlePeriod < 0 {
		return inputErr("idle period", "is %v; want 0 (the default) or more", s.IdlePeriod)
	}
	return nil
}

// AsOf returns r as it stands at the moment at: its RD grown for the idle
// time since r.Updated, as the paper grows the RD of a player who plays no
// game in a rating period (φ² + σ² a period), counting fractions of
// IdlePeriod, and never above NewRD. Updated becomes at; the rating,
// volatility and games do not change. A zero r.Updated, or an at before
// it, means no time has passed. AsOf(AsOf(r, t1), t2) is AsOf(r, t2),
// up to rounding.
func (s System) AsOf(r Rating, at time.Time) Rating {
	if r.Updated.IsZero() {
		return r
	}
	if !at.After(r.Updated) {
		return r
	}
	periods := min(float64(at.Sub(r.Updated))/float64(s.idlePeriod()), maxIdlePeriods)
	phi := r.RD / scale
	phi = min(math.Sqrt(phi*phi+periods*r.Volatility*r.Volatility), newPhi)
	r.RD = phi * scale
	r.Updated = at
	return r
}

// Update returns the player's rating after a rating period at the moment
// at, in which they had the given results: first every rating (the
// player's and the opponents') is brought to at (AsOf), then Steps 2 to 8
// of the paper run on them. Games grows by len(results) and Updated
// becomes at (unless r.Updated is later). With no results Update is
// AsOf. The new rating, RD and volatility are kept within the bounds
// above (MinRating, MaxRating, NewRD, MinVolatility, MaxVolatility).
//
// A System, rating, result or setting out of range is refused with an
// *InputError naming it; r is then returned unchanged.
func (s System) Update(r Rating, results []Result, at time.Time) (Rating, error) {
	if err := s.check(); err != nil {
		return r, err
	}
	if err := r.check(""); err != nil {
		return r, err
	}
	for i, res := range results {
		field := fmt.Sprintf("results[%d].", i)
		if err := res.Opponent.check(field + "opponent."); err != nil {
			return r, err
		}
		if !(res.Score >= 0 && res.Score <= 1) {
			return r, inputErr(field+"score", "is %v; want 0 (loss), 0.5 (draw) or 1 (win)", res.Score)
		}
	}
	now := s.AsOf(r, at)
	if len(results) == 0 {
		return now, nil
	}
	opp := make([]Result, len(results))
	for i, res := range results {
		opp[i] = Result{Opponent: s.AsOf(res.Opponent, at), Score: res.Score}
	}
	next := s.period(now, opp)
	next.Games = r.Games + len(results)
	if at.After(r.Updated) {
		next.Updated = at // else a clock that went back: keep the later time
	}
	return next, nil
}

// Game rates one game between a and b that ended at the moment at, with
// a scoring scoreA (1, 0.5 or 0) and b the rest. Both new ratings come
// from the ratings before the game, each player's game being one rating
// period of their own.
func (s System) Game(a, b Rating, scoreA float64, at time.Time) (newA, newB Rating, err error) {
	if err := s.check(); err != nil {
		return a, b, err
	}
	if err := a.check("a."); err != nil {
		return a, b, err
	}
	if err := b.check("b."); err != nil {
		return a, b, err
	}
	if !(scoreA >= 0 && scoreA <= 1) {
		return a, b, inputErr("score", "is %v; want 0 (a lost), 0.5 (draw) or 1 (a won)", scoreA)
	}
	// Checked above: neither Update can fail.
	newA, _ = s.Update(a, []Result{{Opponent: b, Score: scoreA}}, at)
	newB, _ = s.Update(b, []Result{{Opponent: a, Score: 1 - scoreA}}, at)
	return newA, newB, nil
}

// check reports the first field of r out of range, named after prefix.
func (r Rating) check(prefix string) error {
	switch {
	case !(r.Rating >= MinRating && r.Rating <= MaxRating):
		return inputErr(prefix+"rating", "is %v; want %v to %v", r.Rating, MinRating, MaxRating)
	case !(r.RD >= minRDGlicko && r.RD <= NewRD):
		return inputErr(prefix+"rd", "is %v; want above 0 and at most %v", r.RD, NewRD)
	case !(r.Volatility >= MinVolatility && r.Volatility <= MaxVolatility):
		return inputErr(prefix+"volatility", "is %v; want %v to %v", r.Volatility, MinVolatility, MaxVolatility)
	case r.Games < 0:
		return inputErr(prefix+"games", "is %d; want 0 or more", r.Games)
	}
	return nil
}
