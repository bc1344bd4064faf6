package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"oanquan/internal/store"
)

// The contract: every Store passes the same tests (WTF Dial runs one suite
// on its in-memory and SQLite stores the same way).

// Opener makes a new, empty store for one test, which reads its now from
// clock (nil: the real time, as in production); it closes it when t
// ends.
type Opener func(t *testing.T, clock *Clock) store.Full

// Contract is the contract of store.Store, run on a new store from open
// for each test, with a clock of its own that the test moves.
func Contract(t *testing.T, open Opener) {
	tests := []struct {
		name string
		f    func(t *testing.T, s store.Store, clock *Clock)
	}{
		{"CreateGet", testCreateGet},
		{"Append", testAppend},
		{"Truncate", testTruncate},
		{"SetLevel", testSetLevel},
		{"SetStatus", testSetStatus},
		{"ClaimSeat", testClaimSeat},
		{"ClaimSeatRace", testClaimSeatRace},
		{"Waiting", testWaiting},
		{"Leases", testLeases},
		{"LeaseExpiry", testLeaseExpiry},
		{"Copies", testCopies},
		{"Canceled", testCanceled},
		{"Updated", testUpdated},
		{"ConcurrentAppends", testConcurrentAppends},
		{"RacingAppends", testRacingAppends},
		{"Expire", testExpire},
		{"ExpireRace", testExpireRace},
		{"Clock", testClock},
		{"Overdue", testOverdue},
		{"ClockRaces", testClockRaces},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := NewClock()
			tt.f(t, open(t, clock), clock)
		})
	}
}

// ctx is the tests' context: none of them is cancelled from outside.
var ctx = context.Background()

// Sample is a game with every field set. Created is whole microseconds,
// which every store keeps exactly.
func Sample(id string) store.Game {
	return store.Game{
		ID:       id,
		Mode:     "ai",
		Level:    "medium",
		Human:    1,
		Seed:     1<<63 + 12345, // beyond int64
		Variants: []string{"borrow", "no-relay"},
		First:    1,
		Start:    "5.5.5.5.5.10/5.5.5.5.5.10 0 0",
		Moves:    []string{"7R", "2L"},
		Seats:    [2][]byte{nil, []byte("hash-of-seat-1")},
		Waiting:  store.ComputerToMove,
		Status:   `{"outcome":{}}`,
		Created:  time.Date(2026, 11, 30, 14, 0, 0, 123456000, time.UTC),
	}
}

// MustCreate creates g in s, or fails t.
func MustCreate(t *testing.T, s store.Store, g store.Game) {
	t.Helper()
	if err := s.Create(ctx, g); err != nil {
		t.Fatalf("Create(%q) = %v", g.ID, err)
	}
}

// MustGet returns game id from s, or fails t.
func MustGet(t *testing.T, s store.Store, id string) store.Game {
	t.Helper()
	g, err := s.Get(ctx, id)
	if err != nil {
		t.Fatalf("Get(%q) = %v", id, err)
	}
	return g
}

// SameGame reports how got differs from want, ignoring Updated.
func SameGame(got, want store.Game) error {
	switch {
	case got.ID != want.ID || got.Mode != want.Mode || got.Level != want.Level || got.Human != want.Human ||
		got.Seed != want.Seed || got.First != want.First || got.Start != want.Start || got.Waiting != want.Waiting ||
		got.Status != want.Status:
		return fmt.Errorf("got %+v, want %+v", got, want)
	case !slices.Equal(got.Variants, want.Variants):
		return fmt.Errorf("Variants = %q, want %q", got.Variants, want.Variants)
	case !slices.Equal(got.Moves, want.Moves):
		return fmt.Errorf("Moves = %q, want %q", got.Moves, want.Moves)
	case !slices.Equal(got.Seats[0], want.Seats[0]) || !slices.Equal(got.Seats[1], want.Seats[1]) ||
		(got.Seats[0] == nil) != (want.Seats[0] == nil) || (got.Seats[1] == nil) != (want.Seats[1] == nil):
		return fmt.Errorf("Seats = %q, want %q", got.Seats, want.Seats)
	case !got.Created.Equal(want.Created):
		return fmt.Errorf("Created = %v, want %v", got.Created, want.Created)
	}
	return nil
}

