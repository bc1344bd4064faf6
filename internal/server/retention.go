package server

import (
	"time"

	"oanquan/internal/match"
	"oanquan/internal/ops"
)

// Retention is how long saved games are kept after their last change
// (package ops).
type Retention = ops.Retention

// DefaultRetention is the zero Retention's (ops.DefaultRetention).
var DefaultRetention = ops.DefaultRetention

// Retention's background job and the other sweeps: every retentionEvery,
// expireBatch at a time (package ops).
const (
	retentionEvery = ops.RetentionEvery
	expireBatch    = ops.ExpireBatch
)

// retentionLoop deletes the games past their time, a minute after the
// server starts (not to slow its start) and then every retentionEvery.
func (s *Server) retentionLoop() {
	ops.Every(s.ctx, time.Minute, retentionEvery, func() { s.expire() })
}

// expire deletes the games due now and returns how many (ops.Expire). A
// game deleted that is live here (kept in memory longer than its time,
// with --idle 0) is closed.
func (s *Server) expire() int {
	return ops.Expire(s.ctx, s.store, s.cfg.Retention, s.log, func(ids []string) {
		for _, m := range s.takeLive(ids) {
			m.Close()
		}
	})
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
