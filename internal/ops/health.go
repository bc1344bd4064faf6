package ops

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"oanquan/internal/store"
	"oanquan/internal/store/stores"
)

// HealthTTL is how long the result of a store's probe is reused: load
// balancers may ask every second, a probe is a commit.
const HealthTTL = 3 * time.Second

// Probe caches the store's probe (store.Prober), which readiness answers
// by. Its lock is held across the probe, so that one probe runs at a
// time and the health checks that arrive meanwhile take its result;
// nothing else takes it. Make one with NewProbe.
type Probe struct {
	TTL time.Duration // how long a result is reused: HealthTTL; tests shorten it
	// refuse makes the refusal that says why the store cannot take
	// changes.
	refuse func(reason string) error
	mu     sync.Mutex
	at     time.Time // when the last probe ended
	err    error     // its refusal (unavailable), or nil
	seen   bool      // a probe has run
	// stale is set by Forget, without the lock (a request must not wait
	// for a probe under way): the next check probes again.
	stale atomic.Bool
}

// NewProbe returns a probe whose results last HealthTTL, refusing with
// refuse(reason) while the store cannot take changes.
func NewProbe(refuse func(reason string) error) *Probe {
	return &Probe{TTL: HealthTTL, refuse: refuse}
}

// Forget drops the last probe's result, so that the next check probes:
// a request has just found the store unavailable.
func (p *Probe) Forget() { p.stale.Store(true) }

// Check returns the store's state as last probed, probing again if that
// was longer than TTL ago: nil, or a refusal saying why it cannot take
// changes. A failure is logged once, when it starts. A store with no
// probe is always well.
func (p *Probe) Check(ctx context.Context, st any, log *slog.Logger) error {
	pr, ok := st.(store.Prober)
	if !ok {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stale.Swap(false) {
		p.seen = false
	}
	if p.seen && time.Since(p.at) < p.TTL {
		return p.err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	err := pr.Probe(ctx)
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return err // the client left: no news of the store
	}
	var refusal error
	if err != nil {
		reason, ok := stores.Unavailable(err)
		switch {
		case ok:
		case errors.Is(err, context.DeadlineExceeded):
			reason = "the store did not answer in time"
		default:
			reason = "it failed"
		}
		refusal = p.refuse(reason)
		if p.err == nil {
			log.Error("store unavailable: the health check cannot write", "err", err)
		}
	} else if p.err != nil {
		log.Info("store available again")
	}
	p.at, p.err, p.seen = time.Now(), refusal, true
	return refusal
}
