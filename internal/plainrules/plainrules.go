// Package plainrules is a second, deliberately plain implementation of the
// whole game of shared/RULES.md: a turn sown one pebble at a time, the legal
// moves, the refill with its exchange and borrowing, the three endings and
// the final count, and the repetition rule with the game's history kept in
// a map. It is written the way anyone would write it on a first go, with
// slices, maps and ints, and none of the engine's speed tricks.
//
// It exists only as a yardstick and a cross-check: `oanquan bench` measures
// the engine's playouts against it in the same run, and its tests play many
// random games with both and require the same positions, moves, ends and
// results at every ply. Nothing plays real games with it; the engine is
// package rules.
//
// The board is the ring of package rules: cells 0–4 are squares 0–4, cell 5
// the left mandarin square, cells 6–10 squares 5–9, cell 11 the right
// mandarin square; moving right goes to the next higher cell.
package plainrules

// The fixed numbers of the game and of the engine's two guards (MaxSowings
// and MaxPlies in package rules, docs/RULES.md decisions 11 and 15).
const (
	leftMandarin  = 5
	rightMandarin = 11
	stoneValue    = 10
	refillPebbles = 5
	youngTurns    = 10 // young-mandarin: the first 10 turns (plies 0–9)
	youngPebbles  = 5  // a young mandarin square has fewer than 5 pebbles
	maxSowings    = 512
	maxPlies      = 10000
	repetitions   = 3 // the occurrence of a position that ends the game
)

// Rules are the variants of shared/RULES.md; the zero Rules is the
// standard game with player 0 first.
type Rules struct {
	YoungMandarin      bool
	StrictMandarinStop bool
	PebbleMandarins    bool
	First              int // the player who moves first, 0 or 1
}

// Store is what a player holds beside the board.
type Store struct {
	Pebbles   int
	Mandarins int
	Debt      int
}

// Position is the state between two turns.
type Position struct {
	Board  [12]int  // pebbles on each cell
	Stone  [2]bool  // the left and the right mandarin stone still on its square
	Stores [2]Store // each player's store
	ToMove int      // 0 (bottom row, squares 5–9) or 1 (top row, squares 0–4)
	Ply    int      // turns played
}

// Move is a citizen square (0–9) and a direction.
type Move struct {
	Square int
	Right  bool
}

// End says how the game ended.
type End int

// The endings, with the same meaning as rules.End.
const (
	NotOver End = iota
	MandarinsEmpty
	NoRefill
	Repetition
	PlyLimit
)

// Start returns the opening position under r.
func Start(r Rules) Position {
	var p Position
	for c := range p.Board {
		p.Board[c] = 5
	}
	if r.PebbleMandarins {
		p.Board[leftMandarin], p.Board[rightMandarin] = 10, 10
	} else {
		p.Board[leftMandarin], p.Board[rightMandarin] = 0, 0
		p.Stone = [2]bool{true, true}
	}
	p.ToMove = r.First
	return p
}

func isMandarin(c int) bool { return c == leftMandarin || c == rightMandarin }

// stoneOf returns the index in Position.Stone of mandarin cell c.
func stoneOf(c int) int {
	if c == leftMandarin {
		return 0
	}
	return 1
}

// cellOf returns the cell of citizen square s.
func cellOf(s int) int {
	if s < 5 {
		return s
	}
	return s + 1
}

// rows holds the cells of each player's five squares: player 0 has the
// bottom row, player 1 the top row.
var rows = [2][5]int{{6, 7, 8, 9, 10}, {0, 1, 2, 3, 4}}

func next(c int, right bool) int {
	if right {
		return (c + 1) % 12
	}
	return (c + 11) % 12
}

func (p *Position) occupied(c int) bool {
	return p.Board[c] > 0 || (isMandarin(c) && p.Stone[stoneOf(c)])
}

func (p *Position) mandarinsEmpty() bool {
	return !p.occupied(leftMandarin) && !p.occupied(rightMandarin)
}

func (p *Position) rowPebbles(pl int) int {
	sum := 0
	for _, c := range rows[pl] {
		sum += p.Board[c]
	}
	return sum
}

// LegalMoves appends to buf the moves of the side to move: each of their
// squares with pebbles, from the lowest number, left then right.
func (p *Position) LegalMoves(buf []Move) []Move {
	if p.mandarinsEmpty() {
		return buf
	}
	first := 5
	if p.ToMove == 1 {
		first = 0
	}
	for s := first; s < first+5; s++ {
		if p.Board[cellOf(s)] > 0 {
			buf = append(buf, Move{s, false}, Move{s, true})
		}
	}
	return buf
}

// play sows m and makes its relays and captures, then passes the turn. It
// does not refill or check for the end: Game.Play does.
func (p *Position) play(m Move, r Rules) {
	c := cellOf(m.Square)
	hand := p.Board[c]
	p.Board[c] = 0
	for sowings := 1; ; sowings++ {
		for ; hand > 0; hand-- {
			c = next(c, m.Right)
			p.Board[c]++
		}
		after := next(c, m.Right)
		if isMandarin(after) {
			if p.occupied(after) || r.StrictMandarinStop {
				break
			}
		} else if p.Board[after] > 0 {
			if sowings == maxSowings {
				break
			}
			c, hand = after, p.Board[after]
			p.Board[after] = 0
			continue
		}
		p.capture(after, m.Right, r)
		break
	}
	p.ToMove = 1 - p.ToMove
	p.Ply++
}

