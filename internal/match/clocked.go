package match

import (
	"slices"
	"time"

	"oanquan/rules"
)

// The clock of a live game (its arithmetic is clock.go's): the match
// keeps the saved Clock, charges each move, ends the game when the side
// to move runs out of time (Tick), and keeps a timer at the next instant
// something happens by the clock alone: a flag, or a player's absence
// long enough for the other to claim the game.

// The ways a clocked game ends, beside Outcome's others.
const (
	OutcomeTimeout = "timeout" // Outcome.Player ran out of time: the other wins
	OutcomeAbandon = "abandon" // Outcome.Player left a real-time game, and the other claimed it
)

// ClockState is a clocked game's clock as a State shows it.
type ClockState struct {
	Control TimeControl
	// Left is each side's time left when the state was made.
	Left [2]time.Duration
	// Running is the seat whose clock runs, or -1.
	Running int
	// FirstMove is the time left for the first move being timed (0 when
	// none is).
	FirstMove time.Duration
	// After is each side's time left after each move played, once the
	// game is over (for its replay and record); nil before.
	After [][2]time.Duration
	// Used is the time each move took (Clock.Took when it arrived), once
	// the game is over, beside After; -1 for a move saved without it.
	Used []time.Duration
	// Away is, for each seat, how long it has had no connection to the
	// game when the state was made, while that can let the other claim it
	// (a real-time game going on); -1 otherwise.
	Away [2]time.Duration
}

// clocked is a match's clock. Its fields are guarded by the match's
// mutex; the timer calls Config.OnDue without it.
type clocked struct {
	tc     TimeControl
	t      Timing
	c      Clock
	now    func() time.Time
	timer  *time.Timer
	after  [][2]time.Duration // each side's time left after each move
	used   []time.Duration    // the time each move took; -1: not known
	absent [2]time.Time       // since when each seat has had no connection; zero while it has one
	shown  [2]bool            // CanClaim as last published
}

// newClocked makes the clock of a match of cfg, nil if it has none.
func newClocked(cfg Config) *clocked {
	if cfg.Clock == nil {
		return nil
	}
	k := &clocked{tc: *cfg.Clock, t: cfg.Timing.orDefault(), now: cfg.Now}
	if k.now == nil {
		k.now = time.Now
	}
	k.c = NewClock(k.tc)
	if cfg.ClockState != nil {
		k.c = *cfg.ClockState
	}
	k.after = slices.Clone(cfg.ClockAfter)
	k.used = slices.Clone(cfg.ClockUsed)
	now := k.now()
	k.absent = [2]time.Time{now, now} // nobody connected, as far as the match knows
	return k
}

// validControl refuses a time control that is neither real time nor
// correspondence.
func validControl(tc TimeControl) error {
	if tc.Correspondence() == (tc.Initial > 0) || tc.Initial < 0 || tc.Increment < 0 || tc.Days < 0 {
		return refuse(ErrInvalid, "clock: want an initial time or days per move")
	}
	return nil
}

// ClockOf returns the clock as saved now, or nil if the game has none.
func (m *Match) ClockOf() *Clock {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.clk == nil {
		return nil
	}
	c := m.clk.c
	return &c
}

// clockStateLocked returns the clock as the state shows it, at now.
func (m *Match) clockStateLocked() *ClockState {
	k := m.clk
	if k == nil {
		return nil
	}
	moves, to := len(m.game.Moves()), m.game.Position().ToMove
	st := &ClockState{Control: k.tc, Running: -1, Away: [2]time.Duration{-1, -1}}
	if m.overLocked() {
		st.After = slices.Clone(k.after)
		st.Used = slices.Clone(k.used)
		st.Left = k.c.Remaining
		if m.status.Outcome.Kind == OutcomeTimeout {
			st.Left[m.status.Outcome.Player] = 0
		}
		return st
	}
	st.Left, st.FirstMove = k.c.Left(k.tc, k.t, moves, to, k.now())
	st.Running = k.c.Running(moves, to, false)
	for p := range rules.Player(2) {
		if !m.claimFromLocked(p).IsZero() {
			st.Away[p] = max(k.now().Sub(k.absent[p]), 0)
		}
	}
	return st
}

