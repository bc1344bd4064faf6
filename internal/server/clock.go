package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"oanquan/internal/match"
	"oanquan/internal/store"
)

// Clocks (docs/OPERATING.md, "Clocks"): the server is the only
// timekeeper. A clocked game's clock is saved with each move; its match
// keeps a timer at the next deadline, and when it fires the server takes
// the game's lease and flags it (onDue), so that of several servers
// holding the game live one flags it. Every server also sweeps the store
// for clocked games past their deadline whose lease has run out — their
// server has gone — and flags them (sweep).

// Clocks is how the server keeps time; the zero value is the defaults.
type Clocks struct {
	// FirstMove is the limit of each side's first move in real time; 0:
	// match.DefaultFirstMove (30 s).
	FirstMove time.Duration
	// ClaimAfter is how long a real-time player must have had no
	// connection before the other may claim the game; 0:
	// match.DefaultClaimAfter (30 s).
	ClaimAfter time.Duration
	// Lag is the allowance for network lag given to each move, at most
	// match.MaxLag; 0: DefaultLag, negative: none.
	Lag time.Duration
	// SweepEvery is how often the server looks for clocked games past
	// their deadline whose server has gone; 0: DefaultSweepEvery.
	SweepEvery time.Duration
}

// The defaults of Clocks.
const (
	DefaultLag        = 200 * time.Millisecond
	DefaultSweepEvery = 5 * time.Second
)

// sweepBatch bounds how many overdue games one sweep takes.
const sweepBatch = 200

// timing returns the match's Timing of the server's clocks: time before
// the server started is not charged (the outage rule).
func (c Clocks) timing(started time.Time) match.Timing {
	lag := c.Lag
	switch {
	case lag == 0:
		lag = DefaultLag
	case lag < 0:
		lag = 0
	}
	return match.Timing{FirstMove: c.FirstMove, ClaimAfter: c.ClaimAfter, Lag: lag, Since: started}
}

// onDue is every clocked match's OnDue: its timer fired. If a flag is
// due, the server flags the game if it can take its lease; if another
// server holds it, that one flags it (or, if it has gone, a sweep does
// once its lease runs out). Otherwise (a claim became possible) it tells
// the players, with no store write.
func (s *Server) onDue(m *match.Match) {
	if s.ctx.Err() != nil {
		return
	}
	if !m.FlagDue() {
		m.RefreshClaims()
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, saveTimeout)
	defer cancel()
	ok, err := s.store.Lease(ctx, m.ID(), s.cfg.ID, leaseTTL)
	if err != nil {
		s.log.Error("taking a clocked game's lease", "id", m.ID(), "err", err)
		return
	}
	if !ok {
		return
	}
	ended, err := m.Tick()
	if err != nil && s.isLive(m) {
		// This copy is behind the store (the game changed through
		// another server that sent no notice, or a request): read it
		// again and try once more.
		s.resync(m.ID())
		ended, err = m.Tick()
	}
	if err != nil {
		// Still refused, or a copy that is not the live one: Tick has
		// armed its timer at a deadline already past, so it would fire
		// again at once, for ever. Drop it; the game stays saved, and
		// the sweep flags it from the store if it is still overdue.
		s.log.Error("flagging a game", "id", m.ID(), "err", err)
		s.dropLive(m)
		return
	}
	if ended {
		s.log.Info("game ended on time", "id", m.ID())
	}
}

// isLive reports whether m is the live copy of its game here.
func (s *Server) isLive(m *match.Match) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.live[m.ID()]
	return g != nil && g.m == m
}

// sweepLoop sweeps now and then until the server closes.
func (s *Server) sweepLoop() {
	every := s.cfg.Clocks.SweepEvery
	if every <= 0 {
		every = DefaultSweepEvery
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			s.sweep()
		}
	}
}

// sweep flags the clocked games past their deadline whose lease has run
// out: it makes them live here and calls onDue.
func (s *Server) sweep() {
	ctx, cancel := context.WithTimeout(s.ctx, saveTimeout)
	defer cancel()
	ids, err := s.store.Overdue(ctx, time.Now(), sweepBatch)
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Error("looking for overdue clocked games", "err", err)
		}
		return
	}
	for _, id := range ids {
		g, err := s.game(ctx, id)
		if err != nil {
			if s.ctx.Err() == nil {
				s.log.Error("bringing back an overdue clocked game", "id", id, "err", err)
			}
			continue
		}
		s.resync(id) // it may have changed since it was made live here
		s.onDue(g.m)
	}
}

// savedClock is a clocked game's clock as the server saves it
// (store.Clock.State): its time control and its clock, in nanoseconds.
type savedClock struct {
	Initial   time.Duration    `json:"initial,omitempty"`
	Increment time.Duration    `json:"increment,omitempty"`
	Days      int              `json:"days,omitempty"`
	Remaining [2]time.Duration `json:"remaining"`
	Start     int64            `json:"start,omitempty"` // Unix nanoseconds; 0: not ready
}

