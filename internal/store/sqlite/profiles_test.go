package sqlite

import (
	"oanquan/internal/store/storetest"
	"testing"
)

func TestSQLiteProfiles(t *testing.T) { storetest.Profiles(t, openSQLiteTemp(t)) }

// TestSQLiteMigrateFromV9: a game finished at schema v9 has no result
// after migrating and is listed to be worked out; its result can then be
// recorded, and its players' phrases counted (v11).
func TestSQLiteMigrateFromV9(t *testing.T) {
	storetest.CheckMigratedV9(t, migratedSQLite(t, 9, func(old *DB) {
		storetest.MustAccount(t, old, "a1", "Nam")
		g := storetest.Sample("old")
		g.Mode, g.Accounts = "online", [2]string{"a1", ""}
		storetest.MustCreate(t, old, g)
		execOld(t, old, `UPDATE games SET finished = updated WHERE id = 'old'`)
	}))
}

// BenchmarkProfiles reads what a profile shows of a player with 1,000
// games (600 of them rated, ended, in the history) among 2,000: its
// results, its rating history (the last 500) and a page of its games.
//
//	go test -run '^$' -bench Profiles -benchtime 2s ./internal/store/...
func BenchmarkProfiles(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		s, err := Open(ctx, b.TempDir()+"/bench.db", nil)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storetest.BenchProfiles(b, s)
	})
}
