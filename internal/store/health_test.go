package store

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"oanquan/internal/store/pgtest"
)

// TestProbe: every store's probe succeeds on a store that takes changes,
// and changes nothing a game sees (SQLite keeps its schema version).
func TestProbe(t *testing.T) {
	sq := openSQLiteAt(t, filepath.Join(t.TempDir(), "games.db"))
	defer sq.Close()
	pg := openPostgresAt(t, pgtest.Start(t))
	for name, st := range map[string]Store{"memory": NewMemory(), "sqlite": sq, "postgres": pg} {
		if err := st.(Prober).Probe(ctx); err != nil {
			t.Errorf("%s: Probe() = %v", name, err)
		}
	}
	var v int
	if err := sq.rdb.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != len(sqliteMigrations) {
		t.Errorf("schema version after a probe: %d, %v; want %d", v, err, len(sqliteMigrations))
	}
}

// TestUnavailable: the drivers' errors for a store that cannot be
// written are told apart from faults, with a reason that quotes nothing
// of the error; a fault is not.
func TestUnavailable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s := openSQLiteAt(t, path)
	s.Close()
	ro, err := sql.Open("sqlite", sqliteDSN(path, "query_only(1)"))
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, roErr := ro.Exec(`UPDATE games SET level = 'x'`)

	pg := openPostgresAt(t, pgtest.Start(t))
	setReadOnly(t, pg, true)
	pg.Probe(ctx) // may meet a connection the server ended
	pgErr := pg.Probe(ctx)
	_, syntaxErr := ro.Exec(`SELEC 1`)

	for _, tt := range []struct {
		name   string
		err    error
		reason string // "": not unavailable
	}{
		{"sqlite read-only", fmt.Errorf("store: saving: %w", roErr), "read-only"},
		{"postgres read-only", pgErr, "read-only"},
		{"closed", errClosed, "closed"},
		{"sqlite syntax", syntaxErr, ""},
		{"not found", ErrNotFound, ""},
		{"other", errors.New("boom"), ""},
	} {
		reason, ok := Unavailable(tt.err)
		if ok != (tt.reason != "") || !strings.Contains(reason, tt.reason) {
			t.Errorf("%s: Unavailable(%v) = %q, %v; want a reason saying %q", tt.name, tt.err, reason, ok, tt.reason)
		}
		if ok && tt.err != nil && strings.Contains(reason, tt.err.Error()) {
			t.Errorf("%s: the reason %q quotes the error", tt.name, reason)
		}
	}
}

// setReadOnly makes p's database read-only (or writable again) for new
// connections, and ends p's connections, so that its pool makes new ones.
func setReadOnly(t *testing.T, p *Postgres, on bool) {
	t.Helper()
	var name string
	if err := p.pool.QueryRow(ctx, "SELECT current_database()").Scan(&name); err != nil {
		t.Fatal(err)
	}
	if _, err := p.pool.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s SET default_transaction_read_only = %v", name, on)); err != nil {
		t.Fatal(err)
	}
	if _, err := p.pool.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", name); err != nil {
		t.Fatal(err)
	}
	p.pool.Reset() // and this one, after it is used
}
