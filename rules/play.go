package rules

import (
	"encoding/binary"
	"fmt"
)

// Dir is a sowing direction along the ring.
type Dir uint8

// The two directions. Right is toward higher square numbers
// (9 → right mandarin → 0), the same ring direction for both players.
const (
	Left  Dir = 0
	Right Dir = 1
)

// String returns "L" or "R".
func (d Dir) String() string { return "LR"[d : d+1] }

// Move is a citizen square (0–9) and a direction, packed in a byte.
type Move uint8

// NoMove is a Move value no square can have.
const NoMove Move = 0xff

// MakeMove returns the move sowing square s (0–9) in direction d.
func MakeMove(s int, d Dir) Move { return Move(s<<1) | Move(d) }

// Square returns the move's citizen square number (0–9).
func (m Move) Square() int { return int(m >> 1) }

// Dir returns the move's direction.
func (m Move) Dir() Dir { return Dir(m & 1) }

// Cell returns the ring cell of the move's square.
func (m Move) Cell() int { return SquareCell(m.Square()) }

// String returns the move in notation, such as "7R".
func (m Move) String() string {
	if m.Square() >= NumSquares {
		return "none"
	}
	return string('0'+byte(m.Square())) + m.Dir().String()
}

// MaxSowings bounds the sowings (the first and every relay) of one move.
//
// No move can reach it under these rules: a relay only ever moves forward
// around the ring, and it cannot pass a mandarin square without dropping a
// pebble there (a mandarin square is never picked up, and one that comes
// right after the last pebble ends the relay). Pebbles on a mandarin square
// stay until captured, so each lap of the ring moves two pebbles off the
// citizen squares for good, and a move makes at most 35 laps of at most 10
// relays. The bound is a guard for that argument: should a move ever reach
// it, the turn ends there with StopRelayLimit, the position stays valid,
// and the game goes on. TestRelayLimit plays a position with a lowered
// limit to check that path.
const MaxSowings = 512

// maxSowings is MaxSowings, lowered by tests of the guard.
var maxSowings = MaxSowings

// Legal returns nil if m can be played in p, or an error saying why not.
func (p *Position) Legal(m Move) error {
	if st := p.Status(); st != EndNone {
		return fmt.Errorf("move %v: the game is over (%v)", m, st)
	}
	if m.Square() >= NumSquares {
		return fmt.Errorf("move %d: no such move", m)
	}
	c := m.Cell()
	if owner, _ := Owner(c); owner != p.ToMove {
		return fmt.Errorf("move %v: square %d belongs to player %d, and player %d is to move", m, m.Square(), owner, p.ToMove)
	}
	if p.Cells[c] == 0 {
		return fmt.Errorf("move %v: square %d is empty", m, m.Square())
	}
	return nil
}

// MoveSet is the legal moves of a position as a small value: Moves[:N],
// for each non-empty square of the side to move from the lowest number,
// left then right.
type MoveSet struct {
	Moves [2 * 5]Move
	N     uint8
}

// moveSets[pl<<5|mask] lists pl's moves when mask has a bit set for each
// of pl's non-empty squares, the lowest square first (moveSets[0] is no
// move at all).
var moveSets = func() (t [64]MoveSet) {
	for pl := range 2 {
		first := CellSquare(rowStart[pl])
		for mask := range 32 {
			s := &t[pl<<5|mask]
			for i := range 5 {
				if mask&(1<<i) != 0 {
					m := MakeMove(first+i, Left)
					s.Moves[s.N], s.Moves[s.N+1] = m, m|Move(Right)
					s.N += 2
				}
			}
		}
	}
	return t
}()

// randomMoves[i<<8|r] is the move of moveSets[i] that the random byte r
// chooses (see Game.RandomMove).
var randomMoves = func() (t [64 << 8]Move) {
	for i, s := range moveSets {
		for r := range 256 {
			t[i<<8|r] = s.Moves[r*int(s.N)>>8]
		}
	}
	return t
}()

