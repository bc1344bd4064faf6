package ops

import (
	"context"
	"log/slog"
	"time"

	"oanquan/internal/store"
)

// Retention is how long saved games are kept after their last change
// (docs/OPERATING.md, "Retention"): a background job deletes those past
// it. For each, 0 is the default (DefaultRetention's) and a negative
// duration keeps them for ever.
type Retention struct {
	Invitations time.Duration // online games whose free seat nobody took and where nobody moved
	Unfinished  time.Duration // games not over: abandoned
	Finished    time.Duration // games over, by the rules or their players (counted from the end)
}

// DefaultRetention keeps a public server's storage bounded: at the rate
// limit, 200 addresses make 7,800 games in 20 s.
var DefaultRetention = Retention{
	Invitations: 7 * 24 * time.Hour,
	Unfinished:  30 * 24 * time.Hour,
	Finished:    365 * 24 * time.Hour,
}

// OrDefault returns r with DefaultRetention's durations for its zero
// ones.
func (r Retention) OrDefault() Retention {
	pick := func(d, def time.Duration) time.Duration {
		if d == 0 {
			return def
		}
		return d
	}
	return Retention{pick(r.Invitations, DefaultRetention.Invitations), pick(r.Unfinished, DefaultRetention.Unfinished), pick(r.Finished, DefaultRetention.Finished)}
}

// Expiry returns the store's Expiry of r at now, ExpireBatch games at a
// time.
func (r Retention) Expiry(now time.Time) store.Expiry {
	cutoff := func(d time.Duration) time.Time {
		if d < 0 {
			return time.Time{} // for ever
		}
		return now.Add(-d)
	}
	return store.Expiry{Invitations: cutoff(r.Invitations), Unfinished: cutoff(r.Unfinished), Finished: cutoff(r.Finished), Limit: ExpireBatch}
}

// Retention's background job: every RetentionEvery, it deletes the games
// due, ExpireBatch at a time (a short transaction each), until none is
// left. The other tables' sweeps (sessions, buckets) run as often and
// delete as many at a time.
const (
	RetentionEvery = time.Hour
	ExpireBatch    = 500
)

// Expirer is the store's part that retention needs. Every store of
// package store has it.
type Expirer interface {
	Expire(ctx context.Context, e store.Expiry) ([]string, error)
}

var _ Expirer = store.Store(nil)

// Expire deletes the games of st due now under r (OrDefault) and
// returns how many; deleted is told of each batch of ids deleted (the
// server closes those live). Several servers may run it at once
// (store.Expire). Failures are logged to log; the next run tries again.
func Expire(ctx context.Context, st Expirer, r Retention, log *slog.Logger, deleted func(ids []string)) int {
	r = r.OrDefault()
	total := 0
	for ctx.Err() == nil {
		ids, err := st.Expire(ctx, r.Expiry(time.Now()))
		if err != nil {
			if ctx.Err() == nil {
				log.Error("deleting old games", "err", err)
			}
			break
		}
		deleted(ids)
		total += len(ids)
		if len(ids) < ExpireBatch {
			break
		}
	}
	if total > 0 {
		log.Info("deleted games past their time", "games", total)
	}
	return total
}