// clockText returns the saved form of a game's clock: the zero
// store.Clock for a game without one. A clocked game not yet ready (c
// nil: a friend's seat still open) is saved with its new clock, so that
// whichever server reads it next, before or after the join, knows its
// time control (issue 36: a server that read it without one played it
// unclocked and saved its moves without their clocks).
func clockText(tc *match.TimeControl, c *match.Clock, deadline time.Time) store.Clock {
	if tc == nil {
		return store.Clock{}
	}
	if c == nil {
		fresh := match.NewClock(*tc)
		c = &fresh
	}
	sc := savedClock{Initial: tc.Initial, Increment: tc.Increment, Days: tc.Days, Remaining: c.Remaining}
	if !c.Start.IsZero() {
		sc.Start = c.Start.UnixNano()
	}
	data, err := json.Marshal(sc)
	if err != nil {
		panic(err) // plain data always marshals
	}
	return store.Clock{State: string(data), Deadline: deadline}
}

// moveClockText is how the clock after a move is saved with it
// (store.Clock.Move): each side's time left and the time the move took,
// in milliseconds, "MS,MS,USED" (moves saved before the time taken was
// kept have "MS,MS").
func moveClockText(left [2]time.Duration, used time.Duration) string {
	return strconv.FormatInt(left[0].Milliseconds(), 10) + "," + strconv.FormatInt(left[1].Milliseconds(), 10) + "," + strconv.FormatInt(used.Milliseconds(), 10)
}

// loadedClock is a saved game's clock as clockOf reads it.
type loadedClock struct {
	tc    *match.TimeControl // nil: the game has no clock
	clock *match.Clock
	after [][2]time.Duration // each side's time after each move
	used  []time.Duration    // the time each move took; -1 where not saved
	// missing counts the moves saved without their clock (issue 36: a
	// server that had read a friend's game before it was ready as one
	// without a clock saved its moves so); their clock is worked out.
	missing int
}

// clockOf reads a saved clock, and the clocks saved with the moves;
// updated is the game's last change, when its last move was saved at
// the latest. A move saved without its clock (the text "") is read as
// taking no time from either side (its time after is the one before,
// the time it took unknown); if the last moves were, the saved clock is
// theirs from before them, and the side to move's clock is taken to run
// from updated — nothing is charged for the moves whose time is not
// known, and the outage rule gives back the time no server served the
// game.
func clockOf(c store.Clock, moves []string, updated time.Time) (loadedClock, error) {
	if c.State == "" {
		return loadedClock{}, nil
	}
	var sc savedClock
	if err := json.Unmarshal([]byte(c.State), &sc); err != nil {
		return loadedClock{}, fmt.Errorf("clock: %w", err)
	}
	tc := &match.TimeControl{Initial: sc.Initial, Increment: sc.Increment, Days: sc.Days}
	lc := loadedClock{tc: tc, clock: &match.Clock{Remaining: sc.Remaining}}
	if sc.Start != 0 {
		lc.clock.Start = time.Unix(0, sc.Start)
	}
	prev := match.NewClock(*tc).Remaining
	trailing := 0 // moves at the end saved without their clock
	for i, text := range moves {
		if text == "" {
			lc.after = append(lc.after, prev)
			lc.used = append(lc.used, -1)
			lc.missing++
			trailing++
			continue
		}
		trailing = 0
		parts := strings.Split(text, ",")
		var ms [3]int64
		ms[2] = -1
		ok := len(parts) == 2 || len(parts) == 3
		for j := range parts {
			var err error
			if ok {
				ms[j], err = strconv.ParseInt(parts[j], 10, 64)
				ok = err == nil && (j < 2 || ms[j] >= 0)
			}
		}
		if !ok {
			return loadedClock{}, fmt.Errorf("the clock of move %d: %q", i, text)
		}
		prev = [2]time.Duration{time.Duration(ms[0]) * time.Millisecond, time.Duration(ms[1]) * time.Millisecond}
		lc.after = append(lc.after, prev)
		lc.used = append(lc.used, max(time.Duration(ms[2])*time.Millisecond, -1))
	}
	if trailing > 0 && !lc.clock.Start.IsZero() && updated.After(lc.clock.Start) {
		lc.clock.Start = updated
	}
	return lc, nil
}

// clockOfChange returns the saved form of a change's clock.
func clockOfChange(c match.Change) store.Clock {
	if c.Clock == nil {
		return store.Clock{}
	}
	sc := clockText(c.Control, c.Clock, c.Deadline)
	if c.Kind == match.Moved {
		sc.Move = moveClockText(c.Clock.Remaining, c.Used)
		sc.IfStatus = statusText(c.From)
	}
	return sc
}
