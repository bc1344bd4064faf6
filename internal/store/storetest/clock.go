package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"oanquan/internal/store"
)

// testClock: a clock is saved with its move, in the move's change: a
// move refused saves no clock; a move without one keeps the clock saved.
func testClock(t *testing.T, s store.Store, clock *Clock) {
	g := Sample("g")
	g.Mode, g.Moves = "online", nil
	g.Clock = store.Clock{State: `{"initial":180}`}
	MustCreate(t, s, g)
	MustCreate(t, s, Sample("g2"))
	if got := MustGet(t, s, "g").Clock; got != g.Clock {
		t.Fatalf("created with %+v, read %+v", g.Clock, got)
	}
	deadline := time.Date(2026, 12, 1, 12, 0, 0, 123456000, time.UTC)
	ready := store.Clock{State: `{"initial":180,"start":1}`, Deadline: deadline}
	if err := s.SetClock(ctx, "g", ready); err != nil {
		t.Fatal(err)
	}
	moved := store.Clock{State: `{"initial":180,"start":2}`, Deadline: deadline.Add(time.Minute), Move: "180000,180000", IfStatus: g.Status}
	if err := s.AppendClocked(ctx, "g", 0, "7R", store.Idle, moved); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendClocked(ctx, "g", 0, "1L", store.Idle, store.Clock{State: "late"}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("AppendClocked at a taken index = %v, want ErrConflict", err)
	}
	got := MustGet(t, s, "g")
	if got.Clock.State != moved.State || !got.Clock.Deadline.Equal(moved.Deadline) || got.Clock.Move != "" || !slices.Equal(got.Moves, []string{"7R"}) {
		t.Errorf("after the move: %+v, moves %q; want %+v", got.Clock, got.Moves, moved)
	}
	if err := s.Append(ctx, "g", 1, "2L", store.Idle); err != nil {
		t.Fatal(err)
	}
	if got := MustGet(t, s, "g").MoveClocks; !slices.Equal(got, []string{"180000,180000", ""}) {
		t.Errorf("MoveClocks = %q, want the first move's clock and none", got)
	}
	if err := s.Truncate(ctx, "g", 1, store.Idle); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendClocked(ctx, "g", 1, "3L", store.Idle, store.Clock{State: moved.State, Deadline: moved.Deadline, Move: "170000,180000", IfStatus: g.Status}); err != nil {
		t.Fatal(err)
	}
	if got := MustGet(t, s, "g").MoveClocks; !slices.Equal(got, []string{"180000,180000", "170000,180000"}) {
		t.Errorf("MoveClocks after an undo and a move = %q", got)
	}
	if got := MustGet(t, s, "g2").MoveClocks; got != nil {
		t.Errorf("a game whose moves have no clock: MoveClocks = %q, want nil", got)
	}
	if got := MustGet(t, s, "g").Clock; got.State != moved.State || !got.Deadline.Equal(moved.Deadline) {
		t.Errorf("a move without a clock changed it to %+v", got)
	}
	if err := s.SetClock(ctx, "nope", ready); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetClock of no game = %v", err)
	}
	if err := s.AppendClocked(ctx, "nope", 0, "7R", store.Idle, ready); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("AppendClocked to no game = %v", err)
	}
}

// testOverdue: the games past their deadline, not finished, whose lease
// ran out or was never taken, the earliest first.
func testOverdue(t *testing.T, s store.Store, clock *Clock) {
	now := clock.Now()
	for _, c := range []struct {
		id       string
		deadline time.Time
	}{
		{"late", now.Add(-time.Minute)},
		{"later", now.Add(-time.Hour)}, // the earlier deadline: first
		{"leased", now.Add(-time.Minute)},
		{"over", now.Add(-time.Minute)},
		{"future", now.Add(time.Minute)},
		{"none", time.Time{}},
	} {
		g := Sample(c.id)
		g.Clock = store.Clock{State: "{}", Deadline: c.deadline}
		MustCreate(t, s, g)
	}
	if err := s.Finish(ctx, "over", store.Drawn); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Lease(ctx, "leased", "a", time.Hour); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if ok, err := s.Lease(ctx, "late", "gone", time.Minute); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if ids, err := s.Overdue(ctx, now, 10); err != nil || !slices.Equal(ids, []string{"later"}) {
		t.Errorf("Overdue while the lease of late holds = %q, %v; want [later]", ids, err)
	}
	clock.Advance(time.Minute) // the lease of the server gone runs out
	ids, err := s.Overdue(ctx, now, 10)
	if err != nil || !slices.Equal(ids, []string{"later", "late"}) {
		t.Errorf("Overdue = %q, %v; want [later late]", ids, err)
	}
	if ids, _ := s.Overdue(ctx, now, 1); !slices.Equal(ids, []string{"later"}) {
		t.Errorf("Overdue(limit 1) = %q", ids)
	}
	if ids, _ := s.Overdue(ctx, now.Add(-2*time.Hour), 10); ids == nil || len(ids) != 0 {
		t.Errorf("Overdue before every deadline = %#v, want empty", ids)
	}
	// A move saved with a later deadline takes the game out.
	g := MustGet(t, s, "later")
	if err := s.AppendClocked(ctx, "later", len(g.Moves), "1R", store.Idle, store.Clock{State: "{}", Deadline: now.Add(time.Hour), IfStatus: g.Status}); err != nil {
		t.Fatal(err)
	}
	if ids, _ := s.Overdue(ctx, now, 10); !slices.Equal(ids, []string{"late"}) {
		t.Errorf("Overdue after a move = %q, want [late]", ids)
	}
}

// testClockRaces: of a clock's flag and a move saved through two
// servers at once, the first saved wins: a flag is refused once a move
// was saved after the moves it counted, and a clocked move once the
// status changed.
func testClockRaces(t *testing.T, s store.Store, clock *Clock) {
	g := Sample("g")
	g.Mode, g.Moves, g.Status = "online", []string{"7R", "2L"}, ""
	g.Clock = store.Clock{State: "{}"}
	MustCreate(t, s, g)
	clk := store.Clock{State: "{}", Move: "1,2"}
	if err := s.AppendClocked(ctx, "g", 2, "5R", store.Idle, clk); err != nil {
		t.Fatal(err)
	}
	// Server b flags on the two moves it knew: refused.
	if err := s.SetStatusAt(ctx, "g", "", "timeout", 2); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a flag on 2 moves when 3 are saved = %v, want ErrConflict", err)
	}
	if err := s.SetStatusAt(ctx, "g", "", "timeout", 3); err != nil {
		t.Fatalf("a flag on the 3 moves saved = %v", err)
	}
	// Server a, which did not know of the flag, saves a move: refused.
	clk.IfStatus = ""
	if err := s.AppendClocked(ctx, "g", 3, "1L", store.Idle, clk); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a clocked move after the flag = %v, want ErrConflict", err)
	}
	clk.IfStatus = "timeout"
	if err := s.AppendClocked(ctx, "g", 3, "1L", store.Idle, clk); err != nil {
		t.Fatalf("a clocked move on the status saved = %v", err)
	}
	if err := s.SetStatusAt(ctx, "nope", "", "x", 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetStatusAt of no game = %v", err)
	}
}
