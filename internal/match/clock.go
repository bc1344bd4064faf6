package match

import (
	"time"

	"oanquan/rules"
	"oanquan/timecontrol"
)

// A clocked game's time (docs/API.md, "Clocks"). The arithmetic here is
// pure: every function takes the instant it is asked about, so that it
// is tested without waiting and the server is its only caller of
// time.Now.
//
// The rules, in order of a game:
//   - Nothing runs until the game is ready (both seats taken): Clock.Start
//     is zero.
//   - Each side's first move is free of its clock but has a limit
//     (Timing.FirstMove in real time, the days per move in
//     correspondence), for seat to move first from when the game is ready,
//     for the other from the first move. Past it the game is aborted, not
//     lost.
//   - From the third move on, the side to move's clock runs from Start.
//     A move is charged the time since Start less the lag allowance
//     (Timing.Lag, at most MaxLag), then given the increment (real time)
//     or the days per move again (correspondence).
//   - The side to move loses at its deadline: Start + its remaining time
//     + the lag allowance (the allowance is a grace after its clock shows
//     zero, so that a move sent in time but slowed by the network still
//     counts). A move arriving at the deadline or after is refused.
//   - The outage rule: time before Timing.Since (when this server
//     started) is never charged. A server that was running all along
//     charges everything; one that starts after every server was down
//     gives the side to move back the time nobody was serving the game.

// TimeControl is a clocked game's time control: package timecontrol's
// Control, the one type of it (real time, or correspondence days per
// move; the zero value is no clock).
type TimeControl = timecontrol.Control

// NewClock returns the clock of a game of tc not yet ready: each side
// has its whole time, and nothing runs.
func NewClock(tc TimeControl) Clock {
	t := tc.Start()
	return Clock{Remaining: [2]time.Duration{t, t}}
}

// Timing is how a server keeps time: the same for all its games.
type Timing struct {
	// FirstMove is the limit of each side's first move in real time; 0:
	// DefaultFirstMove.
	FirstMove time.Duration
	// Lag is the allowance for network lag given to every move, capped
	// at MaxLag; 0: none.
	Lag time.Duration
	// ClaimAfter is how long a real-time player must have had no
	// connection before the other may claim the game; 0:
	// DefaultClaimAfter.
	ClaimAfter time.Duration
	// Since is when this server started: time before it is not charged
	// (the outage rule). Zero: everything is charged.
	Since time.Time
}

// The defaults of Timing, and the cap of its lag allowance.
const (
	DefaultFirstMove  = 30 * time.Second
	DefaultClaimAfter = 30 * time.Second
	MaxLag            = 500 * time.Millisecond
)

// orDefault fills in t's defaults and caps its lag.
func (t Timing) orDefault() Timing {
	if t.FirstMove <= 0 {
		t.FirstMove = DefaultFirstMove
	}
	if t.ClaimAfter <= 0 {
		t.ClaimAfter = DefaultClaimAfter
	}
	t.Lag = min(max(t.Lag, 0), MaxLag)
	return t
}

// Clock is a clocked game's time as saved with each move: each side's
// remaining time as it stood at Start, and when the side to move's time
// began (the game ready, or the last move). Zero Start: the game is not
// ready, and nothing runs.
type Clock struct {
	Remaining [2]time.Duration
	Start     time.Time
}

// Due is what happens at a clock's deadline.
type Due int

// The kinds of deadline.
const (
	DueNone    Due = iota // nothing runs
	DueAbort              // a first move's limit: the game is aborted
	DueTimeout            // the side to move's clock: it loses on time
)

// from is when the running time is counted from: Start, or the server's
// start if later (the outage rule).
func (c Clock) from(t Timing) time.Time {
	if c.Start.Before(t.Since) {
		return t.Since
	}
	return c.Start
}

// Deadline returns when the side to move, with moves played so far,
// runs out of time, and what happens then; DueNone if nothing runs.
func (c Clock) Deadline(tc TimeControl, t Timing, moves int, toMove rules.Player) (time.Time, Due) {
	t = t.orDefault()
	switch {
	case c.Start.IsZero():
		return time.Time{}, DueNone
	case moves < 2 && tc.Correspondence():
		return c.from(t).Add(tc.PerMove()), DueAbort
	case moves < 2:
		return c.from(t).Add(t.FirstMove), DueAbort
	}
	return c.from(t).Add(c.Remaining[toMove] + t.Lag), DueTimeout
}

// Flagged returns what has happened at now: DueNone if the side to move
// still has time.
func (c Clock) Flagged(tc TimeControl, t Timing, moves int, toMove rules.Player, now time.Time) Due {
	at, due := c.Deadline(tc, t, moves, toMove)
	if due == DueNone || now.Before(at) {
		return DueNone
	}
	return due
}

// Played returns the clock after mover's move, the game's moves+1-th,
// arriving at now; it returns the clock unchanged and the kind of flag if
// the move came at its deadline or after.
func (c Clock) Played(tc TimeControl, t Timing, moves int, mover rules.Player, now time.Time) (Clock, Due) {
	t = t.orDefault()
	if due := c.Flagged(tc, t, moves, mover, now); due != DueNone {
		return c, due
	}
	if c.Start.IsZero() {
		return c, DueNone // not ready: the limits start when it is
	}
	if moves >= 2 {
		charge := max(now.Sub(c.from(t))-t.Lag, 0)
		c.Remaining[mover] -= charge
		if tc.Correspondence() {
			c.Remaining[mover] = tc.PerMove()
		} else {
			c.Remaining[mover] += tc.Increment
		}
	}
	c.Start = now
	return c, DueNone
}

// Took returns how long the side to move has had its turn at now: from
// Start (or the server's start, the outage rule), 0 while the game is not
// ready. It is what a move arriving at now is said to have taken.
func (c Clock) Took(t Timing, now time.Time) time.Duration {
	if c.Start.IsZero() {
		return 0
	}
	return max(now.Sub(c.from(t)), 0)
}

// Left returns each side's time left at now, none below zero, and the
// time left for the first move while one is timed (0 otherwise).
func (c Clock) Left(tc TimeControl, t Timing, moves int, toMove rules.Player, now time.Time) (left [2]time.Duration, first time.Duration) {
	t = t.orDefault()
	left = c.Remaining
	at, due := c.Deadline(tc, t, moves, toMove)
	switch due {
	case DueAbort:
		first = max(at.Sub(now), 0)
	case DueTimeout:
		left[toMove] = max(left[toMove]-max(now.Sub(c.from(t)), 0), 0)
	}
	return left, first
}

// Running returns the seat whose clock runs, or -1: none before the game
// is ready, during the first moves, or once it is over.
func (c Clock) Running(moves int, toMove rules.Player, over bool) int {
	if over || c.Start.IsZero() || moves < 2 {
		return -1
	}
	return int(toMove)
}
