package match

import (
	"testing"
	"time"

	"oanquan/rules"
)

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

const sec = time.Second

// TestClockPlayed follows a 3+2 game's clock through its first moves,
// the increments and the lag allowance.
func TestClockPlayed(t *testing.T) {
	tc := TimeControl{Initial: 180 * sec, Increment: 2 * sec}
	tm := Timing{Lag: 200 * time.Millisecond}
	c := NewClock(tc)
	if c.Start != (time.Time{}) || c.Remaining != [2]time.Duration{180 * sec, 180 * sec} {
		t.Fatalf("NewClock = %+v", c)
	}
	// Not ready: a move changes nothing, and nothing runs.
	if c2, due := c.Played(tc, tm, 0, 0, at(time.Hour)); due != DueNone || c2 != c {
		t.Errorf("Played before ready = %+v, %v; want unchanged", c2, due)
	}
	c.Start = at(0)
	steps := []struct {
		name  string
		moves int
		mover rules.Player
		when  time.Duration
		want  [2]time.Duration
	}{
		{"first move: free, no increment", 0, 0, 20 * sec, [2]time.Duration{180 * sec, 180 * sec}},
		{"second first move: free", 1, 1, 45 * sec, [2]time.Duration{180 * sec, 180 * sec}},
		{"10 s less the lag, plus 2 s", 2, 0, 55 * sec, [2]time.Duration{172*sec + 200*time.Millisecond, 180 * sec}},
		{"a move within the lag costs nothing", 3, 1, 55*sec + 100*time.Millisecond, [2]time.Duration{172*sec + 200*time.Millisecond, 182 * sec}},
		{"60 s", 4, 0, 115*sec + 100*time.Millisecond, [2]time.Duration{114*sec + 400*time.Millisecond, 182 * sec}},
	}
	for _, s := range steps {
		next, due := c.Played(tc, tm, s.moves, s.mover, at(s.when))
		if due != DueNone || next.Remaining != s.want || next.Start != at(s.when) {
			t.Fatalf("%s: Played = %+v, %v; want remaining %v from %v", s.name, next, due, s.want, s.when)
		}
		c = next
	}
	if got := c.Running(5, 1, false); got != 1 {
		t.Errorf("Running = %d, want 1", got)
	}
	if got := c.Running(1, 1, false); got != -1 {
		t.Errorf("Running during the first moves = %d, want -1", got)
	}
	if got := c.Running(5, 1, true); got != -1 {
		t.Errorf("Running once over = %d, want -1", got)
	}
}

// TestClockDeadline: the side to move flags at Start + remaining + the
// lag allowance exactly: a nanosecond before, the move counts.
func TestClockDeadline(t *testing.T) {
	tc := TimeControl{Initial: 60 * sec}
	tm := Timing{Lag: 300 * time.Millisecond}
	c := Clock{Remaining: [2]time.Duration{10 * sec, 50 * sec}, Start: at(0)}
	when, due := c.Deadline(tc, tm, 4, 0)
	if want := at(10*sec + 300*time.Millisecond); when != want || due != DueTimeout {
		t.Fatalf("Deadline = %v, %v; want %v, timeout", when, due, want)
	}
	if got := c.Flagged(tc, tm, 4, 0, when.Add(-1)); got != DueNone {
		t.Errorf("Flagged 1 ns before = %v", got)
	}
	if got := c.Flagged(tc, tm, 4, 0, when); got != DueTimeout {
		t.Errorf("Flagged at the deadline = %v, want timeout", got)
	}
	next, due := c.Played(tc, tm, 4, 0, when.Add(-1))
	if due != DueNone || next.Remaining[0] != 1 {
		t.Errorf("Played 1 ns before = %+v, %v; want 1 ns left", next, due)
	}
	if next, due := c.Played(tc, tm, 4, 0, when); due != DueTimeout || next != c {
		t.Errorf("Played at the deadline = %+v, %v; want refused, unchanged", next, due)
	}
	left, first := c.Left(tc, tm, 4, 0, at(4*sec))
	if left != [2]time.Duration{6 * sec, 50 * sec} || first != 0 {
		t.Errorf("Left at 4 s = %v, %v", left, first)
	}
	if left, _ := c.Left(tc, tm, 4, 0, at(time.Minute)); left[0] != 0 {
		t.Errorf("Left after the flag = %v, want 0", left)
	}
	if _, due := (Clock{Remaining: c.Remaining}).Deadline(tc, tm, 4, 0); due != DueNone {
		t.Errorf("Deadline of a clock not ready = %v", due)
	}
}

