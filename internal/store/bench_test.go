package store

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"

	"oanquan/internal/store/pgtest"
)

// benchGames is the number of games played at once in BenchmarkAppend,
// each by its own goroutine: the server's target load.
const benchGames = 1000

// BenchmarkAppend appends moves to benchGames games at once, one
// goroutine a game, and reports appends a second. sqlite/group is the
// store as shipped; sqlite/single commits each change in a transaction
// of its own (no group commit), for comparison. postgres runs on
// pgtest's server, which has fsync off; BENCH_PG_PARAMS is added to its
// URL (e.g. "&pool_max_conns=16").
//
//	go test -run '^$' -bench Append -benchtime 2s ./internal/store
func BenchmarkAppend(b *testing.B) {
	b.Run("memory", func(b *testing.B) { benchAppend(b, NewMemory()) })
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
			benchAppend(b, s)
		})
	}
	b.Run("postgres", func(b *testing.B) {
		s, err := OpenPostgres(ctx, pgtest.Start(b)+os.Getenv("BENCH_PG_PARAMS"), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		benchAppend(b, s)
	})
}

func benchAppend(b *testing.B, s Store) {
	for i := range benchGames {
		if err := s.Create(ctx, Game{ID: fmt.Sprint(i), Mode: "local", Level: "easy", Start: "s"}); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	b.SetParallelism(max(1, benchGames/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprint(next.Add(1) - 1)
		for i := 0; pb.Next(); i++ {
			if err := s.Append(ctx, id, i, "1R", Idle); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
}

// BenchmarkGet reads games of 40 moves from many goroutines at once
// (SQLite's read pool).
func BenchmarkGet(b *testing.B) {
	s, err := OpenSQLite(ctx, filepath.Join(b.TempDir(), "bench.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	moves := make([]string, 40)
	for i := range moves {
		moves[i] = "1R"
	}
	for i := range benchGames {
		if err := s.Create(ctx, Game{ID: fmt.Sprint(i), Mode: "local", Level: "easy", Start: "s", Moves: moves}); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Get(ctx, fmt.Sprint(next.Add(1)%benchGames)); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