func testCreateGet(t *testing.T, s store.Store, clock *Clock) {
	want := Sample("g1")
	MustCreate(t, s, want)
	got := MustGet(t, s, "g1")
	if err := SameGame(got, want); err != nil {
		t.Error(err)
	}
	if !got.Updated.Equal(clock.Now()) {
		t.Errorf("Updated = %v, want the store's clock, %v", got.Updated, clock.Now())
	}

	empty := store.Game{ID: "g2", Mode: "local", Level: "easy", Start: "s"}
	MustCreate(t, s, empty)
	if err := SameGame(MustGet(t, s, "g2"), empty); err != nil {
		t.Errorf("a game with no moves, seats or variants: %v", err)
	}

	if err := s.Create(ctx, Sample("g1")); !errors.Is(err, store.ErrExists) {
		t.Errorf("Create of a taken id = %v, want ErrExists", err)
	}
	if err := SameGame(MustGet(t, s, "g1"), want); err != nil {
		t.Errorf("after a refused Create: %v", err)
	}
	if _, err := s.Get(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get(nope) = %v, want ErrNotFound", err)
	}
}

func testAppend(t *testing.T, s store.Store, clock *Clock) {
	g := Sample("g")
	g.Moves = nil
	MustCreate(t, s, g)
	var want []string
	for i := range 10 {
		m := fmt.Sprintf("%dR", i%5+1)
		if err := s.Append(ctx, "g", i, m, store.Waiting(i%2 == 0)); err != nil {
			t.Fatalf("Append(%d) = %v", i, err)
		}
		want = append(want, m)
	}
	got := MustGet(t, s, "g")
	if !slices.Equal(got.Moves, want) || got.Waiting != store.Idle {
		t.Fatalf("after 10 appends: Moves %q Waiting %v, want %q false", got.Moves, got.Waiting, want)
	}
	for _, index := range []int{0, 9, 11, 100, -1} {
		if err := s.Append(ctx, "g", index, "1L", store.ComputerToMove); !errors.Is(err, store.ErrConflict) {
			t.Errorf("Append at %d with 10 moves saved = %v, want ErrConflict", index, err)
		}
	}
	if err := s.Append(ctx, "nope", 0, "1L", store.Idle); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Append to a missing game = %v, want ErrNotFound", err)
	}
	got = MustGet(t, s, "g")
	if !slices.Equal(got.Moves, want) || got.Waiting != store.Idle {
		t.Errorf("after refused appends: Moves %q Waiting %v, want %q false", got.Moves, got.Waiting, want)
	}
}

func testTruncate(t *testing.T, s store.Store, clock *Clock) {
	g := Sample("g")
	g.Moves = []string{"1R", "2R", "3R", "4R", "5R", "1L"}
	MustCreate(t, s, g)
	if err := s.Truncate(ctx, "g", 4, store.Idle); err != nil {
		t.Fatalf("Truncate(4) = %v", err)
	}
	got := MustGet(t, s, "g")
	if !slices.Equal(got.Moves, g.Moves[:4]) || got.Waiting != store.Idle {
		t.Errorf("after Truncate(4): %q %v, want %q false", got.Moves, got.Waiting, g.Moves[:4])
	}
	for _, n := range []int{5, -1} {
		if err := s.Truncate(ctx, "g", n, store.ComputerToMove); !errors.Is(err, store.ErrConflict) {
			t.Errorf("Truncate(%d) of 4 moves = %v, want ErrConflict", n, err)
		}
	}
	if err := s.Truncate(ctx, "nope", 0, store.Idle); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Truncate of a missing game = %v, want ErrNotFound", err)
	}
	if err := s.Append(ctx, "g", 4, "2L", store.ComputerToMove); err != nil {
		t.Errorf("Append(4) after Truncate(4) = %v", err)
	}
	if err := s.Truncate(ctx, "g", 5, store.ComputerToMove); err != nil {
		t.Errorf("Truncate to all the moves = %v", err)
	}
	if got := MustGet(t, s, "g").Moves; !slices.Equal(got, []string{"1R", "2R", "3R", "4R", "2L"}) {
		t.Errorf("Moves = %q", got)
	}
	if err := s.Truncate(ctx, "g", 0, store.Idle); err != nil {
		t.Errorf("Truncate(0) = %v", err)
	}
	if got := MustGet(t, s, "g").Moves; len(got) != 0 {
		t.Errorf("after Truncate(0), Moves = %q", got)
	}
	if err := s.Append(ctx, "g", 0, "3L", store.Idle); err != nil {
		t.Errorf("Append(0) after Truncate(0) = %v", err)
	}
}

