package storetest

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"oanquan/internal/store"
)

// BenchGames is the number of games played at once in BenchmarkAppend,
// each by its own goroutine: the server's target load.
const BenchGames = 1000

// BenchAppend appends moves to many games at once, one goroutine a game,
// and reports appends a second (BenchmarkAppend of each store).
func BenchAppend(b *testing.B, s store.Store) {
	for i := range BenchGames {
		if err := s.Create(ctx, store.Game{ID: fmt.Sprint(i), Mode: "local", Level: "easy", Start: "s"}); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	b.SetParallelism(max(1, BenchGames/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprint(next.Add(1) - 1)
		for i := 0; pb.Next(); i++ {
			if err := s.Append(ctx, id, i, "1R", store.Idle); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
}
