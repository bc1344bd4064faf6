// Package store keeps saved games. A saved game is plain data — the
// settings a game was created with and the moves played — from which a
// live game (package match) can be rebuilt; it holds no goroutines or
// connections, so a database can hold it as well as memory can.
//
//	s := store.NewMemory()
//	err := s.Put(ctx, store.Game{ID: "k3j9x2", Mode: "ai", Start: notation.Start})
//	g, err := s.Get(ctx, "k3j9x2")
//	if errors.Is(err, store.ErrNotFound) { … }
//
// Memory is the only implementation so far; it is what tests and a
// server without a database use.
package store

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound is returned (possibly wrapped) by Get and Delete for an id
// the store does not hold.
var ErrNotFound = errors.New("game not found")

// Game is a saved game: enough to rebuild it by replaying Moves from Start
// under the named Variants. Strings are in the notation of
// shared/NOTATION.md, so that a saved game reads the same in any store.
type Game struct {
	ID       string
	Mode     string   // "ai" or "local"
	Level    string   // "easy", "medium" or "hard"
	Human    int      // the human's seat in ai mode: 0 or 1
	Seed     uint64   // the computer player's seed
	Variants []string // names of the rule variants on, as rules.Rules.Names
	First    int      // the player who moved first
	Start    string   // the start position
	Moves    []string // the moves played, in order: "7R", "2L", …
	Created  time.Time
	Updated  time.Time
}

// Clone returns a copy of g that shares no memory with it.
func (g Game) Clone() Game {
	g.Variants = append([]string(nil), g.Variants...)
	g.Moves = append([]string(nil), g.Moves...)
	return g
}

// Store holds saved games by id. Implementations are safe for concurrent
// use, and neither keep nor share the memory of the values passed to Put
// or returned by Get.
type Store interface {
	// Get returns the game saved under id, or an error wrapping
	// ErrNotFound.
	Get(ctx context.Context, id string) (Game, error)
	// Put saves g under g.ID, replacing any game saved there.
	Put(ctx context.Context, g Game) error
	// Delete removes the game saved under id, or returns an error
	// wrapping ErrNotFound.
	Delete(ctx context.Context, id string) error
}
