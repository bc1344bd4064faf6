package rating_test

import (
	"fmt"
	"time"

	"oanquan/internal/rating"
	"oanquan/timecontrol"
)

// Two new players meet in a blitz game; the first wins. Both ratings
// move, and stay provisional.
func Example() {
	var sys rating.System // the defaults: τ = 0.5, two-day idle periods
	end := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)

	speed, _ := rating.SpeedOf(timecontrol.Seconds(180, 2, 0))
	a, b := rating.New(), rating.New()
	a, b, err := sys.Game(a, b, 1, end)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: winner %s (RD %.0f), loser %s (RD %.0f)\n", speed, a, a.RD, b, b.RD)

	// Ninety days later, the winner's rating is as uncertain as this.
	later := sys.AsOf(a, end.Add(90*24*time.Hour))
	fmt.Printf("after 90 days away: %s (RD %.0f)\n", later, later.RD)
	// Output:
	// blitz: winner 1662? (RD 290), loser 1338? (RD 290)
	// after 90 days away: 1662? (RD 299)
}

// The worked example of Glickman's paper: a player at 1500 (RD 200)
// beats a 1400 and loses to a 1550 and a 1700 in one rating period.
func ExampleSystem_Update() {
	player := rating.Rating{Rating: 1500, RD: 200, Volatility: 0.06}
	results := []rating.Result{
		{Opponent: rating.Rating{Rating: 1400, RD: 30, Volatility: 0.06}, Score: 1},
		{Opponent: rating.Rating{Rating: 1550, RD: 100, Volatility: 0.06}, Score: 0},
		{Opponent: rating.Rating{Rating: 1700, RD: 300, Volatility: 0.06}, Score: 0},
	}
	r, err := rating.System{}.Update(player, results, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.2f %.2f %.6f %s\n", r.Rating, r.RD, r.Volatility, r)
	// Output: 1464.05 151.52 0.059996 1464?
}

func ExampleSpeedOf() {
	for _, tc := range []timecontrol.Control{
		timecontrol.Seconds(60, 0, 0), timecontrol.Seconds(180, 2, 0), timecontrol.Seconds(600, 5, 0),
		timecontrol.Seconds(1800, 0, 0), timecontrol.Seconds(0, 0, 3),
	} {
		s, _ := rating.SpeedOf(tc)
		fmt.Println(rating.Estimate(tc), s)
	}
	_, err := rating.SpeedOf(timecontrol.Seconds(60, -1, 0))
	fmt.Println(err)
	// Output:
	// 1m0s bullet
	// 3m20s blitz
	// 10m50s rapid
	// 30m0s classical
	// 0s correspondence
	// rating: increment is -1 s; want 0 or more
}
