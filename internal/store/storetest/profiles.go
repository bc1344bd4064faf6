package storetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"oanquan/internal/store"
)

// Profiles: a player's results count its online games against
// others that ended won, drawn or lost (not aborted, going on, against
// itself, or against the computer); the first result recorded stays, an
// undo takes it back; a rated ending records its result with the
// ratings; games finished with no result are listed to be worked out.
func Profiles(t *testing.T, s store.Full) {
	acc, pr := s.(store.Accounts), s.(store.Profiles)
	MustAccount(t, acc, "a1", "Nam")
	MustAccount(t, acc, "a2", "Lan")
	MustAccount(t, acc, "a3", "Mai")
	online := func(id string, a0, a1 string, r store.Result) {
		t.Helper()
		g := Sample(id)
		g.Mode, g.Status, g.Waiting, g.Accounts = "online", "", store.Idle, [2]string{a0, a1}
		if a0 == "computer" {
			g.Mode, g.Accounts[0] = "ai", ""
		}
		MustCreate(t, s, g)
		if r != store.NoResult {
			if err := s.Finish(ctx, id, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	online("w1", "a1", "a2", store.Won0)    // Nam won
	online("w2", "a2", "a1", store.Won0)    // Nam lost
	online("d1", "a1", "", store.Drawn)     // a draw against someone with no account
	online("ab", "a1", "a2", store.Aborted) // counts for nobody
	online("on", "a1", "a2", store.NoResult)
	online("me", "a1", "a1", store.Won0) // against itself
	online("pc", "computer", "a1", store.Won1)
	online("tb", "a3", "a1", store.Won1)                    // taken back below
	if err := s.Finish(ctx, "w1", store.Won1); err != nil { // the first result stays
		t.Fatal(err)
	}
	if err := s.Truncate(ctx, "tb", 1, store.Idle); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]store.Result{"w1": store.Won0, "w2": store.Won0, "d1": store.Drawn, "ab": store.Aborted, "on": store.NoResult, "tb": store.NoResult} {
		if got := MustGet(t, s, id).Result; got != want {
			t.Errorf("game %s: result %d, want %d", id, got, want)
		}
	}
	want := map[string]store.Tally{"a1": {Wins: 1, Draws: 1, Losses: 1}, "a2": {Wins: 1, Losses: 1}, "a3": {}, "none": {}}
	for id, w := range want {
		if got, err := pr.Results(ctx, id); err != nil || got != w {
			t.Errorf("Results(%s) = %+v, %v; want %+v", id, got, err, w)
		}
	}

	// A game finished before results were kept: listed, then worked out.
	online("old", "a3", "a1", store.NoResult)
	if err := s.Finish(ctx, "old", store.NoResult); err != nil {
		t.Fatal(err)
	}
	if ids, err := pr.Unresulted(ctx, "a1", 10); err != nil || !slices.Equal(ids, []string{"old"}) {
		t.Errorf("Unresulted(a1) = %v, %v; want [old]", ids, err)
	}
	if ids, _ := pr.Unresulted(ctx, "a2", 10); len(ids) != 0 {
		t.Errorf("Unresulted(a2) = %v, want none", ids)
	}
	if err := s.Finish(ctx, "old", store.Won1); err != nil {
		t.Fatal(err)
	}
	if ids, _ := pr.Unresulted(ctx, "a1", 10); len(ids) != 0 {
		t.Errorf("Unresulted(a1) after its result = %v, want none", ids)
	}
	if got, _ := pr.Results(ctx, "a1"); got != (store.Tally{Wins: 2, Draws: 1, Losses: 1}) {
		t.Errorf("Results(a1) after the old game's result = %+v", got)
	}

	// Rated endings: the result with the ratings; the history of each
	// speed, the last perSpeed oldest first.
	var changes []store.RatingChange
	for i, score := range []float64{0, 1, 0.5} {
		id := "r" + string(rune('1'+i))
		ratedGame(t, s, id)
		rc, err := acc.EndRated(ctx, id, store.Ending{Index: 2, Move: "5R", Score0: score, At: t0.Add(time.Duration(i) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		changes = append(changes, rc)
		if got, want := MustGet(t, s, id).Result, []store.Result{store.Won1, store.Won0, store.Drawn}[i]; got != want {
			t.Errorf("rated game %s: result %d, want %d", id, got, want)
		}
	}
	if got, _ := pr.Results(ctx, "a2"); got != (store.Tally{Wins: 2, Draws: 1, Losses: 2}) {
		t.Errorf("Results(a2) after rated games = %+v", got)
	}
	h, err := pr.RatingHistory(ctx, "a2", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 1 || len(h["blitz"]) != 2 {
		t.Fatalf("RatingHistory(a2, 2) = %+v, want two blitz points", h)
	}
	for i, p := range h["blitz"] {
		rc := changes[i+1]
		if p.Game != []string{"r2", "r3"}[i] || !p.At.Equal(t0.Add(time.Duration(i+1)*time.Hour)) || !near(p.Rating, rc.After[1]) {
			t.Errorf("history point %d = %+v, want game r%d at %v rated %+v", i, p, i+2, t0.Add(time.Duration(i+1)*time.Hour), rc.After[1])
		}
	}
	if h, _ := pr.RatingHistory(ctx, "a1", 500); len(h["blitz"]) != 3 || h["blitz"][0].Game != "r1" {
		t.Errorf("RatingHistory(a1, 500) = %+v, want r1, r2, r3", h)
	}
	if h, err := pr.RatingHistory(ctx, "a3", 500); err != nil || len(h) != 0 {
		t.Errorf("RatingHistory(a3) = %+v, %v; want none", h, err)
	}
}

// CheckMigratedV9 checks a store migrated from schema v9 (before
// results): its finished game "old" has no result and is listed to be
// worked out; its result can then be recorded.
func CheckMigratedV9(t *testing.T, s store.Store) {
	t.Helper()
	if g := MustGet(t, s, "old"); g.Result != store.NoResult {
		t.Errorf("a v9 game read with result %d", g.Result)
	}
	pr := s.(store.Profiles)
	if ids, err := pr.Unresulted(ctx, "a1", 10); err != nil || !slices.Equal(ids, []string{"old"}) {
		t.Fatalf("Unresulted = %v, %v; want [old]", ids, err)
	}
	if err := s.Finish(ctx, "old", store.Won0); err != nil {
		t.Fatal(err)
	}
	if got, err := pr.Results(ctx, "a1"); err != nil || got != (store.Tally{Wins: 1}) {
		t.Errorf("Results after migrating = %+v, %v", got, err)
	}
	// And v11's phrases.
	if err := s.(store.Phrases).SayPhrase(ctx, "old", 0, "hello", time.Second, 20); err != nil {
		t.Errorf("SayPhrase after migrating = %v", err)
	}
}

// BenchProfiles reads what a profile shows of a player with 1,000 games
// among 2,000 (BenchmarkProfiles of each store).
func BenchProfiles(b *testing.B, s store.Store) {
	acc, pr := s.(store.Accounts), s.(store.Profiles)
	for i := range 10 {
		a, se := newAccount(fmt.Sprint("a", i), fmt.Sprint("P", i))
		if err := acc.CreateAccount(ctx, a, se); err != nil {
			b.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 { // at once: SQLite commits them in groups
		wg.Go(func() {
			for i := w; i < 2000; i += 8 {
				g := store.Game{ID: fmt.Sprint("g", i), Mode: "online", Level: "easy", Start: "5.5.5.5.5.10/5.5.5.5.5.10 0 0",
					Moves: []string{"7R", "2L"}, Created: t0.Add(time.Duration(i) * time.Second),
					Accounts: [2]string{fmt.Sprint("a", i%10), fmt.Sprint("a", (i+1)%10)}}
				if i%2 == 0 {
					g.Accounts[0] = "a0"
				}
				rated := i%2 == 0 && i < 1200
				if rated {
					g.Rated = "blitz"
				}
				err := s.Create(ctx, g)
				if err == nil && rated {
					_, err = acc.EndRated(ctx, g.ID, store.Ending{Index: 2, Move: "5R", Score0: float64(i % 3 / 2), At: g.Created})
				} else if err == nil {
					err = s.Finish(ctx, g.ID, store.Result(1+i%4))
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	b.Run("results", func(b *testing.B) {
		for b.Loop() {
			if t, err := pr.Results(ctx, "a0"); err != nil || t.Wins+t.Draws+t.Losses == 0 {
				b.Fatal(t, err)
			}
		}
	})
	b.Run("history", func(b *testing.B) {
		for b.Loop() {
			if h, err := pr.RatingHistory(ctx, "a0", 500); err != nil || len(h["blitz"]) != 500 {
				b.Fatal(len(h["blitz"]), err)
			}
		}
	})
	b.Run("games", func(b *testing.B) {
		pg := s.(store.PlayerGames)
		for b.Loop() {
			if ids, err := pg.GamesOf(ctx, "a0", t0.Add(time.Hour), 20); err != nil || len(ids) != 20 {
				b.Fatal(len(ids), err)
			}
		}
	})
}
