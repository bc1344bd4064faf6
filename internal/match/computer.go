package match

import (
	"context"
	"errors"

	"oanquan/ai"
	"oanquan/rules"
)

// Engine chooses the computer's moves and scores hints. AIEngine is the
// real one; tests may give a faster or scripted one.
type Engine interface {
	// Search returns a move for the side to move in pos. It must return
	// soon after ctx is canceled.
	Search(ctx context.Context, pos rules.Position, lim ai.Limits) (ai.Result, error)
	// Hints scores every legal move of pos, best first.
	Hints(ctx context.Context, pos rules.Position, lim ai.Limits) ([]ai.Hint, error)
}

// AIEngine is the Engine of package ai.
type AIEngine struct{}

// Search calls ai.Search.
func (AIEngine) Search(ctx context.Context, pos rules.Position, lim ai.Limits) (ai.Result, error) {
	return ai.Search(ctx, pos, lim)
}

// Hints calls ai.Hints.
func (AIEngine) Hints(ctx context.Context, pos rules.Position, lim ai.Limits) ([]ai.Hint, error) {
	return ai.Hints(ctx, pos, lim)
}

// computerToMoveLocked reports whether the game goes on and the computer
// is to move.
func (m *Match) computerToMoveLocked() bool {
	return !m.game.Over() && m.pol.ComputerPlays(m.game.Position().ToMove, m.cfg.Human)
}

// thinkingLocked reports whether the computer's search is running.
func (m *Match) thinkingLocked() bool { return m.cancel != nil }

// startSearchLocked starts the computer's search if it is to move, and
// reports whether it did. The search runs in its own goroutine, without
// the lock; think plays its move.
func (m *Match) startSearchLocked() bool {
	if m.closed || !m.computerToMoveLocked() {
		return false
	}
	ctx, cancel := context.WithCancel(m.ctx)
	m.cancel = cancel
	m.gen++
	pos := m.game.Position()
	lim := ai.Limits{
		Level:    m.level,
		MoveTime: m.cfg.MoveTime,
		Seed:     m.cfg.Seed ^ uint64(pos.Ply)*0x9e3779b97f4a7c15, // a different stream each ply
		Rules:    m.game.Rules(),
		History:  m.game.History(),
	}
	m.wg.Add(1)
	go m.think(ctx, m.gen, pos, lim)
	return true
}

// cancelSearchLocked stops the computer's search, if any; its result will
// be thrown away.
func (m *Match) cancelSearchLocked() {
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	m.gen++
}

// ErrElsewhere is what an Engine returns when another server plays the
// computer's moves in this game (it holds the game's lease): the match
// then waits for that server's move to reach it (Sync).
var ErrElsewhere = errors.New("the computer's move is played by another server")

// think runs one search of the computer's and plays the move it finds,
// unless the search was canceled meanwhile. Should the engine fail, or
// return a move that is not legal, the computer plays its first legal
// move rather than leave the human waiting for ever.
func (m *Match) think(ctx context.Context, gen uint64, pos rules.Position, lim ai.Limits) {
	defer m.wg.Done()
	res, err := m.engine.Search(ctx, pos, lim)
	m.mu.Lock()
	defer m.mu.Unlock()
	if gen != m.gen {
		return
	}
	m.cancel() // releases the context's resources
	m.cancel = nil
	if errors.Is(err, ErrElsewhere) {
		return
	}
	mv := res.Move
	if err != nil || pos.Legal(mv) != nil {
		mv = pos.LegalMoves(nil)[0] // the computer is to move, so there is one
	}
	if _, err := m.playLocked(mv); err != nil {
		// Not saved: the game is still waiting for the computer, in
		// the store too. Say so, so that pages stop showing it think.
		s := m.stateLocked()
		m.broadcastLocked(Update{Kind: StateUpdate, State: &s})
	}
}

// Resume starts the computer's search if it is to move and not already
// thinking: after a failed save, or when another server that held the
// game's lease has gone. It reports whether the computer is thinking.
func (m *Match) Resume() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.thinkingLocked() {
		return true
	}
	if m.startSearchLocked() {
		m.broadcastLocked(Update{Kind: ThinkingUpdate, Thinking: true})
		return true
	}
	return false
}
