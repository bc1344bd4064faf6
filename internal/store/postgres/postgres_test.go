package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"oanquan/internal/store"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/storetest"
)

func openPostgresAt(t *testing.T, url string) *DB {
	t.Helper()
	s, err := Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// receive waits up to d for a notice on ch and returns its game, failing
// on a notice of the other kind than presence says (who is connected, or
// a game's change).
func receive(t *testing.T, ch <-chan store.Notice, presence bool, d time.Duration) (string, bool) {
	t.Helper()
	select {
	case n, ok := <-ch:
		if ok && n.Presence != presence {
			t.Errorf("notice %+v, want one with presence %v", n, presence)
		}
		return n.Game, ok
	case <-time.After(d):
		return "", false
	}
}

// nextIs checks that the next notice on ch is of game want, made by a
// change after one that must not be heard: PostgreSQL delivers the
// notices of transactions in the order they committed, and one listener
// relays them in that order, so a notice wrongly sent for the earlier
// change would come first. It waits for the notice up to guardTime.
func nextIs(t *testing.T, ch <-chan store.Notice, presence bool, want, after string) {
	t.Helper()
	select {
	case n, ok := <-ch:
		if w := (store.Notice{Game: want, Presence: presence}); !ok || n != w {
			t.Errorf("after %s, heard %+v (open %v) first; want the later change's %+v, nothing before", after, n, ok, w)
		}
	case <-time.After(guardTime):
		t.Errorf("after %s, heard nothing of the later change of %q in %v", after, want, guardTime)
	}
}

// waitClosed waits up to guardTime for Changes to close ch, after what
// should close it, and fails if it sends a notice first or never closes
// it (a wait that took its end for the close would pass either way).
func waitClosed(t *testing.T, ch <-chan store.Notice, after string) {
	t.Helper()
	select {
	case n, ok := <-ch:
		if ok {
			t.Errorf("after %s, Changes sent %+v; want its channel closed", after, n)
		}
	case <-time.After(guardTime):
		t.Errorf("Changes did not close its channel in %v when %s", guardTime, after)
	}
}

// TestPostgresChanges: a change made through one server is heard by
// another within 100 ms.
func TestPostgresChanges(t *testing.T) {
	url := pgtest.Start(t)
	a, b := openPostgresAt(t, url), openPostgresAt(t, url)
	c, cancel := context.WithCancel(ctx)
	defer cancel()
	heard := b.Changes(c)
	// m is the marker: a's change of it, heard next, shows that nothing
	// was sent for what came before.
	storetest.MustCreate(t, a, storetest.Sample("m"))
	nextIs(t, heard, false, "m", "creating the marker")
	marker := func(after string) {
		t.Helper()
		if err := a.SetLevel(ctx, "m", "hard", store.Idle); err != nil {
			t.Fatal(err)
		}
		nextIs(t, heard, false, "m", after)
	}
	changes := []struct {
		name string
		f    func() error
	}{
		{"Create", func() error { return a.Create(ctx, storetest.Sample("g")) }},
		{"Append", func() error { return a.Append(ctx, "g", 2, "1R", store.Idle) }},
		{"Truncate", func() error { return a.Truncate(ctx, "g", 1, store.Idle) }},
		{"SetLevel", func() error { return a.SetLevel(ctx, "g", "hard", store.Idle) }},
		{"ClaimSeat", func() error { return a.ClaimSeat(ctx, "g", 0, []byte("h")) }},
	}
	for _, ch := range changes {
		start := time.Now()
		if err := ch.f(); err != nil {
			t.Fatalf("%s: %v", ch.name, err)
		}
		id, ok := receive(t, heard, false, 100*time.Millisecond)
		if !ok || id != "g" {
			t.Errorf("after %s, heard %q, %v within 100 ms; want g", ch.name, id, ok)
		}
		t.Logf("%s heard after %v", ch.name, time.Since(start))
	}
	// A store's own changes are not sent to it: its server knows of them.
	if err := b.SetLevel(ctx, "g", "easy", store.Idle); err != nil {
		t.Fatal(err)
	}
	marker("its own change")
	// A refused change commits nothing and notifies nothing.
	if err := a.Append(ctx, "g", 7, "1R", store.Idle); err == nil {
		t.Fatal("Append at 7 = nil")
	}
	marker("a refused Append")
	cancel()
	waitClosed(t, heard, "ctx was canceled")
}

// TestPostgresChangesReconnect: when the listening connection is lost,
// Changes connects again and sends "", then goes on.
func TestPostgresChangesReconnect(t *testing.T) {
	url := pgtest.Start(t)
	a, b := openPostgresAt(t, url), openPostgresAt(t, url)
	changes := b.Changes(ctx)
	storetest.MustCreate(t, a, storetest.Sample("g"))
	if id, _ := receive(t, changes, false, time.Second); id != "g" {
		t.Fatalf("heard %q, want g", id)
	}
	var killed int
	err := a.pool.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE application_name = $1 AND datname = current_database()`, listenerName).Scan(&killed)
	if err != nil || killed != 1 {
		t.Fatalf("terminating the listener: %d, %v; want 1", killed, err)
	}
	start := time.Now()
	if id, ok := receive(t, changes, false, 5*time.Second); !ok || id != "" {
		t.Fatalf("after the listener's connection was killed, heard %q, %v; want \"\"", id, ok)
	}
	t.Logf("listening again after %v", time.Since(start))
	if err := a.SetLevel(ctx, "g", "easy", store.Idle); err != nil {
		t.Fatal(err)
	}
	if id, _ := receive(t, changes, false, time.Second); id != "g" {
		t.Errorf("after reconnecting, heard %q; want g", id)
	}
	b.Close()
	waitClosed(t, changes, "the store was closed")
}

// TestPostgresConcurrentOpen: servers starting at once on a new database
// migrate it once, under the advisory lock.
func TestPostgresConcurrentOpen(t *testing.T) {
	url := pgtest.Start(t)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() {
			s, err := Open(ctx, url, nil)
			if err == nil {
				s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("server %d: %v", i, err)
		}
	}
	s := openPostgresAt(t, url)
	var v int
	if err := s.pool.QueryRow(ctx, `SELECT version FROM oanquan_schema`).Scan(&v); err != nil || v != len(postgresMigrations) {
		t.Errorf("schema version %d, %v; want %d", v, err, len(postgresMigrations))
	}
}

// TestPostgresMigrateFromV1: a database made by the first schema is
// brought to the latest and keeps its games.
func TestPostgresMigrateFromV1(t *testing.T) {
	url := pgtest.Start(t)
	old, err := openPostgres(ctx, url, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = old.pool.Exec(ctx, `INSERT INTO games (id, mode, level, human, seed, variants, first, start, nmoves, updated)
		VALUES ('old', 'ai', 'hard', 0, 7, '{borrow}', 0, 'start', 2, now());
		INSERT INTO moves (game, idx, move) VALUES ('old', 0, '7R'), ('old', 1, '2L')`)
	old.Close()
	if err != nil {
		t.Fatal(err)
	}
	s := openPostgresAt(t, url)
	want := store.Game{ID: "old", Mode: "ai", Level: "hard", Seed: 7, Variants: []string{"borrow"}, Start: "start",
		Moves: []string{"7R", "2L"}}
	if err := storetest.SameGame(storetest.MustGet(t, s, "old"), want); err != nil {
		t.Errorf("the v1 game after migrating: %v", err)
	}
	if err := s.Append(ctx, "old", 2, "3R", store.ComputerToMove); err != nil {
		t.Fatal(err)
	}
	if ids, err := s.Waiting(ctx, 10); !slices.Equal(ids, []string{"old"}) || err != nil {
		t.Errorf("Waiting = %q, %v; want [old]", ids, err)
	}
}

// TestPostgresTwoServersRace: two stores (two servers) appending to the
// same game at the same indexes: each index is won once, and nothing is
// lost or doubled.
func TestPostgresTwoServersRace(t *testing.T) {
	url := pgtest.Start(t)
	a, b := openPostgresAt(t, url), openPostgresAt(t, url)
	g := storetest.Sample("g")
	g.Moves = nil
	storetest.MustCreate(t, a, g)
	for i := range 30 {
		var wg sync.WaitGroup
		errs := [2]error{}
		for k, s := range []store.Store{a, b} {
			wg.Go(func() { errs[k] = s.Append(ctx, "g", i, fmt.Sprintf("%d/%d", i, k), store.Idle) })
		}
		wg.Wait()
		if (errs[0] == nil) == (errs[1] == nil) {
			t.Fatalf("move %d: errors %v and %v; want exactly one nil", i, errs[0], errs[1])
		}
	}
	if got := storetest.MustGet(t, b, "g").Moves; len(got) != 30 {
		t.Errorf("%d moves, want 30", len(got))
	}
	var rows int
	a.pool.QueryRow(ctx, `SELECT count(*) FROM moves WHERE game = 'g'`).Scan(&rows)
	if rows != 30 {
		t.Errorf("%d move rows, want 30", rows)
	}
}

// TestPostgresSynchronousCommit: the store's connections commit
// durably even where the database's default says not to.
func TestPostgresSynchronousCommit(t *testing.T) {
	url := pgtest.Start(t)
	admin := openPostgresAt(t, url)
	var name string
	if err := admin.pool.QueryRow(ctx, "SELECT current_database()").Scan(&name); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.pool.Exec(ctx, "ALTER DATABASE "+name+" SET synchronous_commit = off"); err != nil {
		t.Fatal(err)
	}
	s := openPostgresAt(t, url)
	var got string
	if err := s.pool.QueryRow(ctx, "SHOW synchronous_commit").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != "on" {
		t.Errorf("synchronous_commit = %q on the store's connections, want on", got)
	}
}

// TestPostgresChangesResume: while the database refuses connections (a
// restart), the listener keeps trying; once it takes them again, the
// listener is back within a second, however long it was away.
func TestPostgresChangesResume(t *testing.T) {
	url := pgtest.Start(t)
	a, b := openPostgresAt(t, url), openPostgresAt(t, url)
	changes := b.Changes(ctx)
	var name string
	if err := a.pool.QueryRow(ctx, "SELECT current_database()").Scan(&name); err != nil {
		t.Fatal(err)
	}
	admin, err := pgx.Connect(ctx, strings.Replace(url, "/"+name+"?", "/postgres?", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := admin.Exec(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec("ALTER DATABASE " + name + " ALLOW_CONNECTIONS false")
	exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = $2`, listenerName, name)
	time.Sleep(3500 * time.Millisecond) // the listener tries again and again meanwhile
	exec("ALTER DATABASE " + name + " ALLOW_CONNECTIONS true")
	start := time.Now()
	if id, ok := receive(t, changes, false, 10*time.Second); !ok || id != "" {
		t.Fatalf("after the database took connections again, heard %q, %v; want \"\"", id, ok)
	}
	d := time.Since(start)
	if d > time.Second {
		t.Errorf("listening again %v after the database took connections again, want within a second", d.Round(time.Millisecond))
	}
	t.Logf("listening again %v after the database took connections again", d.Round(time.Millisecond))
}

