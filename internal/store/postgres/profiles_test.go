package postgres

import (
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestPostgresProfiles(t *testing.T) { storetest.Profiles(t, openPostgresTemp(t)) }

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

// BenchmarkPostgresProfiles is BenchmarkProfiles on PostgreSQL.
func BenchmarkProfiles(b *testing.B) {
	b.Run("postgres", func(b *testing.B) {
		s, err := Open(ctx, pgtest.Start(b), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storetest.BenchProfiles(b, s)
	})
}