func testSetLevel(t *testing.T, s store.Store, clock *Clock) {
	MustCreate(t, s, Sample("g"))
	if err := s.SetLevel(ctx, "g", "hard", store.Idle); err != nil {
		t.Fatal(err)
	}
	if got := MustGet(t, s, "g"); got.Level != "hard" || got.Waiting != store.Idle {
		t.Errorf("after SetLevel(hard, Idle): %q %v", got.Level, got.Waiting)
	}
	if err := s.SetLevel(ctx, "nope", "hard", store.Idle); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetLevel of a missing game = %v, want ErrNotFound", err)
	}
}

// testSetStatus: the status is replaced only from the value the caller
// read: of two writers, the second is refused.
func testSetStatus(t *testing.T, s store.Store, clock *Clock) {
	g := Sample("g")
	MustCreate(t, s, g)
	if err := s.SetStatus(ctx, "g", g.Status, `{"offer":"draw"}`); err != nil {
		t.Fatalf("SetStatus = %v", err)
	}
	if err := s.SetStatus(ctx, "g", g.Status, `{"offer":"takeback"}`); !errors.Is(err, store.ErrConflict) {
		t.Errorf("SetStatus from a status no longer there = %v, want ErrConflict", err)
	}
	if got := MustGet(t, s, "g"); got.Status != `{"offer":"draw"}` {
		t.Errorf("Status = %q, want the first writer's", got.Status)
	}
	if err := s.SetStatus(ctx, "nope", "", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetStatus of a missing game = %v, want ErrNotFound", err)
	}
}

func testClaimSeat(t *testing.T, s store.Store, clock *Clock) {
	g := Sample("g")
	g.Mode, g.Seats = "online", [2][]byte{}
	MustCreate(t, s, g)
	if err := s.ClaimSeat(ctx, "g", 0, []byte("alice")); err != nil {
		t.Fatalf("ClaimSeat(0) = %v", err)
	}
	if err := s.ClaimSeat(ctx, "g", 0, []byte("bob")); !errors.Is(err, store.ErrConflict) {
		t.Errorf("ClaimSeat of a taken seat = %v, want ErrConflict", err)
	}
	for _, seat := range []int{-1, 2} {
		if err := s.ClaimSeat(ctx, "g", seat, []byte("bob")); err == nil {
			t.Errorf("ClaimSeat(%d) = nil, want an error", seat)
		}
	}
	if err := s.ClaimSeat(ctx, "nope", 1, []byte("bob")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ClaimSeat in a missing game = %v, want ErrNotFound", err)
	}
	got := MustGet(t, s, "g")
	if string(got.Seats[0]) != "alice" || got.Seats[1] != nil {
		t.Errorf("Seats = %q, want [alice nil]", got.Seats)
	}
}

// testClaimSeatRace: of 50 racers for one seat, exactly one wins.
func testClaimSeatRace(t *testing.T, s store.Store, clock *Clock) {
	g := Sample("g")
	g.Seats = [2][]byte{}
	MustCreate(t, s, g)
	const racers = 50
	errs := make([]error, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Go(func() { errs[i] = s.ClaimSeat(ctx, "g", 1, fmt.Appendf(nil, "racer %d", i)) })
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Errorf("racers %d and %d both claimed the seat", winner, i)
		case err == nil:
			winner = i
		case !errors.Is(err, store.ErrConflict):
			t.Errorf("racer %d: %v, want nil or ErrConflict", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("nobody claimed the seat")
	}
	if got := string(MustGet(t, s, "g").Seats[1]); got != fmt.Sprintf("racer %d", winner) {
		t.Errorf("Seats[1] = %q, want the winner's, racer %d", got, winner)
	}
}

func testWaiting(t *testing.T, s store.Store, clock *Clock) {
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		g := Sample(id)
		g.Waiting = store.Idle
		MustCreate(t, s, g)
	}
	// Changes in this order: c, a, d waiting; b, e not.
	for _, id := range []string{"c", "b", "a", "e", "d"} {
		clock.Advance(time.Millisecond) // distinct Updated times
		if err := s.SetLevel(ctx, id, "hard", store.Waiting(id == "a" || id == "c" || id == "d")); err != nil {
			t.Fatal(err)
		}
	}
	check := func(limit int, want ...string) {
		t.Helper()
		got, err := s.Waiting(ctx, limit)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Waiting(%d) = %q, %v; want %q", limit, got, err, want)
		}
	}
	check(10, "c", "a", "d")
	check(2, "c", "a")
	check(0)
	clock.Advance(time.Millisecond)
	if err := s.Append(ctx, "c", 2, "1R", store.ComputerToMove); err != nil { // c changed last now
		t.Fatal(err)
	}
	if err := s.Append(ctx, "a", 2, "1R", store.Idle); err != nil {
		t.Fatal(err)
	}
	check(10, "d", "c")
}

