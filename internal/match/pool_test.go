package match

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"oanquan/ai"
	"oanquan/rules"
)

// TestPoolBounded: however many games ask at once, no more jobs run at
// a time than there are workers, and every job runs.
func TestPoolBounded(t *testing.T) {
	p := NewPool(2, first{})
	defer p.Close()
	var running, most, ran atomic.Int32
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			err := p.do(context.Background(), fmt.Sprint("game", i%10), func(context.Context, *ai.Table) {
				n := running.Add(1)
				for {
					m := most.Load()
					if n <= m || most.CompareAndSwap(m, n) {
						break
					}
				}
				time.Sleep(time.Millisecond)
				running.Add(-1)
				ran.Add(1)
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if most.Load() != 2 || ran.Load() != 40 {
		t.Errorf("at most %d jobs at once, %d ran; want 2 at once and all 40", most.Load(), ran.Load())
	}
}

// TestPoolFair: a game that queued many jobs does not hold up the others:
// the games take turns.
func TestPoolFair(t *testing.T) {
	p := NewPool(1, first{})
	defer p.Close()
	hold := make(chan struct{})
	started := make(chan struct{})
	var mu sync.Mutex
	var order []string
	job := func(name string) func(context.Context, *ai.Table) {
		return func(context.Context, *ai.Table) {
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		p.do(context.Background(), "busy", func(context.Context, *ai.Table) { close(started); <-hold })
	})
	<-started
	// While the worker is busy, "busy" queues three more jobs, then
	// "other" one.
	for i := range 3 {
		wg.Go(func() { p.do(context.Background(), "busy", job(fmt.Sprint("busy", i))) })
		waitQueued(t, p, i+1)
	}
	wg.Go(func() { p.do(context.Background(), "other", job("other")) })
	waitQueued(t, p, 4)
	close(hold)
	wg.Wait()
	if len(order) != 4 || order[1] != "other" {
		t.Errorf("jobs ran in the order %v, want other second", order)
	}
}

// TestPoolBackgroundLast: a review queued before a game's search runs
// after it: background work waits while any game waits. The review
// itself is ai.ReviewMove's, on a worker.
func TestPoolBackgroundLast(t *testing.T) {
	p := NewPool(1, first{})
	defer p.Close()
	release, wg := occupy(p)
	var mu sync.Mutex
	var order []string
	r := rules.Rules{}
	start := r.Start()
	var review ai.MoveReview
	var reviewErr error
	wg.Go(func() {
		review, reviewErr = p.Review(context.Background(), r, []rules.Position{start}, start.LegalMoves(nil)[0], ai.ReviewLimits{Depth: 2})
		mu.Lock()
		order = append(order, "review")
		mu.Unlock()
	})
	waitQueued(t, p, 1)
	wg.Go(func() {
		p.do(context.Background(), "game", func(context.Context, *ai.Table) {
			mu.Lock()
			order = append(order, "game")
			mu.Unlock()
		})
	})
	waitQueued(t, p, 2)
	release()
	wg.Wait()
	if !slices.Equal(order, []string{"game", "review"}) {
		t.Errorf("jobs ran in the order %v, want the game's before the review", order)
	}
	if reviewErr != nil || review.Depth == 0 || review.Move != start.LegalMoves(nil)[0] {
		t.Errorf("review %+v, %v: want the first move reviewed to depth 2", review, reviewErr)
	}
}

// occupy gives p's only worker a job that holds it until release is
// called.
func occupy(p *Pool) (release func(), wg *sync.WaitGroup) {
	hold := make(chan struct{})
	started := make(chan struct{})
	wg = new(sync.WaitGroup)
	wg.Go(func() {
		p.do(context.Background(), "busy", func(context.Context, *ai.Table) { close(started); <-hold })
	})
	<-started
	return func() { close(hold) }, wg
}

func waitQueued(t *testing.T, p *Pool, n int) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for p.Queued() != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d jobs queued, want %d", p.Queued(), n)
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// TestPoolCanceled: a job whose context ends while it waits returns at
// once and never runs.
func TestPoolCanceled(t *testing.T) {
	p := NewPool(1, first{})
	defer p.Close()
	hold, started := make(chan struct{}), make(chan struct{})
	go p.do(context.Background(), "a", func(context.Context, *ai.Table) { close(started); <-hold })
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	var ran atomic.Bool
	go func() { done <- p.do(ctx, "b", func(context.Context, *ai.Table) { ran.Store(true) }) }()
	waitQueued(t, p, 1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("canceled job: %v, want context.Canceled", err)
	}
	close(hold)
	p.Close()
	if ran.Load() {
		t.Error("a canceled job ran")
	}
}

// TestPoolEngine: searches through the pool use one thread and, at Hard
// and for hints, the worker's table, the same from one search to the
// next.
func TestPoolEngine(t *testing.T) {
	var seen []ai.Limits
	var mu sync.Mutex
	rec := recorder{f: func(lim ai.Limits) { mu.Lock(); seen = append(seen, lim); mu.Unlock() }}
	p := NewPool(1, rec)
	defer p.Close()
	e := p.Engine("g")
	pos := rules.Rules{}.Start()
	e.Search(context.Background(), pos, ai.Limits{Level: ai.Hard, Threads: 2})
	e.Hints(context.Background(), pos, ai.Limits{Level: ai.Hard})
	e.Search(context.Background(), pos, ai.Limits{Level: ai.Easy})
	if len(seen) != 3 {
		t.Fatalf("%d searches, want 3", len(seen))
	}
	if seen[0].Threads != 1 || seen[0].Table == nil || seen[1].Table != seen[0].Table {
		t.Errorf("Hard and hints searched with threads %d, tables %p and %p; want 1 thread, one worker table", seen[0].Threads, seen[0].Table, seen[1].Table)
	}
	if seen[2].Table != nil {
		t.Error("Easy searched with a table")
	}
}

type recorder struct {
	first
	f func(ai.Limits)
}

func (r recorder) Search(ctx context.Context, pos rules.Position, lim ai.Limits) (ai.Result, error) {
	r.f(lim)
	return r.first.Search(ctx, pos, lim)
}

func (r recorder) Hints(ctx context.Context, pos rules.Position, lim ai.Limits) ([]ai.Hint, error) {
	r.f(lim)
	return r.first.Hints(ctx, pos, lim)
}
