package postgres

import (
	"os"
	"testing"

	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/storetest"
)

// BenchmarkAppend is BenchmarkAppend on PostgreSQL.
func BenchmarkAppend(b *testing.B) {
	b.Run("postgres", func(b *testing.B) {
		s, err := Open(ctx, pgtest.Start(b)+os.Getenv("BENCH_PG_PARAMS"), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storetest.BenchAppend(b, s)
	})
}

// BenchmarkProfiles is BenchmarkProfiles on PostgreSQL.
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
