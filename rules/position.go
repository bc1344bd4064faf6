package rules

import (
	"encoding/binary"
	"fmt"
)

// The board is a ring of twelve cells. Cell indices follow the ring order
// of shared/NOTATION.md: squares 0–4, the left mandarin square, squares 5–9,
// the right mandarin square. Going right (Dir Right) means index + 1.
const (
	NumCells      = 12 // cells on the ring: ten citizen squares, two mandarin squares
	NumSquares    = 10 // citizen squares, numbered 0–9
	LeftMandarin  = 5  // cell index of the left mandarin square
	RightMandarin = 11 // cell index of the right mandarin square

	StoneValue = 10 // points of a mandarin stone
	Total      = 70 // points on the board at the start: 50 pebbles and two stones
	RowPebbles = 5  // pebbles a refill puts on an empty row, one per square
)

// Player is a side: Player0 has the bottom row (squares 5–9), Player1 the
// top row (squares 0–4).
type Player uint8

// The two players.
const (
	Player0 Player = 0
	Player1 Player = 1
)

// Other returns the opponent of p.
func (p Player) Other() Player { return p ^ 1 }

// String returns "0" or "1".
func (p Player) String() string { return string('0' + byte(p)) }

// rowStart is the first cell of each player's row.
var rowStart = [2]int{6, 0}

// Row returns the cell indices of p's five squares, from the lowest square
// number to the highest.
func (p Player) Row() [5]int {
	s := rowStart[p]
	return [5]int{s, s + 1, s + 2, s + 3, s + 4}
}

// SquareCell returns the ring cell of citizen square s (0–9).
func SquareCell(s int) int { return s + s/5 }

// CellSquare returns the citizen square number of cell c, or -1 for a
// mandarin square.
func CellSquare(c int) int {
	switch {
	case c == LeftMandarin || c == RightMandarin:
		return -1
	case c > LeftMandarin:
		return c - 1
	default:
		return c
	}
}

// IsMandarin reports whether cell c is a mandarin square.
func IsMandarin(c int) bool { return (1<<LeftMandarin|1<<RightMandarin)>>uint(c)&1 != 0 }

// Owner returns the player whose row holds cell c; ok is false for a
// mandarin square.
func Owner(c int) (p Player, ok bool) {
	switch {
	case IsMandarin(c):
		return 0, false
	case c < LeftMandarin:
		return Player1, true
	default:
		return Player0, true
	}
}

// stoneIndex maps a mandarin cell to its index in Position.Stone: left 0,
// right 1.
func stoneIndex(c int) int { return c / 6 }

// Store is what a player holds beside the board.
type Store struct {
	Pebbles   uint8  // small pebbles captured, or received for an exchanged mandarin
	Mandarins uint8  // mandarin stones captured and not exchanged (0–2)
	Debt      uint16 // pebbles borrowed from the other player for refills, repaid at the count
}

// Points returns the store's value: pebbles plus 10 per mandarin stone.
// The debt is a claim, not something held, and is not counted here.
func (s Store) Points() int { return int(s.Pebbles) + StoneValue*int(s.Mandarins) }

// Position is the whole state of a game between turns: a small value, safe
// to copy and compare with ==.
//
// The zero Position is not a valid position (it has no pebbles); start from
// Rules.Start or build one and check it with Validate. Positions written
// down are always between turns: a refill owed to the side to move has
// already been made.
type Position struct {
	Cells  [NumCells]uint8 // pebbles on each cell, in ring order
	Stone  [2]bool         // mandarin stone still on the left (0) and right (1) mandarin square
	ToMove Player          // the side to move
	Stores [2]Store        // each player's store
	Ply    uint32          // turns played so far
}

// Occupied reports whether cell c holds anything: pebbles, or for a
// mandarin square its stone.
func (p *Position) Occupied(c int) bool {
	return p.Cells[c] != 0 || (IsMandarin(c) && p.Stone[stoneIndex(c)])
}

// RowPebbles returns the pebbles on pl's row.
func (p *Position) RowPebbles(pl Player) int {
	s := rowStart[pl]
	c := &p.Cells
	return int(c[s]) + int(c[s+1]) + int(c[s+2]) + int(c[s+3]) + int(c[s+4])
}

// rowBytes returns the counts of pl's five squares as the low five bytes
// of a word, the lowest square number first.
func (p *Position) rowBytes(pl Player) uint64 {
	// The loads match the words Play stores, so that the processor can
	// forward them; a load straddling two fresh stores would stall.
	lo := binary.LittleEndian.Uint64(p.Cells[0:8])
	hi := uint64(binary.LittleEndian.Uint32(p.Cells[8:12]))
	top := -uint64(pl & 1) // all ones for player 1, without a branch
	return (lo&top | (lo>>48|hi<<16)&^top) & 0xffffffffff
}

// rowEmpty reports whether pl's row is empty.
func (p *Position) rowEmpty(pl Player) bool { return p.rowBytes(pl) == 0 }

// MandarinsEmpty reports whether both mandarin squares are completely empty
// (no stone, no pebbles): the usual end of the game.
func (p *Position) MandarinsEmpty() bool {
	// One test instead of four: whether the mandarin squares are empty is
	// hard to predict in a search.
	return uint(p.Cells[LeftMandarin])|uint(p.Cells[RightMandarin])|b2u(p.Stone[0])|b2u(p.Stone[1]) == 0
}