// rowMaskBits returns a bit for each non-empty square of pl's row, the
// lowest square number in bit 0.
func (p *Position) rowMaskBits(pl Player) uint {
	// Counts are below 128: adding 0x7f sets a byte's high bit exactly
	// when it is not zero. The multiply gathers those five bits, which
	// land without carries at bits 40–44.
	hi := (p.rowBytes(pl) + 0x7f7f7f7f7f) & 0x8080808080
	return uint((hi>>7)*(1<<40|1<<33|1<<26|1<<19|1<<12)>>40) & 31
}

// Moves returns the legal moves of p; none if both mandarin squares are
// empty. It does not look at the ply count: a position at MaxPlies still
// lists its moves, though Legal and Game refuse them.
func (p *Position) Moves() *MoveSet {
	if p.MandarinsEmpty() {
		return &moveSets[0]
	}
	return p.rowMoves()
}

// rowMoves returns the moves of the side to move's non-empty squares.
func (p *Position) rowMoves() *MoveSet { return &moveSets[p.rowMovesIndex()] }

// rowMovesIndex returns rowMoves as an index in moveSets.
func (p *Position) rowMovesIndex() uint8 {
	return uint8(p.ToMove&1)<<5 | uint8(p.rowMaskBits(p.ToMove))
}

// LegalMoves appends the legal moves of p to buf and returns it, in the
// order of MoveSet.
func (p *Position) LegalMoves(buf []Move) []Move {
	s := p.Moves()
	return append(buf, s.Moves[:s.N]...)
}

// Play plays the legal move m in place under rules r and appends what
// happens to tr (which may be nil). It returns EndNone, or how the game
// ended: both mandarin squares emptied, or no refill possible for the next
// mover. It knows nothing of the game's history, so repetition is left to
// Game.
//
// After the sowing and captures, the side to move changes, the ply
// advances, and the next mover's row is refilled if it is empty. Play does
// not check that m is legal (see Legal); an illegal move leaves a position
// that breaks the invariants. Play does not allocate when tr is nil or has
// room.
func (p *Position) Play(m Move, r *Rules, tr *Trace) End {
	if tr != nil {
		return p.playTraced(m, r, tr)
	}
	// Without a trace this is the hot loop of every search and playout,
	// so it is one function on purpose, and playTraced does the same turn
	// pebble by pebble (TestPlayMatchesReference checks that they agree).
	// The twelve counts live in two words, lo (cells 0–7) and hi (cells
	// 8–11), as byte lanes (see lanes) held in registers from the first
	// load to the last store: a sowing is two additions (see spans), a
	// pick-up two masks, and reading a cell a select and a shift, with no
	// memory traffic in between. Shift counts are masked so that the
	// compiler needs no check for counts of 64 or more.
	lo := binary.LittleEndian.Uint64(p.Cells[0:8])
	hi := uint64(binary.LittleEndian.Uint32(p.Cells[8:12]))
	sp := &spans[m.Dir()&1]
	l := &moveLane[m&31]
	c := int(l.cell)
	n := l.count(lo, hi)
	lo, hi = lo&l.keep[0], hi&l.keep[1]
	for sowings := 1; ; sowings++ {
		if n >= NumCells {
			// Whole laps put a pebble on every cell, the emptied one
			// included.
			laps := uint64(n / NumCells)
			lo, hi = lo+fullLap[0]*laps, hi+fullLap[1]*laps
			n %= NumCells
		}
		s := &sp[c&15][n&15]
		// e, the cell after the last pebble, is never in the span, so it
		// can be read before the span is added, which shortens the chain
		// of dependent steps.
		var e int
		c, e = int(s.last), int(s.next)
		v := uint8((lo&^s.nextHi | hi&s.nextHi) >> (s.nextShift & 63)) // e's count
		lo, hi = lo+s.add[0], hi+s.add[1]
		if v&s.citizen != 0 { // (from the span, not a table read of e)
			// A relay: e is a citizen square with pebbles.
			if sowings >= maxSowings {
				break
			}
			c, n = e, v
			l := &cellLane[c&15]
			lo, hi = lo&l.keep[0], hi&l.keep[1]
			continue
		}
		// Not a relay: e is empty, or a mandarin square. Either way the
		// capture rule decides what follows, in one loop with a single
		// branch a step: a step captures t, the cell after e, when t is
		// occupied and nothing ends the turn at e first. held is not zero
		// when something does: e is occupied (a mandarin square with
		// pebbles or its stone, or after a capture any occupied cell), or
		// e is an empty mandarin square under the strict rule.
		stones := b2u(p.Stone[0])<<LeftMandarin | b2u(p.Stone[1])<<RightMandarin
		stop := stones // cells that end the turn when reached empty of pebbles
		if r.StrictMandarinStop {
			stop = 1<<LeftMandarin | 1<<RightMandarin
		}
		held := uint64(v) | uint64(stop>>uint(e&15)&1)
		next, skip := &nextCell[m.Dir()&1], &skipCell[m.Dir()&1]
		// The first t comes with the span and each next one from skip,
		// so that reading t's count never waits for a table read of e:
		// the turn is a chain of dependent steps, and every table read
		// on it costs several cycles.
		t := int(s.after)
		young := p.Ply < r.YoungPlies
		st := &p.Stores[p.ToMove&1]
		pebbles, mandarins := st.Pebbles, st.Mandarins
		for {
			stone := stones >> uint(t&15) & 1
			l := &cellLane[t&15]
			v := l.count(lo, hi)
			// free is all ones unless held: (held|-held)>>63 is 1 exactly
			// when held is not zero.
			free := (held|-held)>>63 - 1
			if (uint64(v)|uint64(stone))&free == 0 {
				break
			}
			if young && stone != 0 && v < r.YoungMin {
				break
			}
			lo, hi = lo&l.keep[0], hi&l.keep[1]
			pebbles += v
			mandarins += uint8(stone)
			stones &^= stone << uint(t&15)
			e, t = int(next[t&15]), int(skip[t&15])
			held = uint64(cellLane[e&15].count(lo, hi)) | uint64(stones>>uint(e&15)&1)
		}
		st.Pebbles, st.Mandarins = pebbles, mandarins
		p.Stone[0] = stones>>LeftMandarin&1 != 0
		p.Stone[1] = stones>>RightMandarin&1 != 0
		break
	}
	binary.LittleEndian.PutUint64(p.Cells[0:8], lo)
	binary.LittleEndian.PutUint32(p.Cells[8:12], uint32(hi))
	// The usual end of a turn, decided from the words in hand: a
	// mandarin square still occupied and a non-empty row for the next
	// mover. Anything else takes the full checks of endTurn.
	mandarins := lo&(0xff<<(8*LeftMandarin)) | hi&(0xff<<(8*(RightMandarin-8))) | uint64(b2u(p.Stone[0])|b2u(p.Stone[1]))
	other := (p.ToMove ^ 1) & 1
	if mandarins != 0 && lo&rowWords[other][0]|hi&rowWords[other][1] != 0 {
		p.ToMove ^= 1
		p.Ply++
		return EndNone
	}
	return p.endTurn(nil)
}

