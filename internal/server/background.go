package server

import (
	"context"
	"net/http"
	"time"

	"oanquan/ai"
	"oanquan/internal/match"
	"oanquan/internal/store"
	"oanquan/rules"
)

// resumeEvery is how often the server looks for saved games that wait for
// the computer with nobody playing its moves: after a restart, or when
// another server that held them has gone.
const resumeEvery = leaseTTL / 2

// resumeBatch bounds how many waiting games one look brings back.
const resumeBatch = 500

// engine returns the computer player of game id: the pool's, behind the
// game's lease, so that of several servers sharing a store only one
// searches for a game.
func (s *Server) engine(id string) match.Engine {
	return leasedEngine{s: s, id: id, next: s.pool.Engine(id)}
}

type leasedEngine struct {
	s    *Server
	id   string
	next match.Engine
}

// Search takes (or renews) the game's lease, then searches.
func (e leasedEngine) Search(ctx context.Context, pos rules.Position, lim ai.Limits) (ai.Result, error) {
	ok, err := e.s.store.Lease(ctx, e.id, e.s.cfg.ID, leaseTTL)
	if err != nil {
		e.s.log.Error("taking a game's lease", "id", e.id, "err", err)
		return ai.Result{}, match.ErrElsewhere // the resume loop tries again
	}
	if !ok {
		return ai.Result{}, match.ErrElsewhere
	}
	return e.next.Search(ctx, pos, lim)
}

// Hints need no lease: they change nothing.
func (e leasedEngine) Hints(ctx context.Context, pos rules.Position, lim ai.Limits) ([]ai.Hint, error) {
	return e.next.Hints(ctx, pos, lim)
}

// resumeLoop brings back, now and then, the saved games that wait for the
// computer's move, so that it plays them without anyone asking: at once
// when the server starts, then every resumeEvery.
func (s *Server) resumeLoop() {
	t := time.NewTicker(resumeEvery)
	defer t.Stop()
	for {
		s.resume()
		s.limits.Sweep(time.Now().Add(-10 * time.Minute))
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// resume makes live the games waiting for the computer, and has it think
// in those that are live already but idle (their lease was elsewhere).
func (s *Server) resume() {
	ctx, cancel := context.WithTimeout(s.ctx, saveTimeout)
	defer cancel()
	ids, err := s.store.Waiting(ctx, resumeBatch)
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Error("looking for games waiting for the computer", "err", err)
		}
		return
	}
	for _, id := range ids {
		if g := s.liveGame(id); g != nil {
			g.m.Resume()
			continue
		}
		if _, err := s.game(ctx, id); err != nil && s.ctx.Err() == nil {
			s.log.Error("bringing back a game waiting for the computer", "id", id, "err", err)
		}
	}
}

// follow re-reads the live games other servers change, as the store's
// notices tell of them, and who is connected to them through the other
// servers, until the server closes.
func (s *Server) follow(notices <-chan store.Notice) {
	for n := range notices {
		switch {
		case n.Phrase != "":
			s.heardPhrase(n)
		case n.Lobby:
			if n.Seek != "" {
				s.lobby.Heard(n.Seek)
			}
			s.lobby.Changed()
		case n.Game == "":
			s.lobby.Changed()
			// Notices may have been lost: re-read every live game.
			for _, g := range s.liveGames() {
				s.resync(g.m.ID())
				s.presence.read(g)
			}
		case n.Presence:
			if g := s.liveGame(n.Game); g != nil {
				s.presence.read(g)
			}
		default:
			s.resync(n.Game)
		}
	}
}

// health answers 200 while the server can serve games: it is not
// shutting down and its store takes changes (a probe, cached for
// ops.HealthTTL); otherwise 503 unavailable with the reason and Retry-After.
// For load balancers, as readiness: /api/health and /api/health/ready.
func (s *Server) health(w http.ResponseWriter, r *http.Request) error {
	if s.ctx.Err() != nil {
		return errClosed
	}
	if err := s.probe.Check(r.Context(), s.store, s.log); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "live": len(s.liveGames()), "queued": s.pool.Queued()})
	return nil
}

// liveness answers 200 while the process serves requests, whatever its
// store: for the load balancer's liveness check (restart it if this
// fails), at /api/health/live.
func (s *Server) liveness(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
	return nil
}