func testLeases(t *testing.T, s store.Store, clock *Clock) {
	lease := func(owner string, want bool) {
		t.Helper()
		if got, err := s.Lease(ctx, "g", owner, time.Hour); err != nil || got != want {
			t.Errorf("Lease(g, %s) = %v, %v; want %v", owner, got, err, want)
		}
	}
	release := func(owner string) {
		t.Helper()
		if err := s.Release(ctx, "g", owner); err != nil {
			t.Errorf("Release(g, %s) = %v", owner, err)
		}
	}
	MustCreate(t, s, Sample("g"))
	lease("a", true)
	lease("b", false)
	lease("a", true) // renewed
	release("b")     // not b's: nothing happens
	lease("b", false)
	release("a")
	lease("b", true)
	lease("a", false)
	if ok, err := s.Lease(ctx, "other", "a", time.Hour); !ok || err != nil {
		t.Errorf("Lease of another game = %v, %v; want true", ok, err)
	}
}

// testLeaseExpiry: a lease runs out at its end by the store's clock,
// not before; a renewal extends it. Each check that a lease still holds
// is followed by the clock's move that makes it run out, and the check
// that it then has: a store that ignored the clock fails there.
func testLeaseExpiry(t *testing.T, s store.Store, clock *Clock) {
	MustCreate(t, s, Sample("g"))
	if ok, err := s.Lease(ctx, "g", "a", 5*time.Minute); !ok || err != nil {
		t.Fatalf("Lease(a) = %v, %v", ok, err)
	}
	if ok, _ := s.Lease(ctx, "g", "b", time.Hour); ok {
		t.Fatal("Lease(b) = true while a holds it")
	}
	clock.Advance(5*time.Minute - time.Second)
	if ok, _ := s.Lease(ctx, "g", "b", time.Hour); ok {
		t.Fatal("Lease(b) = true a second before a's ran out")
	}
	clock.Advance(time.Second) // a's lease ends now
	if ok, err := s.Lease(ctx, "g", "b", time.Hour); !ok || err != nil {
		t.Errorf("Lease(b) after a's ran out = %v, %v; want true", ok, err)
	}
	if ok, _ := s.Lease(ctx, "g", "a", time.Hour); ok {
		t.Error("Lease(a) = true while b holds it")
	}
	// A renewal extends: a short lease renewed for an hour does not run
	// out with the short one, and does at the hour's end.
	if ok, _ := s.Lease(ctx, "h", "a", time.Minute); !ok {
		t.Fatal("Lease(h, a) = false")
	}
	if ok, _ := s.Lease(ctx, "h", "a", time.Hour); !ok {
		t.Fatal("renewing Lease(h, a) = false")
	}
	clock.Advance(59 * time.Minute)
	if ok, _ := s.Lease(ctx, "h", "b", time.Hour); ok {
		t.Error("Lease(h, b) = true, but a renewed its lease for an hour")
	}
	clock.Advance(time.Minute)
	if ok, _ := s.Lease(ctx, "h", "b", time.Hour); !ok {
		t.Error("Lease(h, b) = false at the end of a's renewed hour")
	}
}

// testCopies: a store keeps no memory of what is passed to it, nor
// shares what it returns.
func testCopies(t *testing.T, s store.Store, clock *Clock) {
	g := Sample("g")
	want := g.Clone()
	MustCreate(t, s, g)
	g.Moves[0], g.Variants[0], g.Seats[1][0] = "x", "x", 'x'
	got := MustGet(t, s, "g")
	if err := SameGame(got, want); err != nil {
		t.Errorf("after changing the created value: %v", err)
	}
	got.Moves[0], got.Variants[0], got.Seats[1][0] = "y", "y", 'y'
	got.Moves = append(got.Moves, "z")
	if err := SameGame(MustGet(t, s, "g"), want); err != nil {
		t.Errorf("after changing a returned value: %v", err)
	}
	hash := []byte("hash")
	if err := s.ClaimSeat(ctx, "g", 0, hash); err != nil {
		t.Fatal(err)
	}
	hash[0] = 'x'
	if got := string(MustGet(t, s, "g").Seats[0]); got != "hash" {
		t.Errorf("after changing the hash passed to ClaimSeat, Seats[0] = %q", got)
	}
}

