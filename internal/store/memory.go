package store

import (
	"context"
	"fmt"
	"sync"
)

// Memory is a Store that keeps games in memory, for tests and for a
// server that need not remember games across restarts. The zero Memory
// is not usable; create one with NewMemory. It is safe for concurrent
// use.
type Memory struct {
	mu    sync.RWMutex
	games map[string]Game
}

// NewMemory returns an empty Memory.
func NewMemory() *Memory {
	return &Memory{games: make(map[string]Game)}
}

// Get returns a copy of the game saved under id.
func (m *Memory) Get(ctx context.Context, id string) (Game, error) {
	if err := ctx.Err(); err != nil {
		return Game{}, err
	}
	m.mu.RLock()
	g, ok := m.games[id]
	m.mu.RUnlock()
	if !ok {
		return Game{}, fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	return g.Clone(), nil
}

// Put saves a copy of g.
func (m *Memory) Put(ctx context.Context, g Game) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	g = g.Clone()
	m.mu.Lock()
	m.games[g.ID] = g
	m.mu.Unlock()
	return nil
}

// Delete removes the game saved under id.
func (m *Memory) Delete(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.games[id]; !ok {
		return fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	delete(m.games, id)
	return nil
}

// Len returns how many games m holds.
func (m *Memory) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.games)
}
