package store

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"oanquan/internal/store/pgtest"
)

func TestMemoryProfiles(t *testing.T)   { testProfiles(t, openMemory(t)) }
func TestSQLiteProfiles(t *testing.T)   { testProfiles(t, openSQLiteTemp(t)) }
func TestPostgresProfiles(t *testing.T) { testProfiles(t, openPostgresTemp(t)) }

// testProfiles: a player's results count its online games against
// others that ended won, drawn or lost (not aborted, going on, against
// itself, or against the computer); the first result recorded stays, an
// undo takes it back; a rated ending records its result with the
// ratings; games finished with no result are listed to be worked out.
func testProfiles(t *testing.T, s Store) {
	acc, pr := s.(Accounts), s.(Profiles)
	mustAccount(t, acc, "a1", "Nam")
	mustAccount(t, acc, "a2", "Lan")
	mustAccount(t, acc, "a3", "Mai")
	online := func(id string, a0, a1 string, r Result) {
		t.Helper()
		g := sample(id)
		g.Mode, g.Status, g.Waiting, g.Accounts = "online", "", Idle, [2]string{a0, a1}
		if a0 == "computer" {
			g.Mode, g.Accounts[0] = "ai", ""
		}
		mustCreate(t, s, g)
		if r != NoResult {
			if err := s.Finish(ctx, id, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	online("w1", "a1", "a2", Won0)    // Nam won
	online("w2", "a2", "a1", Won0)    // Nam lost
	online("d1", "a1", "", Drawn)     // a draw against someone with no account
	online("ab", "a1", "a2", Aborted) // counts for nobody
	online("on", "a1", "a2", NoResult)
	online("me", "a1", "a1", Won0) // against itself
	online("pc", "computer", "a1", Won1)
	online("tb", "a3", "a1", Won1)                    // taken back below
	if err := s.Finish(ctx, "w1", Won1); err != nil { // the first result stays
		t.Fatal(err)
	}
	if err := s.Truncate(ctx, "tb", 1, Idle); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]Result{"w1": Won0, "w2": Won0, "d1": Drawn, "ab": Aborted, "on": NoResult, "tb": NoResult} {
		if got := mustGet(t, s, id).Result; got != want {
			t.Errorf("game %s: result %d, want %d", id, got, want)
		}
	}
	want := map[string]Tally{"a1": {Wins: 1, Draws: 1, Losses: 1}, "a2": {Wins: 1, Losses: 1}, "a3": {}, "none": {}}
	for id, w := range want {
		if got, err := pr.Results(ctx, id); err != nil || got != w {
			t.Errorf("Results(%s) = %+v, %v; want %+v", id, got, err, w)
		}
	}

	// A game finished before results were kept: listed, then worked out.
	online("old", "a3", "a1", NoResult)
	if err := s.Finish(ctx, "old", NoResult); err != nil {
		t.Fatal(err)
	}
	if ids, err := pr.Unresulted(ctx, "a1", 10); err != nil || !slices.Equal(ids, []string{"old"}) {
		t.Errorf("Unresulted(a1) = %v, %v; want [old]", ids, err)
	}
	if ids, _ := pr.Unresulted(ctx, "a2", 10); len(ids) != 0 {
		t.Errorf("Unresulted(a2) = %v, want none", ids)
	}
	if err := s.Finish(ctx, "old", Won1); err != nil {
		t.Fatal(err)
	}
	if ids, _ := pr.Unresulted(ctx, "a1", 10); len(ids) != 0 {
		t.Errorf("Unresulted(a1) after its result = %v, want none", ids)
	}
	if got, _ := pr.Results(ctx, "a1"); got != (Tally{Wins: 2, Draws: 1, Losses: 1}) {
		t.Errorf("Results(a1) after the old game's result = %+v", got)
	}

	// Rated endings: the result with the ratings; the history of each
	// speed, the last perSpeed oldest first.
	var changes []RatingChange
	for i, score := range []float64{0, 1, 0.5} {
		id := "r" + string(rune('1'+i))
		ratedGame(t, s, id)
		rc, err := acc.EndRated(ctx, id, Ending{Index: 2, Move: "5R", Score0: score, At: t0.Add(time.Duration(i) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		changes = append(changes, rc)
		if got, want := mustGet(t, s, id).Result, []Result{Won1, Won0, Drawn}[i]; got != want {
			t.Errorf("rated game %s: result %d, want %d", id, got, want)
		}
	}
	if got, _ := pr.Results(ctx, "a2"); got != (Tally{Wins: 2, Draws: 1, Losses: 2}) {
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

// TestSQLiteMigrateFromV9: a game finished at schema v9 has no result
// after migrating and is listed to be worked out; its result can then be
// recorded, and its players' phrases counted (v11).
func TestSQLiteMigrateFromV9(t *testing.T) {
	checkMigratedV9(t, migratedSQLite(t, 9, func(old *SQLite) {
		mustAccount(t, old, "a1", "Nam")
		g := sample("old")
		g.Mode, g.Accounts = "online", [2]string{"a1", ""}
		mustCreate(t, old, g)
		execOld(t, old, `UPDATE games SET finished = updated WHERE id = 'old'`)
	}))
}

// TestPostgresMigrateFromV9 is TestSQLiteMigrateFromV9 on PostgreSQL.
func TestPostgresMigrateFromV9(t *testing.T) {
	url := pgtest.Start(t)
	old, err := openPostgres(ctx, url, 9, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustAccount(t, old, "a1", "Nam")
	_, err = old.pool.Exec(ctx, `INSERT INTO games (id, mode, level, human, seed, variants, first, start, nmoves, updated, finished, account0)
		VALUES ('old', 'online', 'easy', 0, 7, '{}', 0, 'start', 0, now(), now(), 'a1')`)
	old.Close()
	if err != nil {
		t.Fatal(err)
	}
	s := openPostgresAt(t, url)
	checkMigratedV9(t, s)
	var v int
	s.pool.QueryRow(ctx, `SELECT version FROM oanquan_schema`).Scan(&v)
	if v != len(postgresMigrations) {
		t.Errorf("schema version = %d, want %d", v, len(postgresMigrations))
	}
}

func checkMigratedV9(t *testing.T, s Store) {
	t.Helper()
	if g := mustGet(t, s, "old"); g.Result != NoResult {
		t.Errorf("a v9 game read with result %d", g.Result)
	}
	pr := s.(Profiles)
	if ids, err := pr.Unresulted(ctx, "a1", 10); err != nil || !slices.Equal(ids, []string{"old"}) {
		t.Fatalf("Unresulted = %v, %v; want [old]", ids, err)
	}
	if err := s.Finish(ctx, "old", Won0); err != nil {
		t.Fatal(err)
	}
	if got, err := pr.Results(ctx, "a1"); err != nil || got != (Tally{Wins: 1}) {
		t.Errorf("Results after migrating = %+v, %v", got, err)
	}
	// And v11's phrases.
	if err := s.(Phrases).SayPhrase(ctx, "old", 0, "hello", time.Second, 20); err != nil {
		t.Errorf("SayPhrase after migrating = %v", err)
	}
}

// BenchmarkProfiles reads what a profile shows of a player with 1,000
// games (600 of them rated, ended, in the history) among 2,000: its
// results, its rating history (the last 500) and a page of its games.
//
//	go test -run '^$' -bench Profiles -benchtime 2s ./internal/store
func BenchmarkProfiles(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		s, err := OpenSQLite(ctx, b.TempDir()+"/bench.db", nil)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		benchProfiles(b, s)
	})
	b.Run("postgres", func(b *testing.B) {
		s, err := OpenPostgres(ctx, pgtest.Start(b), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		benchProfiles(b, s)
	})
}

func benchProfiles(b *testing.B, s Store) {
	acc, pr := s.(Accounts), s.(Profiles)
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
				g := Game{ID: fmt.Sprint("g", i), Mode: "online", Level: "easy", Start: "5.5.5.5.5.10/5.5.5.5.5.10 0 0",
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
					_, err = acc.EndRated(ctx, g.ID, Ending{Index: 2, Move: "5R", Score0: float64(i % 3 / 2), At: g.Created})
				} else if err == nil {
					err = s.Finish(ctx, g.ID, Result(1+i%4))
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
		pg := s.(PlayerGames)
		for b.Loop() {
			if ids, err := pg.GamesOf(ctx, "a0", t0.Add(time.Hour), 20); err != nil || len(ids) != 20 {
				b.Fatal(len(ids), err)
			}
		}
	})
}
