package sqlite

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
)

func openSQLiteAt(t *testing.T, path string) *DB {
	t.Helper()
	s, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// migratedSQLite makes a SQLite file of schema version from, has prepare
// save what the test needs in it (nil: nothing), and opens it as this
// program does, migrating it to the latest version, which it checks; the
// store is closed when the test ends.
func migratedSQLite(t *testing.T, from int, prepare func(old *DB)) *DB {
	t.Helper()
	path := fmt.Sprintf("%s/v%d.db", t.TempDir(), from)
	old, err := openSQLite(ctx, path, from, sqliteMaxBatch, nil)
	if err != nil {
		t.Fatal(err)
	}
	if prepare != nil {
		prepare(old)
	}
	old.Close()
	s := openSQLiteAt(t, path)
	t.Cleanup(func() { s.Close() })
	var v int
	s.rdb.QueryRow("PRAGMA user_version").Scan(&v)
	if v != len(sqliteMigrations) {
		t.Errorf("user_version = %d, want %d", v, len(sqliteMigrations))
	}
	return s
}

// execOld runs a statement on a store of an older schema, for
// migratedSQLite's prepare.
func execOld(t *testing.T, old *DB, query string, args ...any) {
	t.Helper()
	if err := old.write(ctx, func(w *sqliteWriter) error {
		_, err := w.exec(query, args...)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// TestSQLiteReopen: what was saved is there after Close and a new Open.
func TestSQLiteReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s := openSQLiteAt(t, path)
	storetest.MustCreate(t, s, storetest.Sample("g"))
	if err := s.Append(ctx, "g", 2, "3L", store.Idle); err != nil {
		t.Fatal(err)
	}
	if err := s.ClaimSeat(ctx, "g", 0, []byte("h0")); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Lease(ctx, "g", "server-1", time.Hour); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "g", 3, "1R", store.Idle); err == nil {
		t.Error("Append after Close = nil, want an error")
	}

	s = openSQLiteAt(t, path)
	defer s.Close()
	want := storetest.Sample("g")
	want.Moves = append(want.Moves, "3L")
	want.Seats[0], want.Waiting = []byte("h0"), store.Idle
	if err := storetest.SameGame(storetest.MustGet(t, s, "g"), want); err != nil {
		t.Error(err)
	}
	if ok, _ := s.Lease(ctx, "g", "server-2", time.Hour); ok {
		t.Error("the lease did not survive the restart")
	}
}

// TestSQLiteKill: every Append that returned is in the file after the
// process was killed with SIGKILL. The test runs itself as the process
// that plays (TestSQLiteKillChild) and kills it mid-play.
func TestSQLiteKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	path := filepath.Join(t.TempDir(), "games.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestSQLiteKillChild$")
	cmd.Env = append(os.Environ(), "OANQUAN_KILL_CHILD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The child plays 8 games at once and prints "GAME INDEX" once each
	// Append has returned.
	acked := map[string]int{}
	lines := bufio.NewScanner(out)
	for n := 0; n < 2000 && lines.Scan(); n++ {
		f := strings.Fields(lines.Text())
		if len(f) == 2 {
			acked[f[0]], _ = strconv.Atoi(f[1])
		}
	}
	cmd.Process.Kill() // SIGKILL, mid-play
	cmd.Wait()
	if len(acked) == 0 {
		t.Fatal("the child acknowledged no move")
	}
	s := openSQLiteAt(t, path)
	defer s.Close()
	for id, last := range acked {
		g := storetest.MustGet(t, s, id)
		if len(g.Moves) <= last {
			t.Errorf("game %s: %d moves in the file, but move %d was acknowledged", id, len(g.Moves), last)
		}
	}
}

// TestSQLiteKillChild is the process that TestSQLiteKill kills.
func TestSQLiteKillChild(t *testing.T) {
	path := os.Getenv("OANQUAN_KILL_CHILD")
	if path == "" {
		t.Skip("run by TestSQLiteKill")
	}
	s := openSQLiteAt(t, path)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			id := fmt.Sprintf("g%d", i)
			if err := s.Create(ctx, store.Game{ID: id, Mode: "local", Level: "easy", Start: "s"}); err != nil {
				panic(err)
			}
			for j := 0; ; j++ {
				if err := s.Append(ctx, id, j, "1R", store.Idle); err != nil {
					panic(err)
				}
				mu.Lock()
				fmt.Printf("%s %d\n", id, j) // os.Stdout is not buffered
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// TestSQLiteMigrateFromV1: a file made by the first schema opens, is
// brought to the latest, and keeps its games.
func TestSQLiteMigrateFromV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	old, err := openSQLite(ctx, path, 1, sqliteMaxBatch, nil)
	if err != nil {
		t.Fatal(err)
	}
	old.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	// A game as the first version wrote it: no seats, no waiting flag.
	_, err = db.Exec(`INSERT INTO games (id, mode, level, human, seed, variants, first, start, nmoves, created, updated)
		VALUES ('old', 'ai', 'hard', 0, 7, '["borrow"]', 0, 'start', 2, NULL, 1700000000000000000);
		INSERT INTO moves (game, idx, move) VALUES ('old', 0, '7R'), ('old', 1, '2L');`)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := openSQLiteAt(t, path)
	defer s.Close()
	want := store.Game{ID: "old", Mode: "ai", Level: "hard", Seed: 7, Variants: []string{"borrow"}, Start: "start",
		Moves: []string{"7R", "2L"}}
	if err := storetest.SameGame(storetest.MustGet(t, s, "old"), want); err != nil {
		t.Errorf("the v1 game after migrating: %v", err)
	}
	// Whether it is over is not known: it is kept as long as a finished
	// game (its last change, in 2023, is after the cutoff of 2020), not
	// deleted as an unfinished one at once.
	gone, err := s.Expire(ctx, store.Expiry{Unfinished: time.Now(), Finished: time.Unix(0, 1600000000000000000), Limit: 10})
	if err != nil || len(gone) != 0 {
		t.Errorf("Expire after migrating = %q, %v; want the old game kept as a finished one", gone, err)
	}
	if err := s.Append(ctx, "old", 2, "3R", store.ComputerToMove); err != nil {
		t.Fatal(err)
	}
	if ids, err := s.Waiting(ctx, 10); !slices.Equal(ids, []string{"old"}) || err != nil {
		t.Errorf("Waiting = %q, %v; want [old]", ids, err)
	}
	var v int
	s.rdb.QueryRow("PRAGMA user_version").Scan(&v)
	if v != len(sqliteMigrations) {
		t.Errorf("user_version = %d, want %d", v, len(sqliteMigrations))
	}
}

// TestSQLiteNewerSchema: a file from a newer program (marked as ours) is
// refused, not damaged.
func TestSQLiteNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.db")
	db, _ := sql.Open("sqlite", path)
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = 99; PRAGMA application_id = %d", sqliteAppID)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if s, err := Open(ctx, path, nil); err == nil || !strings.Contains(err.Error(), "newer") {
		if s != nil {
			s.Close()
		}
		t.Errorf("Open of a version 99 file = %v, want an error that says it is newer", err)
	}
}

// TestSQLiteBatch: in one group commit, each change gets its own result:
// a conflict, or an unexpected error after a write, fails only its own
// change. It runs in a synctest bubble, so that synctest.Wait knows when
// every change is queued (its goroutine blocked sending to the writer),
// where a sleep could let them commit one by one on a slow machine, and
// the test pass without a batch.
func TestSQLiteBatch(t *testing.T) {
	synctest.Test(t, testSQLiteBatch)
}

func testSQLiteBatch(t *testing.T) {
	s := openSQLiteTemp(t, nil).(*DB)
	for i := range 4 {
		storetest.MustCreate(t, s, store.Game{ID: fmt.Sprint(i), Mode: "local", Level: "easy", Start: "s", Moves: []string{"1R"}})
	}
	boom := errors.New("boom")
	for _, withBoom := range []bool{false, true} {
		// Hold the writer so that the changes below queue up and are
		// committed in one batch.
		release := make(chan struct{})
		held := make(chan struct{})
		go s.write(ctx, func(*sqliteWriter) error { close(held); <-release; return nil })
		<-held
		errs := make([]error, 9)
		var wg sync.WaitGroup
		for i := range 4 {
			n := len(storetest.MustGet(t, s, fmt.Sprint(i)).Moves)
			wg.Go(func() { errs[2*i] = s.Append(ctx, fmt.Sprint(i), n, "2L", store.Idle) })
			wg.Go(func() { errs[2*i+1] = s.Append(ctx, fmt.Sprint(i), n+5, "2L", store.Idle) }) // conflicts
		}
		if withBoom {
			wg.Go(func() {
				errs[8] = s.write(ctx, func(w *sqliteWriter) error {
					if _, err := w.exec(`UPDATE games SET level = 'hard' WHERE id = '0'`); err != nil {
						return err
					}
					return boom
				})
			})
		}
		synctest.Wait() // all queued: each goroutine blocked on s.ops
		close(release)
		wg.Wait()
		for i := range 4 {
			if errs[2*i] != nil || !errors.Is(errs[2*i+1], store.ErrConflict) {
				t.Errorf("boom %v, game %d: %v and %v; want nil and ErrConflict", withBoom, i, errs[2*i], errs[2*i+1])
			}
		}
		if withBoom && !errors.Is(errs[8], boom) {
			t.Errorf("the change that failed after writing: %v, want boom", errs[8])
		}
	}
	for i := range 4 {
		if g := storetest.MustGet(t, s, fmt.Sprint(i)); len(g.Moves) != 3 || g.Level != "easy" {
			t.Errorf("game %d: %q %s; want 3 moves, level easy", i, g.Moves, g.Level)
		}
	}
}

// TestSQLiteClosedWhileQueued: Close while callers wait for the writer
// answers each of them.
func TestSQLiteClosedWhileQueued(t *testing.T) {
	s := openSQLiteTemp(t, nil).(*DB)
	storetest.MustCreate(t, s, store.Game{ID: "g", Mode: "local", Level: "easy", Start: "s"})
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() { s.SetLevel(context.Background(), "g", "hard", store.Idle) })
	}
	s.Close()
	wg.Wait() // would hang if a queued change were never answered
}