// b2u returns 1 for true and 0 for false; the compiler makes it a plain
// load.
func b2u(b bool) uint {
	var u uint
	if b {
		u = 1
	}
	return u
}

// Points returns the points held on the board and in the stores; every
// legal position keeps their sum at Total (70).
func (p *Position) Points() (board, stores int) {
	for _, n := range p.Cells {
		board += int(n)
	}
	for _, s := range p.Stone {
		if s {
			board += StoneValue
		}
	}
	return board, p.Stores[0].Points() + p.Stores[1].Points()
}

// canRefill reports whether the two stores together can put five pebbles
// on a row, counting a mandarin stone as the ten pebbles it exchanges for.
func (p *Position) canRefill() bool {
	return p.Stores[0].Points()+p.Stores[1].Points() >= RowPebbles
}

// Status tells whether the position is still being played, or how it ended
// (including a ply count that has reached MaxPlies). It does not know about
// repetition, which needs the game's history: see Game.
func (p *Position) Status() End {
	if p.MandarinsEmpty() {
		return EndMandarins
	}
	if p.RowPebbles(p.ToMove) == 0 {
		// Positions are written down after the refill, so an empty row on
		// the side to move means the refill could not be made, or the
		// final sweep has already emptied both rows.
		return EndNoRefill
	}
	if p.Ply >= maxPlies {
		return EndPlyLimit
	}
	return EndNone
}

// key packs the position into 128 bits for the repetition rule: the
// cells and the stores' pebbles and mandarins. The ply and the debts are
// left out, as the rule says (shared/RULES.md, "Game end and score"). So
// is the side to move: every turn changes it, so the history compares a
// position only with every other one before it, which have the same side
// to move. So are the stones on the board, which along a line of play the
// rest of the key decides: a turn keeps the points on the board and in
// the stores together (70 in a game), so two positions with equal keys
// have as many stones on the board, and as stones only ever leave the
// board, the same ones. Each count is at most 70, so the key is exact.
func (p *Position) key() (uint64, uint64) {
	a := binary.LittleEndian.Uint64(p.Cells[0:8])
	b := uint64(binary.LittleEndian.Uint32(p.Cells[8:12])) |
		uint64(p.Stores[0].Pebbles)<<32 | uint64(p.Stores[1].Pebbles)<<40 |
		uint64(p.Stores[0].Mandarins)<<48 | uint64(p.Stores[1].Mandarins)<<52
	return a, b
}

// keyPoints returns the points a key holds: the pebbles on the board and
// in the stores, and 10 for each mandarin stone in a store. Along a line
// of play it is the constant total less 10 for each stone still on the
// board, so it grows each time a stone leaves the board and never falls.
func keyPoints(k0, k1 uint64) int {
	// Byte sums as sums of 16-bit lanes, which cannot carry into each
	// other: each lane is at most 2 × 255, the total at most 14 × 255.
	const lanes = 0x00ff00ff00ff00ff
	pebbles := k1 & 0xffffffffffff // cells 8–11 and the two stores' pebbles
	s := k0&lanes + k0>>8&lanes + pebbles&lanes + pebbles>>8&lanes
	return int(s*0x0001000100010001>>48) + StoneValue*int(k1>>48&0xf+k1>>52&0xf)
}

// SameForRepetition reports whether p and q are the same position for
// the repetition rule: the same board, stones, store pebbles and
// mandarins, and side to move. The ply and the debts do not count.
func (p *Position) SameForRepetition(q *Position) bool {
	a, b := *p, *q
	a.Ply, b.Ply = 0, 0
	a.Stores[0].Debt, a.Stores[1].Debt = 0, 0
	b.Stores[0].Debt, b.Stores[1].Debt = 0, 0
	return a == b
}

// ValidationError says which part of a position breaks the rules'
// invariants. Field is one of "board", "side", "store0", "store1", "ply".
type ValidationError struct {
	Field string
	Msg   string
}

func (e *ValidationError) Error() string { return e.Field + ": " + e.Msg }

// Validate checks the invariants every position reachable in a game keeps:
// at most one stone per mandarin square, at most two mandarins in the stores
// altogether, 70 points in all, and a side to move that can move unless the
// game is over. It returns a *ValidationError naming the field at fault.
func (p *Position) Validate() error {
	if p.ToMove > 1 {
		return &ValidationError{"side", fmt.Sprintf("side to move %d: want 0 or 1", p.ToMove)}
	}
	stones := 0
	for _, s := range p.Stone {
		if s {
			stones++
		}
	}
	for i, s := range p.Stores {
		stones += int(s.Mandarins)
		if s.Mandarins > 2 {
			return &ValidationError{fmt.Sprintf("store%d", i), fmt.Sprintf("%d mandarins: there are only 2", s.Mandarins)}
		}
	}
	if stones > 2 {
		return &ValidationError{"board", fmt.Sprintf("%d mandarin stones on the board and in the stores: there are only 2", stones)}
	}
	board, stores := p.Points()
	if board+stores != Total {
		return &ValidationError{"board", fmt.Sprintf("board and stores hold %d points (pebbles 1, stones 10): want %d", board+stores, Total)}
	}
	if p.RowPebbles(p.ToMove) == 0 && !p.MandarinsEmpty() && p.canRefill() && p.RowPebbles(p.ToMove.Other()) != 0 {
		return &ValidationError{"board", fmt.Sprintf("side %d to move has an empty row, but the stores can refill it: write the position after the refill", p.ToMove)}
	}
	return nil
}
