package server

import (
	"time"

	"oanquan/internal/match"
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

func (r Retention) orDefault() Retention {
	pick := func(d, def time.Duration) time.Duration {
		if d == 0 {
			return def
		}
		return d
	}
	return Retention{pick(r.Invitations, DefaultRetention.Invitations), pick(r.Unfinished, DefaultRetention.Unfinished), pick(r.Finished, DefaultRetention.Finished)}
}

// expiry returns the store's Expiry of r at now.
func (r Retention) expiry(now time.Time) store.Expiry {
	cutoff := func(d time.Duration) time.Time {
		if d < 0 {
			return time.Time{} // for ever
		}
		return now.Add(-d)
	}
	return store.Expiry{Invitations: cutoff(r.Invitations), Unfinished: cutoff(r.Unfinished), Finished: cutoff(r.Finished), Limit: expireBatch}
}

// Retention's background job: every retentionEvery, it deletes the games
// due, expireBatch at a time (a short transaction each), until none is
// left.
const (
	retentionEvery = time.Hour
	expireBatch    = 500
)

// retentionLoop deletes the games past their time, a minute after the
// server starts (not to slow its start) and then every retentionEvery.
func (s *Server) retentionLoop() {
	wait := time.Minute
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(wait):
		}
		s.expire()
		wait = retentionEvery
	}
}

// expire deletes the games due now and returns how many. A game deleted
// that is live here (kept in memory longer than its time, with
// --idle 0) is closed. Several servers may run it at once
// (store.Expire). Failures are logged; the next run tries again.
func (s *Server) expire() int {
	r := s.cfg.Retention.orDefault()
	total := 0
	for s.ctx.Err() == nil {
		ids, err := s.store.Expire(s.ctx, r.expiry(time.Now()))
		if err != nil {
			if s.ctx.Err() == nil {
				s.log.Error("deleting old games", "err", err)
			}
			break
		}
		for _, m := range s.takeLive(ids) {
			m.Close()
		}
		total += len(ids)
		if len(ids) < expireBatch {
			break
		}
	}
	if total > 0 {
		s.log.Info("deleted games past their time", "games", total)
	}
	return total
}

// takeLive takes the games ids out of the live games, and returns the
// matches of those that were.
func (s *Server) takeLive(ids []string) []*match.Match {
	s.mu.Lock()
	defer s.mu.Unlock()
	var taken []*match.Match
	for _, id := range ids {
		if g := s.live[id]; g != nil {
			taken = append(taken, g.m)
			s.lru.Remove(g.elem)
			delete(s.live, id)
		}
	}
	return taken
}