// TestClockLagCap: the lag allowance is never more than MaxLag.
func TestClockLagCap(t *testing.T) {
	tc := TimeControl{Initial: 60 * sec}
	c := Clock{Remaining: [2]time.Duration{10 * sec, 10 * sec}, Start: at(0)}
	when, _ := c.Deadline(tc, Timing{Lag: 5 * sec}, 2, 0)
	if want := at(10*sec + MaxLag); when != want {
		t.Errorf("Deadline with a 5 s allowance = %v, want %v", when, want)
	}
	next, _ := c.Played(tc, Timing{Lag: 5 * sec}, 2, 0, at(3*sec))
	if want := 7*sec + MaxLag; next.Remaining[0] != want {
		t.Errorf("charged with a 5 s allowance: %v left, want %v", next.Remaining[0], want)
	}
	next, _ = c.Played(tc, Timing{Lag: -sec}, 2, 0, at(3*sec))
	if next.Remaining[0] != 7*sec {
		t.Errorf("a negative allowance: %v left, want 7s", next.Remaining[0])
	}
}

// TestClockFirstMoves: each first move has its limit, from the game
// ready and then from the first move; past it the game is aborted.
func TestClockFirstMoves(t *testing.T) {
	tc := TimeControl{Initial: 60 * sec}
	tm := Timing{FirstMove: 30 * sec}
	c := Clock{Remaining: [2]time.Duration{60 * sec, 60 * sec}, Start: at(0)}
	for moves, mover := range []rules.Player{0, 1} {
		when, due := c.Deadline(tc, tm, moves, mover)
		if want := c.Start.Add(30 * sec); when != want || due != DueAbort {
			t.Fatalf("first move %d: Deadline = %v, %v; want %v, abort", moves, when, due, want)
		}
		if _, due := c.Played(tc, tm, moves, mover, when); due != DueAbort {
			t.Errorf("first move %d at its limit: %v, want abort", moves, due)
		}
		_, first := c.Left(tc, tm, moves, mover, c.Start.Add(12*sec))
		if first != 18*sec {
			t.Errorf("first move %d: %v left at 12 s, want 18s", moves, first)
		}
		next, due := c.Played(tc, tm, moves, mover, c.Start.Add(29*sec))
		if due != DueNone || next.Remaining != c.Remaining {
			t.Fatalf("first move %d in time = %+v, %v", moves, next, due)
		}
		c = next
	}
	if got := (Timing{}).orDefault().FirstMove; got != DefaultFirstMove {
		t.Errorf("default first-move limit = %v", got)
	}
}

// TestClockCorrespondence: days per move, reset after each move; the
// first moves have the same days.
func TestClockCorrespondence(t *testing.T) {
	tc := TimeControl{Days: 3}
	day := 24 * time.Hour
	c := NewClock(tc)
	if c.Remaining != [2]time.Duration{3 * day, 3 * day} {
		t.Fatalf("NewClock = %+v", c)
	}
	c.Start = at(0)
	if when, due := c.Deadline(tc, Timing{}, 0, 0); when != at(3*day) || due != DueAbort {
		t.Errorf("first move's deadline = %v, %v", when, due)
	}
	c, _ = c.Played(tc, Timing{}, 0, 0, at(day))
	c, _ = c.Played(tc, Timing{}, 1, 1, at(2*day))
	c, due := c.Played(tc, Timing{}, 2, 0, at(4*day))
	if due != DueNone || c.Remaining[0] != 3*day {
		t.Errorf("after 2 days: %+v, %v; want 3 days again", c, due)
	}
	if when, due := c.Deadline(tc, Timing{}, 3, 1); when != at(7*day) || due != DueTimeout {
		t.Errorf("deadline = %v, %v", when, due)
	}
}

// TestClockOutage: time before the server started is not charged; a
// server running all along charges everything.
func TestClockOutage(t *testing.T) {
	tc := TimeControl{Initial: 60 * sec}
	c := Clock{Remaining: [2]time.Duration{20 * sec, 60 * sec}, Start: at(0)}
	alive := Timing{Since: at(-time.Hour)}
	restarted := Timing{Since: at(15 * sec)} // nobody served the game for 15 s
	if when, _ := c.Deadline(tc, alive, 2, 0); when != at(20*sec) {
		t.Errorf("surviving server: deadline %v, want 20 s", when)
	}
	if when, _ := c.Deadline(tc, restarted, 2, 0); when != at(35*sec) {
		t.Errorf("restarted server: deadline %v, want 35 s", when)
	}
	next, _ := c.Played(tc, restarted, 2, 0, at(25*sec))
	if next.Remaining[0] != 10*sec {
		t.Errorf("restarted server charged %v, want 10 s", 20*sec-next.Remaining[0])
	}
	left, _ := c.Left(tc, restarted, 2, 0, at(10*sec))
	if left[0] != 20*sec {
		t.Errorf("left during the outage = %v, want 20 s", left[0])
	}
	// The first move's limit too.
	if when, _ := c.Deadline(tc, restarted, 0, 0); when != at(45*sec) {
		t.Errorf("first move after an outage: deadline %v, want 45 s", when)
	}
}
