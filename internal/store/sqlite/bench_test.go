package sqlite

import (
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
)

// BenchmarkAppend appends moves to benchGames games at once, one
// goroutine a game, and reports appends a second. sqlite/group is the
// store as shipped; sqlite/single commits each change in a transaction
// of its own (no group commit), for comparison. postgres runs on
// pgtest's server, which has fsync off; BENCH_PG_PARAMS is added to its
// URL (e.g. "&pool_max_conns=16").
//
//	go test -run '^$' -bench Append -benchtime 2s ./internal/store/...
func BenchmarkAppend(b *testing.B) {
	for _, c := range []struct {
		name     string
		maxBatch int
	}{{"sqlite/group", sqliteMaxBatch}, {"sqlite/single", 1}} {
		b.Run(c.name, func(b *testing.B) {
			s, err := openSQLite(ctx, filepath.Join(b.TempDir(), "bench.db"), len(sqliteMigrations), c.maxBatch, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			storetest.BenchAppend(b, s)
		})
	}
}

// BenchmarkGet reads games of 40 moves from many goroutines at once
// (SQLite's read pool).
func BenchmarkGet(b *testing.B) {
	s, err := Open(ctx, filepath.Join(b.TempDir(), "bench.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	moves := make([]string, 40)
	for i := range moves {
		moves[i] = "1R"
	}
	for i := range storetest.BenchGames {
		if err := s.Create(ctx, store.Game{ID: fmt.Sprint(i), Mode: "local", Level: "easy", Start: "s", Moves: moves}); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Get(ctx, fmt.Sprint(next.Add(1)%storetest.BenchGames)); err != nil {
				b.Error(err)
				return
			}
		}
	})
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