// TestPostgresMigrateFromV5: a database of schema v5 (before clocks) is
// brought to v6: its games have no clock, and take one.
func TestPostgresMigrateFromV5(t *testing.T) {
	url := pgtest.Start(t)
	old, err := openPostgres(ctx, url, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = old.pool.Exec(ctx, `INSERT INTO games (id, mode, level, human, seed, variants, first, start, nmoves, updated)
		VALUES ('old', 'online', 'easy', 0, 7, '{}', 0, 'start', 0, now())`)
	old.Close()
	if err != nil {
		t.Fatal(err)
	}
	s := openPostgresAt(t, url)
	if g := storetest.MustGet(t, s, "old"); g.Clock != (store.Clock{}) {
		t.Errorf("a v5 game read with the clock %+v", g.Clock)
	}
	c := store.Clock{State: "{}", Deadline: time.Unix(1800000000, 0)}
	if err := s.AppendClocked(ctx, "old", 0, "7R", store.Idle, c); err != nil {
		t.Fatal(err)
	}
	if got := storetest.MustGet(t, s, "old").Clock; !got.Deadline.Equal(c.Deadline) || got.State != c.State {
		t.Errorf("clock after migrating = %+v", got)
	}
	var v int
	s.pool.QueryRow(ctx, `SELECT version FROM oanquan_schema`).Scan(&v)
	if v != len(postgresMigrations) {
		t.Errorf("schema version = %d, want %d", v, len(postgresMigrations))
	}
}