// clockAfterLocked returns the clock after the move of the side to move
// now, nil in a game without one, and the time the move took; if its
// time is over, it ends the game and refuses the move with ErrTimeOver.
func (m *Match) clockAfterLocked() (*Clock, time.Duration, error) {
	k := m.clk
	if k == nil {
		return nil, 0, nil
	}
	moves, to := len(m.game.Moves()), m.game.Position().ToMove
	now := k.now()
	took := k.c.Took(k.t, now)
	c, due := k.c.Played(k.tc, k.t, moves, to, now)
	if due != DueNone {
		if _, err := m.flagLocked(due); err != nil {
			return nil, 0, err
		}
		return nil, 0, refuse(ErrTimeOver, "the move came after your time ran out")
	}
	return &c, took, nil
}

// deadlineOfLocked returns when the side to move runs out of time on
// clock c, with the game as it stands (the move played): the zero time
// if nothing runs.
func (m *Match) deadlineOfLocked(c *Clock) time.Time {
	if c == nil || m.game.Over() {
		return time.Time{}
	}
	at, _ := c.Deadline(m.clk.tc, m.clk.t, len(m.game.Moves()), m.game.Position().ToMove)
	return at
}

// setClockLocked makes c the clock, once saved, and sets the timer.
func (m *Match) setClockLocked(c *Clock) {
	if c != nil && m.clk != nil {
		m.clk.c = *c
		m.armLocked()
	}
}

// flagLocked ends the game by the clock: the side to move loses on time,
// or, at a first move's limit, the game is aborted.
func (m *Match) flagLocked(due Due) (State, error) {
	st := m.statusLocked()
	st.Offer = nil
	st.Outcome = Outcome{Kind: OutcomeTimeout, Player: m.game.Position().ToMove}
	if due == DueAbort {
		st.Outcome.Kind, st.Outcome.Reason = OutcomeAbort, ReasonFirstMove
	}
	return m.commitStatusLocked(Change{Kind: StatusSet, Status: st, From: m.status, Flag: true, Index: len(m.game.Moves())})
}

// Deadline returns when the side to move runs out of time, or the zero
// time if no clock runs (none, the game not ready or over).
func (m *Match) Deadline() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	at, _ := m.deadlineLocked()
	return at
}

func (m *Match) deadlineLocked() (time.Time, Due) {
	k := m.clk
	if k == nil || m.overLocked() {
		return time.Time{}, DueNone
	}
	return k.c.Deadline(k.tc, k.t, len(m.game.Moves()), m.game.Position().ToMove)
}

// Tick does what the clock says is due now: ends the game if the side to
// move has run out of time, and tells the subscribers when a player may
// now claim the game. It reports whether the game ended. The match's
// timer calls it (through Config.OnDue) at the moment; the server also
// calls it for a game whose server has gone.
func (m *Match) Tick() (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || m.clk == nil || m.overLocked() {
		return false, nil
	}
	defer m.armLocked()
	if m.flagDueLocked() {
		_, due := m.deadlineLocked()
		_, err := m.flagLocked(due)
		return err == nil, err
	}
	if m.claimsLocked() != m.clk.shown {
		m.publishLocked()
	}
	return false, nil
}

// FlagDue reports whether the side to move has run out of time now (or
// a first move's limit has passed): whether Tick would end the game.
func (m *Match) FlagDue() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.flagDueLocked()
}

func (m *Match) flagDueLocked() bool {
	k := m.clk
	if k == nil || m.closed || m.overLocked() {
		return false
	}
	return k.c.Flagged(k.tc, k.t, len(m.game.Moves()), m.game.Position().ToMove, k.now()) != DueNone
}

// RefreshClaims tells the subscribers, with the state, when what the
// players may claim has changed with time alone; it never ends the game.
func (m *Match) RefreshClaims() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || m.clk == nil || m.overLocked() {
		return
	}
	defer m.armLocked()
	if m.claimsLocked() != m.clk.shown {
		m.publishLocked()
	}
}

