package sqlite

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"oanquan/internal/store/storetest"
)

// TestSQLiteForeignFile: a file that is not this store's is refused at
// Open with what it is, and left as it was: not a table added, not a
// byte changed, no write-ahead log made.
func TestSQLiteForeignFile(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "notes.db")
	db, err := sql.Open("sqlite", sqliteDSN(other))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)", "INSERT INTO notes (text) VALUES ('mine')", "PRAGMA user_version = 2"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	text := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(text, []byte("not a database at all\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	newer := filepath.Join(dir, "newer.db")
	s := openSQLiteAt(t, newer)
	s.Close()
	db, err = sql.Open("sqlite", sqliteDSN(newer, "journal_mode(DELETE)"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", len(sqliteMigrations)+1)); err != nil {
		t.Fatal(err)
	}
	db.Close()

	for _, tt := range []struct{ path, says string }{
		{other, "not an oanquan database (application_id 0x0, schema version 2, tables notes)"},
		{text, "not a database (it does not begin as a SQLite file does)"},
		{newer, "newer than this program knows"},
	} {
		before, _ := os.ReadFile(tt.path)
		_, err := Open(ctx, tt.path, nil)
		if err == nil || !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), "untouched") {
			t.Errorf("Open(%s) = %v, want an error saying %q and untouched", filepath.Base(tt.path), err, tt.says)
		}
		if after, _ := os.ReadFile(tt.path); !bytes.Equal(before, after) {
			t.Errorf("%s was changed by the refused Open", filepath.Base(tt.path))
		}
		if _, err := os.Stat(tt.path + "-wal"); err == nil {
			t.Errorf("%s: a write-ahead log was made", filepath.Base(tt.path))
		}
	}
}

// TestSQLiteMarked: a new file carries the mark; one made before the
// mark (schema version 3) opens and is marked.
func TestSQLiteMarked(t *testing.T) {
	old := filepath.Join(t.TempDir(), "old.db")
	s, err := openSQLite(ctx, old, 3, sqliteMaxBatch, nil)
	if err != nil {
		t.Fatal(err)
	}
	storetest.MustCreate(t, s, storetest.Sample("g"))
	s.Close()
	s = openSQLiteAt(t, old)
	defer s.Close()
	var app int
	if err := s.rdb.QueryRow("PRAGMA application_id").Scan(&app); err != nil || app != sqliteAppID {
		t.Errorf("application_id %#x, %v; want %#x", app, err, sqliteAppID)
	}
	storetest.MustGet(t, s, "g")
}

// TestSQLiteDamaged: a file damaged in the middle is refused at Open,
// saying so, and left as it was.
func TestSQLiteDamaged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s := openSQLiteAt(t, path)
	for i := range 2000 {
		g := storetest.Sample(fmt.Sprintf("game-%04d", i))
		g.Moves = []string{"1R", "2L", "3R", "4L", "5R", "1L"}
		storetest.MustCreate(t, s, g)
	}
	s.Close() // checkpoints: everything is in the file
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	mid := len(data) / page / 2 * page
	for i := mid + 100; i < mid+page-100; i++ {
		data[i] ^= 0x5a
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, path, nil)
	if err == nil || !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), "backup") {
		t.Errorf("Open of a damaged file = %v, want an error saying it is damaged", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
		t.Error("the damaged file was changed by the refused Open")
	}
}

// TestSQLiteCheckTime reports what the check at Open costs on a file
// of OANQUAN_CHECK games (of 4 moves), and fails if the quickest of three
// checks takes longer than checkTimeBound: .ci/run runs it alone, as a
// measurement,
//
//	OANQUAN_CHECK=100000 go test -run '^TestSQLiteCheckTime$' -v ./internal/store/sqlite
func TestSQLiteCheckTime(t *testing.T) {
	var games int
	fmt.Sscan(os.Getenv("OANQUAN_CHECK"), &games)
	if games <= 0 {
		t.Skip("set OANQUAN_CHECK=100000 to run")
	}
	// A bound for 100,000 games (about 80 ms measured alone, 1.6 s on a
	// loaded machine of 2 cores), scaled to the games asked for: far
	// above what the check costs, it catches one gone from reading the
	// file once to something much dearer, which would delay every start.
	checkTimeBound := time.Duration(games) * 5 * time.Second / 100000
	path := filepath.Join(t.TempDir(), "games.db")
	s := openSQLiteAt(t, path)
	db, err := sql.Open("sqlite", sqliteDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	// Made by two statements, beside the store: the check is what is
	// measured.
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO games (id, mode, level, human, seed, variants, first, start, nmoves, created, updated)
			WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
			SELECT printf('%012x', i), 'local', 'easy', 0, 0, '[]', 0, 's', 4, 0, 0 FROM n`,
		`INSERT INTO moves (game, idx, move)
			SELECT g.id, m.column1, m.column2 FROM games AS g, (VALUES (0, '1R'), (1, '2L'), (2, '3R'), (3, '4L')) AS m
			ORDER BY g.id, m.column1`,
	} {
		if _, err := tx.Exec(q, games); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM moves`).Scan(&n); err != nil || n != 4*games {
		t.Fatalf("made %d moves, %v; want %d", n, err, 4*games)
	}
	db.Close()
	s.Close()
	info, _ := os.Stat(path)
	quickest := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		if err := checkSQLiteFile(ctx, path); err != nil {
			t.Fatal(err)
		}
		d := time.Since(start)
		quickest = min(quickest, d)
		t.Logf("%d games, %d MB: checked in %v", games, info.Size()>>20, d.Round(time.Millisecond))
	}
	if quickest > checkTimeBound {
		t.Errorf("the check of %d games took %v at the quickest, want within %v", games, quickest.Round(time.Millisecond), checkTimeBound)
	}
}
