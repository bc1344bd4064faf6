// Package ops is what the server does for its operators rather than its
// players (docs/OPERATING.md): the retention of saved games (a job that
// deletes those past their time), the health of the store (a probe,
// cached, that readiness answers by) and the Prometheus metrics. It
// knows no live games: the server tells it, through functions, how many
// are live and which it deletes, and it reaches the store through the
// narrow interfaces each part names.
//
//	m := ops.NewMetrics(ops.Gauges{Live: liveCount, Sockets: caps.Count, Queued: pool.Queued, Busy: pool.Busy})
//	http.Handle("/api/", m.Instrument("api", h))
//
// Other operators' jobs go here too (a backup, the sweeps of the tables
// tournaments, puzzles or notifications keep), each a function the
// server runs in the background with Every; a domain's own metrics are
// registered by the domain on the registry Metrics gives.
//
// # Locks
//
// Probe's lock is a leaf, held across the store's probe and only by
// health checks; nothing else here holds a lock.
package ops

import (
	"context"
	"time"
)

// Every calls f first after first, then every every, until ctx is done.
func Every(ctx context.Context, first, every time.Duration, f func()) {
	wait := first
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		f()
		wait = every
	}
}
