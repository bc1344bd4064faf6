package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"oanquan/internal/store"
)

// testExpire: each kind of game is deleted when its time is up, and only
// then: an invitation nobody opened, an unfinished game, a finished one
// (and one finished, then undone, is unfinished again); with its moves,
// at most Limit a call. The games are changed and finished at the
// clock's time; the cutoffs are taken from it too.
func testExpire(t *testing.T, s store.Store, clock *Clock) {
	later := clock.Now().Add(time.Hour)
	game := func(id, mode string, seats [2][]byte, moves ...string) {
		t.Helper()
		MustCreate(t, s, store.Game{ID: id, Mode: mode, Level: "easy", Start: "s", Seats: seats, Moves: moves})
	}
	game("invite", "online", [2][]byte{[]byte("h"), nil})
	game("joined", "online", [2][]byte{[]byte("h"), []byte("j")})
	game("playing", "local", [2][]byte{[]byte("h"), []byte("h")}, "1R")
	game("ended", "online", [2][]byte{[]byte("h"), nil}, "1R", "2L")
	game("undone", "local", [2][]byte{[]byte("h"), []byte("h")}, "1R", "2L")
	for _, id := range []string{"ended", "undone"} {
		if err := s.Finish(ctx, id, store.Won0); err != nil {
			t.Fatalf("Finish(%q) = %v", id, err)
		}
	}
	if err := s.Finish(ctx, "ended", store.Won1); err != nil { // again: nothing changes
		t.Fatalf("Finish again = %v", err)
	}
	if err := s.Finish(ctx, "nope", store.Drawn); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Finish of no game = %v, want ErrNotFound", err)
	}
	if err := s.Truncate(ctx, "undone", 1, store.Idle); err != nil {
		t.Fatal(err)
	}
	expire := func(e store.Expiry, want ...string) []string {
		t.Helper()
		if e.Limit == 0 {
			e.Limit = 100
		}
		got, err := s.Expire(ctx, e)
		slices.Sort(got)
		if err != nil || want != nil && !slices.Equal(got, want) {
			t.Errorf("Expire(%+v) = %v, %v; want %v", e, got, err, want)
		}
		for _, id := range got {
			if _, err := s.Get(ctx, id); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("Get(%q) after Expire = %v, want ErrNotFound", id, err)
			}
		}
		return got
	}
	now := clock.Now()
	// Changed (and finished) at now, not before: none is due yet.
	expire(store.Expiry{Invitations: now, Unfinished: now, Finished: now}, []string{}...)
	// Expire goes by the games' times and the cutoffs, not the clock.
	clock.Advance(2 * time.Hour)
	expire(store.Expiry{Invitations: later}, "invite")
	first := expire(store.Expiry{Unfinished: later, Limit: 2})
	rest := expire(store.Expiry{Unfinished: later})
	if all := slices.Sorted(slices.Values(append(first, rest...))); len(first) != 2 || !slices.Equal(all, []string{"joined", "playing", "undone"}) {
		t.Errorf("unfinished games expired two at most, then the rest: %v, then %v; want joined, playing and undone", first, rest)
	}
	expire(store.Expiry{Finished: later}, "ended")
}

// testExpireRace: stores expiring at once (several servers) delete every
// game due once, between them, without errors.
func testExpireRace(t *testing.T, s store.Store, clock *Clock) {
	const games = 60
	for i := range games {
		MustCreate(t, s, store.Game{ID: fmt.Sprintf("g%02d", i), Mode: "local", Level: "easy", Start: "s"})
	}
	var mu sync.Mutex
	var all []string
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				ids, err := s.Expire(ctx, store.Expiry{Unfinished: clock.Now().Add(time.Hour), Limit: 7})
				if err != nil {
					t.Error(err)
					return
				}
				if len(ids) == 0 {
					return
				}
				mu.Lock()
				all = append(all, ids...)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(all)
	n := len(all)
	if distinct := len(slices.Compact(all)); n != games || distinct != games {
		t.Errorf("deleted %d games (%d different), want each of %d once", n, distinct, games)
	}
}
