package rating

import (
	"fmt"
	"time"

	"oanquan/timecontrol"
)

// Speed is a category of time control; a player has one rating per speed.
type Speed int

// The speeds, fastest first.
const (
	Bullet Speed = iota
	Blitz
	Rapid
	Classical
	Correspondence
)

// Speeds lists every speed, fastest first.
var Speeds = []Speed{Bullet, Blitz, Rapid, Classical, Correspondence}

var speedNames = [...]string{"bullet", "blitz", "rapid", "classical", "correspondence"}

// String returns the speed's name in lower case, as in URLs and JSON:
// "bullet", "blitz", "rapid", "classical" or "correspondence".
func (s Speed) String() string {
	if s < 0 || int(s) >= len(speedNames) {
		return fmt.Sprintf("Speed(%d)", int(s))
	}
	return speedNames[s]
}

// ParseSpeed returns the speed named s (as String writes it).
func ParseSpeed(s string) (Speed, error) {
	for i, n := range speedNames {
		if s == n {
			return Speed(i), nil
		}
	}
	return 0, inputErr("speed", "is %q; want bullet, blitz, rapid, classical or correspondence", s)
}

// MovesPerPlayer is N, the moves each player is expected to make in a
// game of Ô Ăn Quan: the median measured in computer games (Medium
// against Medium and against Hard, Hard against Hard; see the package
// doc). A chess estimate uses 40.
const MovesPerPlayer = 10

// The upper bounds of the real-time speeds, on a game's expected length
// per player (Estimate): the same durations as lichess's, because they
// describe how long a player sits at a game, whatever the game; the
// game itself enters through MovesPerPlayer.
const (
	BulletBelow = 3 * time.Minute  // bullet: expected length under 3 minutes
	BlitzBelow  = 8 * time.Minute  // blitz: under 8 minutes
	RapidBelow  = 25 * time.Minute // rapid: under 25 minutes; classical from there on
)

// Estimate is the expected length of a real-time game of tc for each
// player: Initial + MovesPerPlayer × Increment. It is 0 for
// correspondence.
func Estimate(tc timecontrol.Control) time.Duration {
	if tc.Days != 0 {
		return 0
	}
	// In float64 so that no setting overflows; anything past a year is as
	// classical as a year.
	sec := min(tc.Initial.Seconds()+MovesPerPlayer*tc.Increment.Seconds(), 365*24*3600)
	return time.Duration(sec * float64(time.Second))
}

// SpeedOf returns the speed of a time control: Correspondence when it
// gives days, otherwise by its Estimate against BulletBelow, BlitzBelow
// and RapidBelow. A negative field, days mixed with seconds, or no limit
// at all is refused with an *InputError naming the field.
func SpeedOf(tc timecontrol.Control) (Speed, error) {
	switch {
	case tc.Initial < 0:
		return 0, inputErr("initial", "is %d s; want 0 or more", tc.InitialSeconds())
	case tc.Increment < 0:
		return 0, inputErr("increment", "is %d s; want 0 or more", tc.IncrementSeconds())
	case tc.Days < 0:
		return 0, inputErr("days", "is %d; want 1 or more for correspondence, 0 for real time", tc.Days)
	case tc.Days > 0 && (tc.Initial != 0 || tc.Increment != 0):
		return 0, inputErr("days", "is %d with initial %d s and increment %d s; want days alone, or seconds alone", tc.Days, tc.InitialSeconds(), tc.IncrementSeconds())
	case tc.Days > 0:
		return Correspondence, nil
	case tc.Initial == 0 && tc.Increment == 0:
		return 0, inputErr("initial", "and increment are 0: a game without a clock has no speed")
	}
	switch e := Estimate(tc); {
	case e < BulletBelow:
		return Bullet, nil
	case e < BlitzBelow:
		return Blitz, nil
	case e < RapidBelow:
		return Rapid, nil
	}
	return Classical, nil
}
