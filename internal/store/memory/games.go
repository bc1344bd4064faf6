package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"oanquan/internal/store"
)

// Create saves a copy of g as a new game.
func (m *DB) Create(ctx context.Context, g store.Game) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	g = g.Clone()
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.games[g.ID]; ok {
		return fmt.Errorf("game %q: %w", g.ID, store.ErrExists)
	}
	g.Updated, g.Result = m.now(), store.NoResult
	m.games[g.ID] = &g
	return nil
}

// Get returns a copy of the game saved under id.
func (m *DB) Get(ctx context.Context, id string) (store.Game, error) {
	if err := ctx.Err(); err != nil {
		return store.Game{}, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	g, ok := m.games[id]
	if !ok {
		return store.Game{}, fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	out := g.Clone()
	out.MoveClocks = store.MoveClocks(out.MoveClocks)
	out.Players = m.accts.playersLocked(g)
	return out, nil
}

// change runs f on the game saved under id, under the lock, and stamps
// it if f succeeds.
func (m *DB) change(ctx context.Context, id string, f func(g *store.Game) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.games[id]
	if !ok {
		return fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	if err := f(g); err != nil {
		return err
	}
	g.Updated = m.now()
	return nil
}

// Append adds a move at index.
func (m *DB) Append(ctx context.Context, id string, index int, move string, w store.Waiting) error {
	return m.AppendClocked(ctx, id, index, move, w, store.Clock{})
}

// AppendClocked adds a move at index, and saves the clock with it.
func (m *DB) AppendClocked(ctx context.Context, id string, index int, move string, w store.Waiting, c store.Clock) error {
	return m.change(ctx, id, func(g *store.Game) error {
		if index != len(g.Moves) {
			return fmt.Errorf("game %q: move %d, but %d moves are saved: %w", id, index, len(g.Moves), store.ErrConflict)
		}
		if c.State != "" && g.Status != c.IfStatus {
			return fmt.Errorf("game %q: the status changed meanwhile: %w", id, store.ErrConflict)
		}
		g.Moves = append(g.Moves, move)
		g.Waiting = w
		if c.State != "" || !c.Deadline.IsZero() {
			g.Clock = store.Clock{State: c.State, Deadline: c.Deadline}
		}
		if c.Move != "" || g.MoveClocks != nil {
			g.MoveClocks = append(g.MoveClocks, make([]string, len(g.Moves)-1-len(g.MoveClocks))...)
			g.MoveClocks = append(g.MoveClocks, c.Move)
		}
		return nil
	})
}

// SetClock replaces the clock.
func (m *DB) SetClock(ctx context.Context, id string, c store.Clock) error {
	return m.change(ctx, id, func(g *store.Game) error {
		g.Clock = c
		return nil
	})
}

// Overdue returns the unfinished games past their deadline with no lease.
func (m *DB) Overdue(ctx context.Context, now time.Time, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	var due []*store.Game
	for id, g := range m.games {
		d := g.Clock.Deadline
		_, over := m.finished[id]
		if l, held := m.leases[id]; d.IsZero() || d.After(now) || over || held && l.until.After(m.now()) {
			continue
		}
		due = append(due, g)
	}
	slices.SortFunc(due, func(a, b *store.Game) int {
		return cmp.Or(a.Clock.Deadline.Compare(b.Clock.Deadline), cmp.Compare(a.ID, b.ID))
	})
	ids := []string{}
	for _, g := range due[:min(len(due), max(limit, 0))] {
		ids = append(ids, g.ID)
	}
	return ids, nil
}

// Truncate keeps the first n moves.
func (m *DB) Truncate(ctx context.Context, id string, n int, w store.Waiting) error {
	return m.change(ctx, id, func(g *store.Game) error {
		if n < 0 || n > len(g.Moves) {
			return fmt.Errorf("game %q: keep %d moves, but %d are saved: %w", id, n, len(g.Moves), store.ErrConflict)
		}
		g.Moves = slices.Clip(g.Moves[:n])
		if len(g.MoveClocks) > n {
			g.MoveClocks = slices.Clip(g.MoveClocks[:n])
		}
		g.Waiting, g.Result = w, store.NoResult
		delete(m.finished, id)
		return nil
	})
}

// SetLevel changes the level.
func (m *DB) SetLevel(ctx context.Context, id string, level string, w store.Waiting) error {
	return m.change(ctx, id, func(g *store.Game) error {
		g.Level = level
		g.Waiting = w
		return nil
	})
}

// SetStatus replaces the status if it is from.
func (m *DB) SetStatus(ctx context.Context, id string, from, to string) error {
	return m.SetStatusAt(ctx, id, from, to, -1)
}

// SetStatusAt replaces the status if it is from and the game has moves
// moves (any number if moves is negative).
func (m *DB) SetStatusAt(ctx context.Context, id string, from, to string, moves int) error {
	return m.change(ctx, id, func(g *store.Game) error {
		if g.Status != from || moves >= 0 && len(g.Moves) != moves {
			return fmt.Errorf("game %q: the status changed meanwhile: %w", id, store.ErrConflict)
		}
		g.Status = to
		return nil
	})
}

// ClaimSeat gives a free seat to the holder of hash.
func (m *DB) ClaimSeat(ctx context.Context, id string, seat int, hash []byte) error {
	if seat != 0 && seat != 1 {
		return fmt.Errorf("seat %d: want 0 or 1", seat)
	}
	return m.change(ctx, id, func(g *store.Game) error {
		if g.Seats[seat] != nil {
			return fmt.Errorf("game %q: seat %d is taken: %w", id, seat, store.ErrConflict)
		}
		g.Seats[seat] = slices.Clone(hash)
		return nil
	})
}

// Waiting returns the games in which the computer is to move.
func (m *DB) Waiting(ctx context.Context, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ws := m.waitingGames()
	slices.SortFunc(ws, func(a, b waiting) int { return cmp.Or(a.updated.Compare(b.updated), cmp.Compare(a.id, b.id)) })
	n := max(0, min(limit, len(ws))) // a negative limit is 0, as in the other stores
	ids := make([]string, 0, n)
	for _, w := range ws[:n] {
		ids = append(ids, w.id)
	}
	return ids, nil
}

// waiting is what Waiting reads of a game, copied under the lock.
type waiting struct {
	id      string
	updated time.Time
}

// waitingGames returns the games waiting for the computer, in no order.
func (m *DB) waitingGames() []waiting {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var ws []waiting
	for _, g := range m.games {
		if g.Waiting {
			ws = append(ws, waiting{g.ID, g.Updated})
		}
	}
	return ws
}

// Lease gives owner the computer's moves in game id for ttl.
func (m *DB) Lease(ctx context.Context, id, owner string, ttl time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if l, ok := m.leases[id]; ok && l.owner != owner && now.Before(l.until) {
		return false, nil
	}
	m.leases[id] = lease{owner: owner, until: now.Add(ttl)}
	return true, nil
}

// Release ends owner's lease on game id.
func (m *DB) Release(ctx context.Context, id, owner string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if l, ok := m.leases[id]; ok && l.owner == owner {
		delete(m.leases, id)
	}
	return nil
}