// armLocked sets the timer to the next instant the clock alone changes
// the game: a flag, or a claim becoming possible.
func (m *Match) armLocked() {
	k := m.clk
	if k == nil {
		return
	}
	if k.timer != nil {
		k.timer.Stop()
	}
	if m.closed || m.overLocked() {
		return
	}
	next, _ := m.deadlineLocked()
	for p := range rules.Player(2) {
		if at := m.claimFromLocked(p.Other()); !at.IsZero() && at.After(k.now()) && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	if next.IsZero() {
		return
	}
	k.timer = time.AfterFunc(max(next.Sub(k.now()), 0), m.due)
}

// due is the timer's: it asks Config.OnDue (the server, which holds the
// game's lease first) or Tick itself.
func (m *Match) due() {
	if m.cfg.OnDue != nil {
		m.cfg.OnDue(m)
		return
	}
	m.Tick()
}

// stopClockLocked stops the timer, on Close.
func (m *Match) stopClockLocked() {
	if m.clk != nil && m.clk.timer != nil {
		m.clk.timer.Stop()
	}
}

// presenceClockLocked notes who is connected, for the claims: a seat
// that loses its last connection is absent from now.
func (m *Match) presenceClockLocked(p Presence) {
	k := m.clk
	if k == nil {
		return
	}
	for i, on := range p.Seats {
		switch {
		case on:
			k.absent[i] = time.Time{}
		case k.absent[i].IsZero():
			k.absent[i] = k.now()
		}
	}
	m.armLocked()
}

// claimFromLocked returns from when seat p's absence lets the other claim
// a real-time game, or the zero time if it does not (p is connected, or
// the game is correspondence, not ready or over).
func (m *Match) claimFromLocked(p rules.Player) time.Time {
	k := m.clk
	if k == nil || k.tc.Correspondence() || k.c.Start.IsZero() || m.overLocked() || k.absent[p].IsZero() {
		return time.Time{}
	}
	return k.absent[p].Add(k.t.ClaimAfter)
}

// claimsLocked says, for each seat, whether it may claim the game now.
func (m *Match) claimsLocked() [2]bool {
	var can [2]bool
	for p := range rules.Player(2) {
		can[p] = m.claimRefusedLocked(p) == nil
	}
	return can
}

// claimRefusedLocked returns why p may not claim the game now, or nil.
func (m *Match) claimRefusedLocked(p rules.Player) error {
	switch {
	case m.clk == nil || !m.pol.Clock:
		return refuse(ErrCannotClaim, "claim: only in a game with a clock")
	case m.overLocked():
		return refuse(ErrGameOver, "claim: the game is over")
	case m.clk.tc.Correspondence():
		return refuse(ErrCannotClaim, "claim: a correspondence game waits for the other player")
	}
	at := m.claimFromLocked(p.Other())
	if at.IsZero() || m.clk.now().Before(at) {
		return refuse(ErrCannotClaim, "claim: the other player has not been gone for %v", m.clk.t.ClaimAfter)
	}
	return nil
}

// The results a player may claim when the other has left.
const (
	ClaimWin  = "win"
	ClaimDraw = "draw"
)

// Claim ends a real-time game whose other player has had no connection
// for Timing.ClaimAfter: p wins (ClaimWin) or it is a draw (ClaimDraw).
func (m *Match) Claim(p rules.Player, result string) (State, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.onlineLocked("claim"); err != nil {
		return State{}, err
	}
	if result != ClaimWin && result != ClaimDraw {
		return State{}, refuse(ErrInvalid, "result: unknown %q, want win or draw", result)
	}
	if err := m.claimRefusedLocked(p); err != nil {
		return State{}, err
	}
	st := m.statusLocked()
	st.Offer = nil
	st.Outcome = Outcome{Kind: OutcomeDraw, Reason: ReasonClaim}
	if result == ClaimWin {
		st.Outcome = Outcome{Kind: OutcomeAbandon, Player: p.Other()}
	}
	return m.setStatusLocked(st)
}

// StartClock starts the first move's limit of a clocked game not yet
// ready, now that both seats are taken, and saves it (a Change of kind
// ClockSet). It does nothing in a game without a clock, or one ready
// already.
func (m *Match) StartClock() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || m.clk == nil || !m.clk.c.Start.IsZero() || m.overLocked() {
		return nil
	}
	c := m.clk.c
	c.Start = m.clk.now()
	if err := m.commitLocked(Change{Kind: ClockSet, Clock: &c, Deadline: m.deadlineOfLocked(&c)}); err != nil {
		return err
	}
	m.setClockLocked(&c)
	m.publishLocked()
	return nil
}
