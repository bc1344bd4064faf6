package postgres

import (
	"context"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/storetest"
	"testing"
	"time"
)

func TestPostgresSeeks(t *testing.T) { storetest.Seeks(t, openPostgresTemp) }

// TestPostgresMigrateFromV7 is TestSQLiteMigrateFromV7 on PostgreSQL.
func TestPostgresMigrateFromV7(t *testing.T) {
	url := pgtest.Start(t)
	old, err := openPostgres(ctx, url, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	storetest.MustAccount(t, old, "a1", "Nam")
	old.Close()
	s := openPostgresAt(t, url)
	storetest.CheckMigratedV7(t, s)
	var v int
	s.pool.QueryRow(ctx, `SELECT version FROM oanquan_schema`).Scan(&v)
	if v != len(postgresMigrations) {
		t.Errorf("schema version = %d, want %d", v, len(postgresMigrations))
	}
}

// TestPostgresMigrateFromV8 is TestSQLiteMigrateFromV8 on PostgreSQL.
func TestPostgresMigrateFromV8(t *testing.T) {
	url := pgtest.Start(t)
	old, err := openPostgres(ctx, url, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.pool.Exec(ctx, `INSERT INTO seeks (id, key, address, initial, increment, days, rated, min, max, speed, created, expires)
		VALUES ('s1', '\x00', '192.0.2.1', 180, 2, 0, false, 0, 0, 'blitz', $1, $2)`, storetest.SeekT0, storetest.SeekT0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	old.Close()
	storetest.CheckMigratedV8(t, openPostgresAt(t, url))
}

// TestPostgresLobbyNotices: a seek posted, accepted or withdrawn through
// one store is announced to another on the same database, as a lobby
// notice naming it; the store's own changes are not.
func TestPostgresLobbyNotices(t *testing.T) {
	url := pgtest.Start(t)
	a, b := openPostgresAt(t, url), openPostgresAt(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	notices := b.Changes(ctx)
	wait := func(what, id string) {
		t.Helper()
		for {
			select {
			case n := <-notices:
				if !n.Lobby {
					continue
				}
				if n.Seek != id {
					t.Fatalf("%s: notice %+v, want the lobby's for %s", what, n, id)
				}
				return
			case <-ctx.Done():
				t.Fatalf("%s: no notice", what)
			}
		}
	}
	now := time.Now()
	if err := b.CreateSeek(ctx, storetest.NewSeek("own", now)); err != nil { // b's own: not announced to b
		t.Fatal(err)
	}
	if err := a.CreateSeek(ctx, storetest.NewSeek("s1", now)); err != nil {
		t.Fatal(err)
	}
	wait("posted", "s1")
	if err := a.AcceptSeek(ctx, "s1", "g1", 0, "", now, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	wait("accepted", "s1")
	if err := a.CreateSeek(ctx, storetest.NewSeek("s2", now)); err != nil {
		t.Fatal(err)
	}
	wait("posted", "s2")
	if err := a.WithdrawSeek(ctx, "s2"); err != nil {
		t.Fatal(err)
	}
	wait("withdrawn", "s2")
}
