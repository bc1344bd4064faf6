package rules

import (
	"errors"
	"fmt"
)

// Repetitions is the occurrence of one position that ends the game: the
// third.
const Repetitions = 3

// MaxPlies bounds the length of a game: a game whose ply count reaches it
// ends there with EndPlyLimit, and the count is made as for any ending.
//
// It is a guard, not a rule a game meets. The repetition rule leaves the
// debts out of a position (shared/RULES.md), so a player who borrows again
// and again comes back to earlier positions and the third occurrence ends
// the game: positions without debts are finitely many, and every game ends
// by the rules themselves. But that bound is astronomically far, so the
// guard keeps two promises the rules cannot: a debt, held in 16 bits,
// never wraps round (a loan is at most 5 pebbles a turn, so no debt can
// pass 25,000 before the bound), and any loop over a game's turns is
// bounded. No game played so far comes near it (docs/RULES.md, decision
// 15); TestPlyLimit lowers it to check the ending.
const MaxPlies = 10000

// maxPlies is MaxPlies, lowered by tests of the bound.
var maxPlies uint32 = MaxPlies

// ErrGameOver is returned by Game.Play once the game has ended.
var ErrGameOver = errors.New("the game is over")

// Game is a game in progress: a start position, the moves played, and the
// history the repetition rule needs. The zero Game is not usable; create
// one with NewGame. A Game is not safe for concurrent use.
type Game struct {
	rules Rules
	start Position
	pos   Position
	moves []Move // moves[:n] were played; the slice only grows, as in history
	n     int
	seen  history
	end   End
	// legal is the legal moves now, as an index in moveSets (set after
	// every change of pos or end): an index, not a pointer, so that
	// RandomMove finds its move in one table read, and storing it costs
	// no check for the garbage collector.
	legal uint8
}

// NewGame starts a game from start under r. The start counts as the first
// occurrence of itself for the repetition rule. It returns start's
// validation error, if any.
func NewGame(r Rules, start Position) (*Game, error) {
	if err := start.Validate(); err != nil {
		return nil, err
	}
	g := &Game{}
	g.Reset(r, start)
	return g, nil
}

// Reset starts g again from start under r, keeping its storage. It does not
// validate start.
func (g *Game) Reset(r Rules, start Position) {
	g.rules = r
	g.start = start
	g.pos = start
	g.n = 0
	g.seen.reset()
	g.seen.push(&g.pos)
	g.end = start.Status()
	g.setLegal()
}

// Rules returns the rules g is played under.
func (g *Game) Rules() Rules { return g.rules }

// Start returns the position g started from.
func (g *Game) Start() Position { return g.start }

// Position returns the current position. Once the game is over it is the
// position the game ended in, before the final sweep (see Final).
func (g *Game) Position() Position { return g.pos }

// Moves returns the moves played so far. The slice is g's own: do not
// modify it.
func (g *Game) Moves() []Move { return g.moves[:g.n:g.n] }

// End returns how the game ended, or EndNone while it goes on.
func (g *Game) End() End { return g.end }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.end != EndNone }

// Result returns the final count. It is meaningful once the game is over.
func (g *Game) Result() Result { return g.pos.Count(g.end) }

// Final returns the position after the final sweep: each row's pebbles in
// its owner's store.
func (g *Game) Final() Position {
	p := g.pos
	p.Sweep()
	return p
}

// LegalMoves appends the legal moves to buf; none once the game is over.
func (g *Game) LegalMoves(buf []Move) []Move {
	if g.Over() {
		return buf
	}
	return g.pos.LegalMoves(buf)
}

// Play plays m, appending its events to tr (which may be nil), and returns
// how the game ended (EndNone if it goes on). An illegal move returns an
// error and changes nothing.
func (g *Game) Play(m Move, tr *Trace) (End, error) {
	if g.Over() {
		return g.end, fmt.Errorf("move %v: %w", m, ErrGameOver)
	}
	if err := g.pos.Legal(m); err != nil {
		return EndNone, err
	}
	g.play(m, tr)
	return g.end, nil
}

// MoveSet returns the legal moves, without allocating; none once the game
// is over.
func (g *Game) MoveSet() *MoveSet { return &moveSets[g.legal&63] }

// RandomMove returns the legal move that the random byte r chooses, for
// random playouts: of the N legal moves (MoveSet), the one at r·N/256
// rounded down, so that each is chosen by 256/N values of r rounded down
// or up (for N up to 10, each move's chance is within 2.4% of 1/N). It is
// one read of a 16 KiB table: in a playout the next move waits on nothing
// else once the turn before has ended. The game must not be over.
func (g *Game) RandomMove(r uint8) Move { return randomMoves[uint(g.legal&63)<<8|uint(r)] }

// setLegal sets g.legal from the position and the end.
func (g *Game) setLegal() {
	g.legal = 0 // no moves
	if g.end == EndNone {
		g.legal = g.pos.rowMovesIndex()
	}
}

// PlayLegal is Play without the legality check, for callers that took m
// from the position's own legal moves (searches, playouts): a move that
// is not legal leaves the game broken.
func (g *Game) PlayLegal(m Move, tr *Trace) End {
	g.play(m, tr)
	return g.end
}

// play plays a legal move; checks at the end of a turn run in the order of
// RULES.md: mandarin squares, refill (both in Position.Play), repetition,
// and last the bound on a game's length (MaxPlies).
func (g *Game) play(m Move, tr *Trace) {
	g.end = g.pos.Play(m, &g.rules, tr)
	if g.n == len(g.moves) {
		g.moves = append(g.moves, 0)
		g.moves = g.moves[:cap(g.moves)]
	}
	g.moves[g.n] = m
	g.n++
	// The repetition count, as history.push makes it, written out so
	// that the compiler inlines the usual case (a new position).
	h := &g.seen
	if h.n == len(h.entries) {
		h.grow()
	}
	if k0, k1 := g.pos.key(); h.add(k0, k1) && h.count(h.n-1) >= Repetitions && g.end == EndNone {
		g.end = EndRepetition
		if tr != nil {
			tr.end(&g.pos, EndRepetition)
		}
	}
	if g.pos.Ply >= maxPlies && g.end == EndNone {
		g.end = EndPlyLimit
		if tr != nil {
			tr.end(&g.pos, EndPlyLimit)
		}
	}
	g.setLegal()
}

// Undo takes back the last n moves (all of them if n is larger) by
// replaying the rest from the start, and returns how many it took back.
func (g *Game) Undo(n int) int {
	n = min(n, g.n)
	keep := append([]Move(nil), g.moves[:g.n-n]...)
	g.Reset(g.rules, g.start)
	for _, m := range keep {
		g.play(m, nil)
	}
	return n
}

// History returns every position of the game in order, the start first
// and the current position last: what a search needs to know about the
// repetition rule. It replays the moves, so it costs a game's worth of
// turns.
func (g *Game) History() []Position {
	h := make([]Position, 0, g.n+1)
	p := g.start
	h = append(h, p)
	for _, m := range g.Moves() {
		p.Play(m, &g.rules, nil)
		h = append(h, p)
	}
	return h
}
