package postgres

import (
	"testing"
	"time"

	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/storetest"
)

// TestPostgresMigrateFromV6 is TestSQLiteMigrateFromV6 on PostgreSQL.
func TestPostgresMigrateFromV6(t *testing.T) {
	url := pgtest.Start(t)
	old, err := openPostgres(ctx, url, 6, nil)
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
	storetest.CheckMigratedV6(t, s)
	var v int
	s.pool.QueryRow(ctx, `SELECT version FROM oanquan_schema`).Scan(&v)
	if v != len(postgresMigrations) {
		t.Errorf("schema version = %d, want %d", v, len(postgresMigrations))
	}
}

// TestPostgresMigrateFromV9 is TestSQLiteMigrateFromV9 on PostgreSQL.
func TestPostgresMigrateFromV9(t *testing.T) {
	url := pgtest.Start(t)
	old, err := openPostgres(ctx, url, 9, nil)
	if err != nil {
		t.Fatal(err)
	}
	storetest.MustAccount(t, old, "a1", "Nam")
	_, err = old.pool.Exec(ctx, `INSERT INTO games (id, mode, level, human, seed, variants, first, start, nmoves, updated, finished, account0)
		VALUES ('old', 'online', 'easy', 0, 7, '{}', 0, 'start', 0, now(), now(), 'a1')`)
	old.Close()
	if err != nil {
		t.Fatal(err)
	}
	s := openPostgresAt(t, url)
	storetest.CheckMigratedV9(t, s)
	var v int
	s.pool.QueryRow(ctx, `SELECT version FROM oanquan_schema`).Scan(&v)
	if v != len(postgresMigrations) {
		t.Errorf("schema version = %d, want %d", v, len(postgresMigrations))
	}
}

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
