package postgres

import (
	"errors"
	"fmt"
	"testing"

	"oanquan/internal/store"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/storetest"
)

// TestPostgresUnavailable: the error of a read-only database is told
// apart from faults.
func TestPostgresUnavailable(t *testing.T) {
	pg := openPostgresAt(t, pgtest.Start(t))
	setReadOnly(t, pg, true)
	pg.Probe(ctx) // may meet a connection the server ended
	pgErr := pg.Probe(ctx)
	storetest.CheckUnavailable(t, Unavailable, []storetest.UnavailableCase{
		{Name: "postgres read-only", Err: pgErr, Reason: "read-only"},
		{Name: "not found", Err: store.ErrNotFound, Reason: ""},
		{Name: "other", Err: errors.New("boom"), Reason: ""},
	})
}

// setReadOnly makes p's database read-only (or writable again) for new
// connections, and ends p's connections, so that its pool makes new ones.
func setReadOnly(t *testing.T, p *DB, on bool) {
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