// testCanceled: with a done context every method fails and changes
// nothing.
func testCanceled(t *testing.T, s store.Store, clock *Clock) {
	MustCreate(t, s, Sample("g"))
	c, cancel := context.WithCancel(ctx)
	cancel()
	calls := map[string]error{
		"Create":    s.Create(c, Sample("h")),
		"Append":    s.Append(c, "g", 2, "1R", store.Idle),
		"Truncate":  s.Truncate(c, "g", 0, store.Idle),
		"SetLevel":  s.SetLevel(c, "g", "easy", store.Idle),
		"ClaimSeat": s.ClaimSeat(c, "g", 0, []byte("x")),
		"Release":   s.Release(c, "g", "a"),
	}
	_, calls["Get"] = s.Get(c, "g")
	_, calls["Waiting"] = s.Waiting(c, 10)
	_, calls["Lease"] = s.Lease(c, "g", "a", time.Hour)
	for name, err := range calls {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a canceled context = %v, want context.Canceled", name, err)
		}
	}
	if err := SameGame(MustGet(t, s, "g"), Sample("g")); err != nil {
		t.Errorf("after canceled calls: %v", err)
	}
	if _, err := s.Get(ctx, "h"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a canceled Create made the game: Get = %v", err)
	}
	if ok, _ := s.Lease(ctx, "g", "b", time.Hour); !ok {
		t.Error("a canceled Lease took the lease")
	}
}

// testUpdated: every change moves Updated on.
func testUpdated(t *testing.T, s store.Store, clock *Clock) {
	MustCreate(t, s, Sample("g"))
	last := MustGet(t, s, "g").Updated
	changes := []struct {
		name string
		f    func() error
	}{
		{"Append", func() error { return s.Append(ctx, "g", 2, "1R", store.Idle) }},
		{"Truncate", func() error { return s.Truncate(ctx, "g", 1, store.Idle) }},
		{"SetLevel", func() error { return s.SetLevel(ctx, "g", "easy", store.Idle) }},
		{"ClaimSeat", func() error { return s.ClaimSeat(ctx, "g", 0, []byte("h")) }},
	}
	for _, c := range changes {
		clock.Advance(time.Millisecond)
		if err := c.f(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		u := MustGet(t, s, "g").Updated
		if !u.After(last) || !u.Equal(clock.Now()) {
			t.Errorf("after %s, Updated = %v; want the clock's %v, after %v", c.name, u, clock.Now(), last)
		}
		last = u
	}
}

// testConcurrentAppends: many games played at once, each by its own
// goroutine, all arrive whole.
func testConcurrentAppends(t *testing.T, s store.Store, clock *Clock) {
	const games, moves = 40, 25
	var wg sync.WaitGroup
	errs := make(chan error, games)
	for i := range games {
		wg.Go(func() {
			id := fmt.Sprintf("g%d", i)
			if err := s.Create(ctx, store.Game{ID: id, Mode: "local", Level: "easy", Start: "s"}); err != nil {
				errs <- err
				return
			}
			for j := range moves {
				if err := s.Append(ctx, id, j, fmt.Sprintf("%d-%d", i, j), store.Waiting(j%2 == 0)); err != nil {
					errs <- fmt.Errorf("%s: Append(%d): %w", id, j, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range games {
		g := MustGet(t, s, fmt.Sprintf("g%d", i))
		if len(g.Moves) != moves || g.Moves[moves-1] != fmt.Sprintf("%d-%d", i, moves-1) || g.Waiting != store.ComputerToMove {
			t.Errorf("%s: %d moves, last %q, waiting %v", g.ID, len(g.Moves), g.Moves[len(g.Moves)-1], g.Waiting)
		}
	}
}

// testRacingAppends: writers racing for the same index of one game (two
// servers answering at once): exactly one wins each index, and the moves
// saved are the winners'.
func testRacingAppends(t *testing.T, s store.Store, clock *Clock) {
	g := Sample("g")
	g.Moves = nil
	MustCreate(t, s, g)
	const racers, moves = 8, 20
	won := make([][]string, moves)
	var mu sync.Mutex
	for i := range moves {
		var wg sync.WaitGroup
		for r := range racers {
			wg.Go(func() {
				m := fmt.Sprintf("%d/%d", i, r)
				err := s.Append(ctx, "g", i, m, store.Idle)
				if err != nil && !errors.Is(err, store.ErrConflict) {
					t.Errorf("Append(%d) by racer %d = %v", i, r, err)
				}
				if err == nil {
					mu.Lock()
					won[i] = append(won[i], m)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if len(won[i]) != 1 {
			t.Fatalf("move %d: %d winners (%q), want 1", i, len(won[i]), won[i])
		}
	}
	got := MustGet(t, s, "g").Moves
	for i := range moves {
		if got[i] != won[i][0] {
			t.Errorf("move %d = %q, want the winner's %q", i, got[i], won[i][0])
		}
	}
}
