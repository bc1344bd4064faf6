package postgres

import (
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestPostgresAccounts(t *testing.T) { storetest.Accounts(t, openPostgresTemp) }

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