// endTurn passes the turn and makes the checks that follow it.
func (p *Position) endTurn(tr *Trace) End {
	p.ToMove ^= 1
	p.Ply++
	end := EndNone
	switch {
	case p.MandarinsEmpty():
		end = EndMandarins
	case p.rowEmpty(p.ToMove) && !p.refill(tr):
		end = EndNoRefill
	}
	if end != EndNone && tr != nil {
		tr.end(p, end)
	}
	return end
}

// After returns the position after playing m in p, and how the game ended
// (EndNone if it goes on): Play as a value.
func (p Position) After(m Move, r *Rules, tr *Trace) (Position, End) {
	end := p.Play(m, r, tr)
	return p, end
}

// citizen[c] is 0xff for a citizen square and 0 for a mandarin square: a
// mask that keeps a count only where it can be picked up.
var citizen = [16]uint8{0xff, 0xff, 0xff, 0xff, 0xff, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0}

// nextCell[d][c] is the cell after c in direction d. Tables indexed by
// cell have 16 entries and are indexed with c&15, which lets the compiler
// drop the bounds checks in the hot loops.
var nextCell = [2][16]uint8{
	{11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
	{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0},
}

// skipCell[d][c] is the cell two after c in direction d.
var skipCell = func() (t [2][16]uint8) {
	for d := range 2 {
		for c := range NumCells {
			t[d][c] = nextCell[d][nextCell[d][c]]
		}
	}
	return t
}()

// step returns the cell after c in direction d.
func step(c int, d Dir) int { return int(nextCell[d&1][c&15]) }

// lanes holds the twelve cell counts as byte lanes of two words (cells
// 0–7, cells 8–11), so that a whole sowing is one addition. No cell ever
// holds more than 70, so lanes never carry into each other.
type lanes [2]uint64

// fullLap adds one pebble to every cell.
var fullLap = lanes{0x0101010101010101, 0x01010101}

// A lane says where a cell's count lies in the words lo (cells 0–7) and hi
// (cells 8–11) of lanes: everything Play needs to read or empty the cell
// with a few logical operations.
type lane struct {
	keep  lanes  // all ones but the cell's byte: AND empties the cell
	hi    uint64 // all ones when the cell is in hi
	shift uint8  // 8 × (cell mod 8)
	cell  uint8
}

// count returns the cell's count in lo and hi.
func (l *lane) count(lo, hi uint64) uint8 {
	return uint8((lo&^l.hi | hi&l.hi) >> (l.shift & 63))
}

// cellLane[c] is cell c's lane; moveLane[m] is the lane of move m's cell.
var (
	cellLane = func() (t [16]lane) {
		for c := range NumCells {
			t[c] = lane{keep: lanes{^uint64(0), ^uint64(0)}, hi: -uint64(c / 8), shift: uint8(8 * (c % 8)), cell: uint8(c)}
			t[c].keep[c/8] &^= 0xff << (8 * (c % 8))
		}
		return t
	}()
	moveLane = func() (t [32]lane) {
		for m := range 2 * NumSquares {
			t[m] = cellLane[Move(m).Cell()]
		}
		return t
	}()
)

// rowOnes[pl] adds one pebble to each square of pl's row; rowWords[pl]
// selects pl's row.
var (
	rowOnes  = rowLanes(1)
	rowWords = rowLanes(0xff)
)

// rowLanes returns for each player the lanes holding v on each square of
// their row.
func rowLanes(v uint64) (t [2]lanes) {
	for pl := range 2 {
		for _, c := range Player(pl).Row() {
			t[pl][c/8] |= v << (8 * (c % 8))
		}
	}
	return t
}

// A span is what sowing fewer than 12 pebbles does to the cells: one more
// pebble on each cell it covers, where the last one falls, and the cell
// after that, with where next's count lies in the lanes (see cell).
type span struct {
	add        lanes
	nextHi     uint64 // all ones when next is one of cells 8–11
	last, next uint8
	nextShift  uint8 // 8 × (next % 8)
	after      uint8 // the cell after next
	citizen    uint8 // 0xff when next is a citizen square, 0 for a mandarin square
}

// spans[d][c][n] is the span of n pebbles (0–11) sown from cell c in
// direction d.
var spans = func() (t [2][16][16]span) {
	for d := Left; d <= Right; d++ {
		for c := range NumCells {
			for n := range NumCells {
				s := &t[d][c][n]
				last := c
				for range n {
					last = step(last, d)
					s.add[last/8] += 1 << (8 * (last % 8))
				}
				next := step(last, d)
				s.last, s.next, s.after = uint8(last), uint8(next), uint8(step(next, d))
				s.citizen = citizen[next]
				s.nextHi, s.nextShift = -uint64(next/8), uint8(8*(next%8))
			}
		}
	}
	return t
}()

// playTraced is Play recording every step in tr: the same rules, played
// pebble by pebble on the cells, for clarity rather than speed.
func (p *Position) playTraced(m Move, r *Rules, tr *Trace) End {
	me, d := p.ToMove, m.Dir()
	c := m.Cell()
	n := p.Cells[c]
	p.Cells[c] = 0
	tr.add(Event{Kind: EvPickUp, Player: me, Cell: int8(c), Count: n})
	why, at := p.sowTraced(c, n, d, r, tr)
	tr.add(Event{Kind: EvStop, Player: me, Cell: int8(at), Reason: uint8(why)})
	return p.endTurn(tr)
}

// sowTraced sows n pebbles picked up from cell c in direction d, with the
// relays and captures that follow, and returns why the turn stopped and
// at which cell.
func (p *Position) sowTraced(c int, n uint8, d Dir, r *Rules, tr *Trace) (StopReason, int) {
	me := p.ToMove
	for sowings := 1; ; sowings++ {
		for ; n > 0; n-- {
			c = step(c, d)
			p.Cells[c]++
			tr.add(Event{Kind: EvDrop, Player: me, Cell: int8(c), Count: p.Cells[c]})
		}
		e := step(c, d)
		if v := p.Cells[e]; v != 0 {
			switch {
			case IsMandarin(e):
				return StopMandarin, e
			case sowings >= maxSowings:
				return StopRelayLimit, e
			}
			c, n = e, v
			p.Cells[c] = 0
			tr.add(Event{Kind: EvRelay, Player: me, Cell: int8(c), Count: n})
			continue
		}
		if IsMandarin(e) {
			if p.Stone[stoneIndex(e)] {
				return StopMandarin, e
			}
			if r.StrictMandarinStop {
				return StopStrictMandarin, e
			}
		}
		return p.captureTraced(e, d, r, tr)
	}
}

// captureTraced takes, from the empty cell e on, each occupied cell that
// follows a single empty one, and returns why the captures stopped and
// at which cell.
func (p *Position) captureTraced(e int, d Dir, r *Rules, tr *Trace) (StopReason, int) {
	me := p.ToMove
	st := &p.Stores[me]
	why := StopDoubleEmpty
	for {
		t := step(e, d)
		v, stone := p.Cells[t], IsMandarin(t) && p.Stone[stoneIndex(t)]
		if v == 0 && !stone {
			return why, t
		}
		if stone && p.Ply < r.YoungPlies && v < r.YoungMin {
			return StopYoungMandarin, t
		}
		p.Cells[t] = 0
		st.Pebbles += v
		points := v
		if stone {
			st.Mandarins++
			p.Stone[stoneIndex(t)] = false
			points += StoneValue
		}
		tr.add(Event{Kind: EvCapture, Player: me, Cell: int8(t), Count: v, Stone: stone, Points: points})
		why = StopAfterCapture
		e = step(t, d)
		if p.Occupied(e) {
			return why, e
		}
	}
}

// refill makes the thả cá for the side to move, whose row is empty:
// exchanging a captured mandarin, then borrowing from the other player if
// need be. It reports false, changing nothing, when the two stores cannot
// supply five pebbles.
func (p *Position) refill(tr *Trace) bool {
	if !p.canRefill() {
		return false
	}
	me := p.ToMove
	mine, theirs := &p.Stores[me], &p.Stores[me^1]
	exchange := func(pl Player, s *Store) {
		s.Mandarins--
		s.Pebbles += StoneValue
		if tr != nil {
			tr.add(Event{Kind: EvExchange, Player: pl, Cell: -1, Count: StoneValue})
		}
	}
	if mine.Pebbles < RowPebbles && mine.Mandarins > 0 {
		exchange(me, mine)
	}
	if mine.Pebbles >= RowPebbles {
		mine.Pebbles -= RowPebbles
	} else {
		short := RowPebbles - mine.Pebbles
		if theirs.Pebbles < short {
			exchange(me^1, theirs)
		}
		theirs.Pebbles -= short
		mine.Pebbles = 0
		mine.Debt += uint16(short)
		if tr != nil {
			tr.add(Event{Kind: EvBorrow, Player: me, Cell: -1, Count: short, Debt: mine.Debt})
		}
	}
	// One pebble on each square of the row, as whole-word additions (see
	// rowBytes on why words).
	row := &rowOnes[me&1]
	binary.LittleEndian.PutUint64(p.Cells[0:8], binary.LittleEndian.Uint64(p.Cells[0:8])+row[0])
	binary.LittleEndian.PutUint32(p.Cells[8:12], binary.LittleEndian.Uint32(p.Cells[8:12])+uint32(row[1]))
	s := rowStart[me]
	if tr != nil {
		tr.add(Event{Kind: EvRefill, Player: me, Cell: int8(s), Count: RowPebbles})
	}
	return true
}
