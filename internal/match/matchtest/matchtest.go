// Package matchtest holds scripted computer players for the tests of
// packages that run matches (match, server): First answers at once; Gate
// makes every search wait until the test answers it, so that tests can
// look at a match while its computer is thinking.
//
//	g := matchtest.NewGate()
//	// … start a match whose engine is g, let the computer's turn come …
//	c := g.Next(t)             // the search the match started
//	c.Reply <- c.Pos.LegalMoves(nil)[0]
package matchtest

import (
	"context"
	"testing"
	"time"

	"oanquan/ai"
	"oanquan/rules"
)

// Guard bounds every wait of a test on a match, so that a broken test
// fails instead of hanging; no test depends on its length.
const Guard = 30 * time.Second

// First is an engine that plays the first legal move at once and hints the
// legal moves in order, scored 0, -1, -2 ….
type First struct{}

// Search returns the first legal move of pos.
func (First) Search(ctx context.Context, pos rules.Position, lim ai.Limits) (ai.Result, error) {
	return ai.Result{Move: pos.LegalMoves(nil)[0]}, nil
}

// Hints returns every legal move of pos, in order, each scored one less
// than the one before.
func (First) Hints(ctx context.Context, pos rules.Position, lim ai.Limits) ([]ai.Hint, error) {
	var hs []ai.Hint
	for i, m := range pos.LegalMoves(nil) {
		hs = append(hs, ai.Hint{Move: m, Score: -i})
	}
	return hs, nil
}

// Gate is an engine whose searches wait for the test: each one sends a
// Call on Calls and returns the move the test replies with, or the
// context's error once it is canceled. Its hints are First's.
type Gate struct {
	First
	Calls chan Call
}

// Call is one search waiting for its answer on Reply (buffered: a reply
// to a canceled search does not block).
type Call struct {
	Ctx   context.Context
	Pos   rules.Position
	Lim   ai.Limits
	Reply chan rules.Move
}

// NewGate returns a Gate with no search waiting.
func NewGate() *Gate { return &Gate{Calls: make(chan Call)} }

// Search waits for the test's reply.
func (g *Gate) Search(ctx context.Context, pos rules.Position, lim ai.Limits) (ai.Result, error) {
	c := Call{ctx, pos, lim, make(chan rules.Move, 1)}
	select {
	case g.Calls <- c:
	case <-ctx.Done():
		return ai.Result{}, ctx.Err()
	}
	select {
	case m := <-c.Reply:
		return ai.Result{Move: m}, nil
	case <-ctx.Done():
		return ai.Result{}, ctx.Err()
	}
}

// Next returns the next search started, failing t if none starts within
// Guard.
func (g *Gate) Next(t testing.TB) Call {
	t.Helper()
	select {
	case c := <-g.Calls:
		return c
	case <-time.After(Guard):
		t.Fatal("the computer never started thinking")
		return Call{}
	}
}

// Release lets the next search play its first legal move.
func (g *Gate) Release(t testing.TB) Call {
	t.Helper()
	c := g.Next(t)
	c.Reply <- c.Pos.LegalMoves(nil)[0]
	return c
}
