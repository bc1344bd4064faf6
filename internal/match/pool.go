package match

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"oanquan/ai"
	"oanquan/rules"
)

// Pool runs the computer's searches and the hints of many games on a
// fixed number of workers, so that the CPU and memory they take do not
// grow with the number of games. Each worker has its own transposition
// table, kept from search to search (it clears itself when a search
// brings other rules). Jobs are queued per game and the workers take the
// games in turn, one job each: a game asking for many hints waits behind
// its own requests, not in front of other games'.
//
// Create one with NewPool and give each match its Engine(id). Close it
// after the matches. It is safe for concurrent use.
type Pool struct {
	next Engine

	mu     sync.Mutex
	wake   *sync.Cond
	queues map[string][]*job // pending jobs by game
	order  []string          // games with pending jobs, in turn order
	later  []*job            // background jobs (reviews), taken when no game waits
	closed bool
	wg     sync.WaitGroup
	busy   atomic.Int32 // workers running a job
}

type job struct {
	ctx  context.Context
	run  func(ctx context.Context, t *ai.Table)
	done chan struct{}
}

// NewPool starts workers goroutines (0: one per core) that search with
// next (nil: package ai).
//
// A worker keeps a scheduler processor (a P) busy for its whole search.
// With as many workers as processors, the goroutines that answer
// requests wait for one: the network is then polled only by the
// runtime's monitor, every 10 ms or so, and a move that needs a few
// wake-ups takes tens of milliseconds. So a server should run with one
// processor more than it has workers (cmd/oanquan sets GOMAXPROCS to the
// cores plus one): the kernel shares the cores, and the thread that
// serves requests, asleep most of the time, gets one as soon as it wakes
// — all the sooner as the workers' threads run at a lower priority
// (nice 10 on Linux).
func NewPool(workers int, next Engine) *Pool {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	if next == nil {
		next = AIEngine{}
	}
	p := &Pool{next: next, queues: make(map[string][]*job)}
	p.wake = sync.NewCond(&p.mu)
	for range workers {
		p.wg.Add(1)
		go p.work()
	}
	return p
}

// Close stops the workers once the jobs queued are done (jobs whose
// context is done are skipped). Jobs queued after Close fail.
func (p *Pool) Close() {
	p.shut()
	p.wg.Wait()
}

// shut marks the pool closed and wakes the idle workers, to end.
func (p *Pool) shut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.wake.Broadcast()
}

// Queued returns how many jobs wait for a worker.
func (p *Pool) Queued() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.later)
	for _, q := range p.queues {
		n += len(q)
	}
	return n
}

// Busy returns how many workers are running a job now.
func (p *Pool) Busy() int { return int(p.busy.Load()) }

// work runs jobs until the pool closes, on a thread of its own with a
// lower priority than the threads that serve requests (the thread ends
// with the worker: it is never unlocked).
func (p *Pool) work() {
	defer p.wg.Done()
	runtime.LockOSThread()
	lowerPriority()
	var table ai.Table
	for {
		j := p.take()
		if j == nil {
			return
		}
		if j.ctx.Err() == nil {
			p.busy.Add(1)
			j.run(j.ctx, &table)
			p.busy.Add(-1)
		}
		close(j.done)
	}
}

// take waits for a job and returns it: the first of the game whose turn
// it is, which then goes to the back of the line if it has more; only
// when no game waits, the oldest background job. It returns nil once the
// pool is closed and nothing is queued.
func (p *Pool) take() *job {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.order) == 0 && len(p.later) == 0 {
		if p.closed {
			return nil
		}
		p.wake.Wait()
	}
	if len(p.order) == 0 {
		j := p.later[0]
		p.later = p.later[1:]
		return j
	}
	id := p.order[0]
	p.order = p.order[1:]
	q := p.queues[id]
	j := q[0]
	if len(q) == 1 {
		delete(p.queues, id)
	} else {
		p.queues[id] = q[1:]
		p.order = append(p.order, id)
	}
	return j
}

// do queues run for game id and waits until it has run or ctx is done.
func (p *Pool) do(ctx context.Context, id string, run func(ctx context.Context, t *ai.Table)) error {
	return p.wait(ctx, run, func(j *job) {
		if _, ok := p.queues[id]; !ok {
			p.order = append(p.order, id)
		}
		p.queues[id] = append(p.queues[id], j)
	})
}

// background queues run as background work, taken only when no game
// waits, and waits until it has run or ctx is done.
func (p *Pool) background(ctx context.Context, run func(ctx context.Context, t *ai.Table)) error {
	return p.wait(ctx, run, func(j *job) { p.later = append(p.later, j) })
}

// wait makes a job of run, queues it with queue (under the pool's lock)
// and waits until it has run or ctx is done.
func (p *Pool) wait(ctx context.Context, run func(ctx context.Context, t *ai.Table), queue func(*job)) error {
	j := &job{ctx: ctx, run: run, done: make(chan struct{})}
	if err := p.enqueue(j, queue); err != nil {
		return err
	}
	select {
	case <-j.done:
		return ctx.Err()
	case <-ctx.Done():
		return ctx.Err() // the worker will skip it, or the search ends soon
	}
}

// enqueue queues j with queue and wakes a worker, unless the pool is
// closed.
func (p *Pool) enqueue(j *job, queue func(*job)) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return refuse(ErrClosed, "the server is shutting down")
	}
	queue(j)
	p.wake.Signal()
	return nil
}

// Engine returns the Engine for game id: it runs the searches of next on
// the pool's workers, one thread each, with the worker's table.
func (p *Pool) Engine(id string) Engine { return poolEngine{p, id} }

type poolEngine struct {
	p  *Pool
	id string
}

// Search runs on a worker.
func (e poolEngine) Search(ctx context.Context, pos rules.Position, lim ai.Limits) (ai.Result, error) {
	var res ai.Result
	var err error
	perr := e.p.do(ctx, e.id, func(ctx context.Context, t *ai.Table) {
		lim.Threads = 1
		if lim.Level == ai.Hard {
			lim.Table = t
		}
		res, err = e.p.next.Search(ctx, pos, lim)
	})
	if perr != nil {
		return ai.Result{}, perr
	}
	return res, err
}

// Hints runs on a worker.
func (e poolEngine) Hints(ctx context.Context, pos rules.Position, lim ai.Limits) ([]ai.Hint, error) {
	var hs []ai.Hint
	var err error
	perr := e.p.do(ctx, e.id, func(ctx context.Context, t *ai.Table) {
		lim.Threads = 1
		lim.Table = t
		hs, err = e.p.next.Hints(ctx, pos, lim)
	})
	if perr != nil {
		return nil, perr
	}
	return hs, err
}

// Review reviews the move m played in the last position of history (the
// game's positions from its start) on a worker, with the worker's table
// (ai.ReviewMove). It is background work: a worker takes it only when no
// game waits for a search or a hint, so a review holds up a live game for
// at most the one position being reviewed (lim.MoveTime).
func (p *Pool) Review(ctx context.Context, r rules.Rules, history []rules.Position, m rules.Move, lim ai.ReviewLimits) (ai.MoveReview, error) {
	var mr ai.MoveReview
	var err error
	perr := p.background(ctx, func(ctx context.Context, t *ai.Table) {
		lim.Threads = 1
		lim.Table = t
		mr, err = ai.ReviewMove(ctx, r, history, m, lim)
	})
	if perr != nil {
		return ai.MoveReview{}, perr
	}
	return mr, err
}
