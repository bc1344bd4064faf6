package match

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

// fakeTime is a clock the test moves.
type fakeTime struct {
	mu  sync.Mutex
	now time.Time
}

func (f *fakeTime) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeTime) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

// clockedMatch makes a 1+0 online match (or tc's) on a fake clock, ready
// at once, its timer calling nothing (the test calls Tick), and the
// changes it commits.
func clockedMatch(t *testing.T, tc TimeControl) (*Match, *fakeTime, *[]Change) {
	t.Helper()
	ft := &fakeTime{now: t0}
	var changes []Change
	m, err := New(Config{Mode: Online, Clock: &tc, Now: ft.Now, OnDue: func(*Match) {},
		Commit: func(c Change) error { changes = append(changes, c); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	if err := m.StartClock(); err != nil {
		t.Fatal(err)
	}
	return m, ft, &changes
}

// playFirst plays the legal moves of both first moves, a second apart.
func playFirst(t *testing.T, m *Match, ft *fakeTime, n int) {
	t.Helper()
	for range n {
		ft.advance(sec)
		st := m.State()
		if _, err := m.PlayFor(st.Position.ToMove, st.Legal[0], nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestClockedFlag: Tick ends the game on time at the deadline, not a
// nanosecond before; a move after it is refused with ErrTimeOver.
func TestClockedFlag(t *testing.T) {
	m, ft, changes := clockedMatch(t, TimeControl{Initial: 60 * sec})
	if (*changes)[0].Kind != ClockSet || (*changes)[0].Clock.Start != t0 {
		t.Fatalf("StartClock committed %+v", (*changes)[0])
	}
	playFirst(t, m, ft, 2)
	st := m.State()
	if st.Clock.Running != int(st.Position.ToMove) || st.Clock.Left[0] != 60*sec {
		t.Fatalf("after the first moves: %+v", st.Clock)
	}
	if got, want := m.Deadline(), ft.Now().Add(60*sec); !got.Equal(want) {
		t.Fatalf("Deadline = %v, want %v", got, want)
	}
	ft.advance(60*sec - 1)
	if ended, _ := m.Tick(); ended {
		t.Fatal("Tick 1 ns before the deadline ended the game")
	}
	ft.advance(1)
	if ended, err := m.Tick(); !ended || err != nil {
		t.Fatalf("Tick at the deadline = %v, %v", ended, err)
	}
	st = m.State()
	if o := st.Status.Outcome; o.Kind != OutcomeTimeout || o.Player != st.Position.ToMove {
		t.Errorf("outcome %+v, want timeout of %d", o, st.Position.ToMove)
	}
	if st.Result.Winner != int(st.Position.ToMove.Other()) || st.Clock.Left[st.Position.ToMove] != 0 || st.Clock.Running != -1 {
		t.Errorf("winner %d, clock %+v", st.Result.Winner, st.Clock)
	}
	if _, err := m.PlayFor(st.Position.ToMove, st.Moves[0], nil); !errors.Is(err, ErrGameOver) {
		t.Errorf("a move after the flag: %v, want game over", err)
	}
}

// TestClockedMoveAfterDeadline: a move arriving after the deadline, with
// nobody having called Tick, ends the game on time and is refused.
func TestClockedMoveAfterDeadline(t *testing.T) {
	m, ft, changes := clockedMatch(t, TimeControl{Initial: 30 * sec, Increment: 5 * sec})
	playFirst(t, m, ft, 3)
	if c := (*changes)[len(*changes)-1].Clock; c == nil || c.Remaining[0] != 34*sec {
		t.Fatalf("the third move saved the clock %+v, want 34 s for seat 0", c)
	}
	ft.advance(31 * sec)
	st := m.State()
	_, err := m.PlayFor(st.Position.ToMove, st.Legal[0], nil)
	if !errors.Is(err, ErrTimeOver) {
		t.Fatalf("a late move: %v, want ErrTimeOver", err)
	}
	if st := m.State(); st.Status.Outcome.Kind != OutcomeTimeout || len(st.Moves) != 3 {
		t.Errorf("after the late move: outcome %+v, %d moves", st.Status.Outcome, len(st.Moves))
	}
	if last := (*changes)[len(*changes)-1]; last.Kind != StatusSet || !last.Over || !last.Flag || last.Index != 3 {
		t.Errorf("last change %+v, want the clock's status (Flag) on 3 moves, over", last)
	}
	if moved := (*changes)[len(*changes)-2]; moved.Kind != Moved || moved.Flag || moved.Control == nil || moved.From != (Status{}) {
		t.Errorf("the third move's change %+v, want its clock, time control and the status it was played on", moved)
	}
}

// TestClockedFirstMoveAbort: a first move never played aborts the game,
// with no winner.
func TestClockedFirstMoveAbort(t *testing.T) {
	m, ft, _ := clockedMatch(t, TimeControl{Initial: 60 * sec})
	playFirst(t, m, ft, 1)
	ft.advance(DefaultFirstMove)
	if ended, _ := m.Tick(); !ended {
		t.Fatal("the second first move's limit passed, and the game goes on")
	}
	st := m.State()
	if o := st.Status.Outcome; o.Kind != OutcomeAbort || o.Player != 1 || st.Result.Winner != -1 {
		t.Errorf("outcome %+v, winner %d; want aborted by seat 1, no winner", o, st.Result.Winner)
	}
}

// TestClockedNotReady: before both seats are taken nothing runs.
func TestClockedNotReady(t *testing.T) {
	ft := &fakeTime{now: t0}
	m, err := New(Config{Mode: Online, Clock: &TimeControl{Initial: 60 * sec}, Now: ft.Now, OnDue: func(*Match) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ft.advance(time.Hour)
	if ended, _ := m.Tick(); ended || !m.Deadline().IsZero() {
		t.Errorf("a game not ready ended or has a deadline %v", m.Deadline())
	}
}

// TestClockedClaim: a real-time player whose other has had no connection
// for ClaimAfter may claim the win; not before, and not in
// correspondence.
func TestClockedClaim(t *testing.T) {
	m, ft, _ := clockedMatch(t, TimeControl{Initial: 600 * sec})
	playFirst(t, m, ft, 2)
	m.SetPresence(Presence{Seats: [2]bool{true, true}, Taken: [2]bool{true, true}})
	ft.advance(time.Minute)
	if _, err := m.Claim(0, ClaimWin); !errors.Is(err, ErrCannotClaim) {
		t.Fatalf("claim with the other there: %v", err)
	}
	m.SetPresence(Presence{Seats: [2]bool{true, false}, Taken: [2]bool{true, true}})
	ft.advance(DefaultClaimAfter - 1)
	if st := m.State(); st.CanClaim != [2]bool{} {
		t.Fatalf("CanClaim = %v before %v", st.CanClaim, DefaultClaimAfter)
	}
	ft.advance(1)
	if st := m.State(); st.CanClaim != [2]bool{true, false} {
		t.Fatalf("CanClaim = %v after %v", st.CanClaim, DefaultClaimAfter)
	}
	if _, err := m.Claim(1, ClaimWin); !errors.Is(err, ErrCannotClaim) {
		t.Errorf("the absent player's claim: %v", err)
	}
	if _, err := m.Claim(0, "lose"); !errors.Is(err, ErrInvalid) {
		t.Errorf("claim of a loss: %v", err)
	}
	st, err := m.Claim(0, ClaimWin)
	if err != nil || st.Status.Outcome != (Outcome{Kind: OutcomeAbandon, Player: 1}) || st.Result.Winner != 0 {
		t.Fatalf("claim = %+v, %v", st.Status.Outcome, err)
	}

	c, ft, _ := clockedMatch(t, TimeControl{Days: 1})
	ft.advance(time.Hour)
	if _, err := c.Claim(0, ClaimDraw); !errors.Is(err, ErrCannotClaim) {
		t.Errorf("claim in correspondence: %v", err)
	}
}

// TestClockedPolicy: a clock only in online games, and no takebacks with
// it.
func TestClockedPolicy(t *testing.T) {
	if _, err := New(Config{Mode: Local, Clock: &TimeControl{Initial: 60 * sec}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a local game with a clock: %v", err)
	}
	if _, err := New(Config{Mode: Online, Clock: &TimeControl{}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("an empty time control: %v", err)
	}
	m, ft, _ := clockedMatch(t, TimeControl{Initial: 60 * sec})
	playFirst(t, m, ft, 2)
	if _, _, err := m.Offer(OfferTakeback, 1); err == nil {
		t.Error("a takeback offer in a clocked game was made")
	}
	if !m.Policy().Clock || m.State().CanTakeback != [2]bool{} {
		t.Errorf("policy %+v", m.Policy())
	}
}

// TestClockedTimer: the match's own timer calls OnDue at the deadline.
func TestClockedTimer(t *testing.T) {
	due := make(chan struct{}, 1)
	m, err := New(Config{Mode: Online, Clock: &TimeControl{Initial: 60 * sec}, Timing: Timing{FirstMove: 50 * time.Millisecond},
		OnDue: func(*Match) { due <- struct{}{} }})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.StartClock()
	select {
	case <-due:
	case <-time.After(5 * time.Second):
		t.Fatal("the timer never called OnDue")
	}
	if ended, _ := m.Tick(); !ended {
		t.Error("Tick after the timer did not end the game")
	}
}

// BenchmarkPlayClocked is the match's cost of a clock on a move: a 3+2
// online game against one without a clock, each move with the
// state it needs (a new game when one is over).
func BenchmarkPlayClocked(b *testing.B) {
	for _, tc := range []*TimeControl{nil, {Initial: 180 * sec, Increment: 2 * sec}} {
		name := "none"
		if tc != nil {
			name = "3+2"
		}
		b.Run(name, func(b *testing.B) {
			var m *Match
			for b.Loop() {
				var st State
				if m != nil {
					st = m.State()
				}
				if m == nil || st.Over() {
					if m != nil {
						m.Close()
					}
					var err error
					if m, err = New(Config{Mode: Online, Clock: tc, OnDue: func(*Match) {}}); err != nil {
						b.Fatal(err)
					}
					m.StartClock()
					st = m.State()
				}
				if _, err := m.PlayFor(st.Position.ToMove, st.Legal[0], nil); err != nil {
					b.Fatal(err)
				}
			}
			m.Close()
		})
	}
}

// TestClockedReasons: an abort at a first move's limit and a claimed
// draw say so (Outcome.Reason); a player's abort and an agreed draw have
// none.
func TestClockedReasons(t *testing.T) {
	m, ft, _ := clockedMatch(t, TimeControl{Initial: 60 * sec})
	ft.advance(DefaultFirstMove)
	m.Tick()
	if o := m.State().Status.Outcome; o != (Outcome{Kind: OutcomeAbort, Reason: ReasonFirstMove}) {
		t.Errorf("first move's limit: %+v", o)
	}
	a, _, _ := clockedMatch(t, TimeControl{Initial: 60 * sec})
	if st, err := a.Abort(0); err != nil || st.Status.Outcome != (Outcome{Kind: OutcomeAbort}) {
		t.Errorf("a player's abort: %+v, %v", st.Status.Outcome, err)
	}
	c, ft, _ := clockedMatch(t, TimeControl{Initial: 600 * sec})
	playFirst(t, c, ft, 2)
	c.SetPresence(Presence{Seats: [2]bool{true, false}, Taken: [2]bool{true, true}})
	ft.advance(DefaultClaimAfter)
	if st, err := c.Claim(0, ClaimDraw); err != nil || st.Status.Outcome != (Outcome{Kind: OutcomeDraw, Reason: ReasonClaim}) {
		t.Errorf("a claimed draw: %+v, %v", st.Status.Outcome, err)
	}
}

// TestClockedUsed: each move's time taken is kept and shown once over,
// first moves and correspondence alike, and saved with the move.
func TestClockedUsed(t *testing.T) {
	for _, tc := range []TimeControl{{Initial: 60 * sec, Increment: 2 * sec}, {Days: 1}} {
		m, ft, changes := clockedMatch(t, tc)
		var want []time.Duration
		for i := range 4 {
			d := time.Duration(i+1) * 1500 * time.Millisecond
			ft.advance(d)
			st := m.State()
			if _, err := m.PlayFor(st.Position.ToMove, st.Legal[0], nil); err != nil {
				t.Fatal(err)
			}
			want = append(want, d)
			if c := (*changes)[len(*changes)-1]; c.Kind != Moved || c.Used != d {
				t.Errorf("%+v: move %d saved with Used %v, want %v", tc, i, c.Used, d)
			}
		}
		if st := m.State(); st.Clock.Used != nil {
			t.Errorf("%+v: Used shown before the end: %v", tc, st.Clock.Used)
		}
		if _, err := m.Resign(0); err != nil {
			t.Fatal(err)
		}
		if got := m.State().Clock.Used; !slices.Equal(got, want) {
			t.Errorf("%+v: Used = %v, want %v", tc, got, want)
		}
		if got := m.Config().ClockUsed; !slices.Equal(got, want) {
			t.Errorf("%+v: Config().ClockUsed = %v, want %v", tc, got, want)
		}
	}
}

// TestClockedAway: the state says how long each seat has had no
// connection, as the match counts it for the claims, in real time only.
func TestClockedAway(t *testing.T) {
	m, ft, _ := clockedMatch(t, TimeControl{Initial: 600 * sec})
	playFirst(t, m, ft, 2)
	m.SetPresence(Presence{Seats: [2]bool{true, true}, Taken: [2]bool{true, true}})
	if a := m.State().Clock.Away; a != [2]time.Duration{-1, -1} {
		t.Errorf("both here: Away = %v", a)
	}
	m.SetPresence(Presence{Seats: [2]bool{true, false}, Taken: [2]bool{true, true}})
	ft.advance(34 * sec)
	if a := m.State().Clock.Away; a != [2]time.Duration{-1, 34 * sec} {
		t.Errorf("seat 1 gone 34 s: Away = %v", a)
	}
	c, ft, _ := clockedMatch(t, TimeControl{Days: 1})
	playFirst(t, c, ft, 2)
	ft.advance(time.Hour)
	if a := c.State().Clock.Away; a != [2]time.Duration{-1, -1} {
		t.Errorf("correspondence: Away = %v", a)
	}
}