// capture takes, after the empty cell empty, every occupied cell that
// follows a single empty one.
func (p *Position) capture(empty int, right bool, r Rules) {
	store := &p.Stores[p.ToMove]
	for {
		t := next(empty, right)
		if !p.occupied(t) {
			return
		}
		if isMandarin(t) && p.Stone[stoneOf(t)] && r.YoungMandarin && p.Ply < youngTurns && p.Board[t] < youngPebbles {
			return
		}
		store.Pebbles += p.Board[t]
		p.Board[t] = 0
		if isMandarin(t) && p.Stone[stoneOf(t)] {
			p.Stone[stoneOf(t)] = false
			store.Mandarins++
		}
		empty = next(t, right)
		if p.occupied(empty) {
			return
		}
	}
}

// refill puts a pebble on each square of the side to move, paid from their
// store, exchanging a mandarin or borrowing if need be. It returns false,
// changing nothing, when the two stores together cannot supply five.
func (p *Position) refill() bool {
	mine, theirs := &p.Stores[p.ToMove], &p.Stores[1-p.ToMove]
	points := func(s *Store) int { return s.Pebbles + stoneValue*s.Mandarins }
	if points(mine)+points(theirs) < refillPebbles {
		return false
	}
	if mine.Pebbles < refillPebbles && mine.Mandarins > 0 {
		mine.Mandarins--
		mine.Pebbles += stoneValue
	}
	if mine.Pebbles < refillPebbles {
		short := refillPebbles - mine.Pebbles
		if theirs.Pebbles < short {
			theirs.Mandarins--
			theirs.Pebbles += stoneValue
		}
		theirs.Pebbles -= short
		mine.Pebbles += short
		mine.Debt += short
	}
	mine.Pebbles -= refillPebbles
	for _, c := range rows[p.ToMove] {
		p.Board[c]++
	}
	return true
}

// repKey is a position as the repetition rule sees it: everything but the
// ply and the debts. Its counts are bytes (none passes 70): with ints the
// key would be 144 bytes, and Go's maps keep keys over 128 bytes out of
// line, allocating one on every insert, which made a playout take 6.5 µs
// instead of 4.1 for a reason that has nothing to do with the rules.
type repKey struct {
	Board     [12]uint8
	Stone     [2]bool
	Pebbles   [2]uint8
	Mandarins [2]uint8
	ToMove    uint8
}

func (p *Position) key() repKey {
	k := repKey{Stone: p.Stone, ToMove: uint8(p.ToMove)}
	for c, n := range p.Board {
		k.Board[c] = uint8(n)
	}
	for pl, s := range p.Stores {
		k.Pebbles[pl], k.Mandarins[pl] = uint8(s.Pebbles), uint8(s.Mandarins)
	}
	return k
}

// Game is a game from a start position: the position, the moves played,
// how many times each position has occurred, and how the game ended.
type Game struct {
	Rules Rules
	Pos   Position
	Moves []Move
	End   End
	seen  map[repKey]int
}

// NewGame starts a game from start under r.
func NewGame(r Rules, start Position) *Game {
	g := &Game{seen: map[repKey]int{}}
	g.Reset(r, start)
	return g
}

// Reset starts g again from start under r, keeping its map and move list
// so that a playout allocates nothing once they have grown.
func (g *Game) Reset(r Rules, start Position) {
	g.Rules, g.Pos, g.Moves, g.End = r, start, g.Moves[:0], NotOver
	clear(g.seen)
	g.seen[start.key()] = 1
	switch {
	case start.mandarinsEmpty():
		g.End = MandarinsEmpty
	case start.rowPebbles(start.ToMove) == 0:
		g.End = NoRefill
	case start.Ply >= maxPlies:
		g.End = PlyLimit
	}
}

// LegalMoves appends the legal moves to buf: none once the game is over.
func (g *Game) LegalMoves(buf []Move) []Move {
	if g.End != NotOver {
		return buf
	}
	return g.Pos.LegalMoves(buf)
}

// Play plays m, which must be one of LegalMoves, and then makes the checks
// that end a turn in the order of RULES.md: the mandarin squares, the next
// mover's refill, the repetition, and last the bound on a game's length.
func (g *Game) Play(m Move) End {
	p := &g.Pos
	p.play(m, g.Rules)
	g.Moves = append(g.Moves, m)
	switch {
	case p.mandarinsEmpty():
		g.End = MandarinsEmpty
	case p.rowPebbles(p.ToMove) == 0 && !p.refill():
		g.End = NoRefill
	}
	k := p.key()
	g.seen[k]++
	if g.End == NotOver && g.seen[k] >= repetitions {
		g.End = Repetition
	}
	if g.End == NotOver && p.Ply >= maxPlies {
		g.End = PlyLimit
	}
	return g.End
}

// Score returns each player's final count: the store's pebbles and 10 per
// mandarin, the pebbles left on their own row, less their own debt and
// plus the other's. It is meaningful once the game is over.
func (g *Game) Score() [2]int {
	var s [2]int
	for pl := range 2 {
		mine, theirs := g.Pos.Stores[pl], g.Pos.Stores[1-pl]
		s[pl] = stoneValue*mine.Mandarins + mine.Pebbles + g.Pos.rowPebbles(pl) - mine.Debt + theirs.Debt
	}
	return s
}
