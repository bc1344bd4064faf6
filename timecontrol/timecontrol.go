// Package timecontrol is a game's time control: real time (each side's
// time at the start and an increment after each move) or correspondence
// (days for each move). It is the one type every part of the program
// uses for it — the live game's clock (internal/match), the speed a game
// is rated in (internal/rating), a record's TimeControl tag (notation),
// the API's settings and the store — each with its own forms at the edge
// (the API's JSON in whole seconds, the record's "180+2").
//
//	blitz := timecontrol.Seconds(180, 2, 0) // 3 minutes, 2 s a move
//	fmt.Println(blitz)                      // 180+2
//	days := timecontrol.Seconds(0, 0, 3)    // 3 days a move
//	fmt.Println(days, days.PerMove())       // 3d 72h0m0s
package timecontrol

import (
	"fmt"
	"math"
	"time"
)

// Control is a time control: real time (Initial and Increment) or
// correspondence (Days per move). The zero Control is no clock.
type Control struct {
	Initial   time.Duration // real time: each side's time at the start
	Increment time.Duration // real time: added after each move
	Days      int           // correspondence: the time for each move, in days
}

// The bounds of a real-time control the API accepts (docs/API.md).
const (
	MinInitial   = 15 * time.Second
	MaxInitial   = 3 * time.Hour
	MaxIncrement = 180 * time.Second
)

// CorrespondenceDays are the correspondence time controls: days per move.
var CorrespondenceDays = []int{1, 3, 7, 14}

// Seconds returns the control of initial and increment seconds (real
// time) or days per move (correspondence), as the API and records give
// them. Seconds beyond what a time.Duration holds (about 292 years) are
// held at its bound: a control is never wrapped round.
func Seconds(initial, increment, days int) Control {
	return Control{Initial: seconds(initial), Increment: seconds(increment), Days: days}
}

// seconds is n seconds, held within time.Duration's range.
func seconds(n int) time.Duration {
	const most = math.MaxInt64 / int64(time.Second)
	switch {
	case int64(n) > most:
		return math.MaxInt64
	case int64(n) < -most:
		return math.MinInt64
	}
	return time.Duration(n) * time.Second
}

// Correspondence reports whether c gives days per move.
func (c Control) Correspondence() bool { return c.Days > 0 }

// PerMove is a correspondence control's time for one move (0 in real
// time).
func (c Control) PerMove() time.Duration { return time.Duration(c.Days) * 24 * time.Hour }

// Start is each side's time when the game begins: Initial in real time,
// the time for one move in correspondence.
func (c Control) Start() time.Duration {
	if c.Correspondence() {
		return c.PerMove()
	}
	return c.Initial
}

// InitialSeconds and IncrementSeconds are Initial and Increment in whole
// seconds, as the API and records write them.
func (c Control) InitialSeconds() int { return int(c.Initial / time.Second) }

// IncrementSeconds is Increment in whole seconds.
func (c Control) IncrementSeconds() int { return int(c.Increment / time.Second) }

// String writes c as a record's TimeControl tag does: "180+2" (seconds
// and increment) or "3d" (days per move).
func (c Control) String() string {
	if c.Correspondence() {
		return fmt.Sprintf("%dd", c.Days)
	}
	return fmt.Sprintf("%d+%d", c.InitialSeconds(), c.IncrementSeconds())
}
