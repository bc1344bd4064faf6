package ai

import "oanquan/rules"

// Zobrist keys: one random word for every (cell, count), stone, store
// count and the side to move. A position's hash is the XOR of the words
// of its parts. The ply, where it matters, is folded in with a mixing
// function instead, as it has no useful bound. Debts are left out (see
// hashOf).
var (
	zCell      [rules.NumCells][128]uint64
	zStone     [2]uint64
	zPebbles   [2][256]uint64
	zMandarins [2][4]uint64
	zSide      uint64
)

// splitmix64 is a small, good 64-bit mixer (Steele, Lea and Flood's
// SplitMix); it seeds the Zobrist tables and the searches' random choices.
func splitmix64(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func mix(v uint64) uint64 {
	return splitmix64(&v)
}

func init() {
	seed := uint64(0x0a17a9)
	for c := range zCell {
		for n := range zCell[c] {
			zCell[c][n] = splitmix64(&seed)
		}
	}
	for i := range 2 {
		zStone[i] = splitmix64(&seed)
		for n := range zPebbles[i] {
			zPebbles[i][n] = splitmix64(&seed)
		}
		for n := range zMandarins[i] {
			zMandarins[i][n] = splitmix64(&seed)
		}
	}
	zSide = splitmix64(&seed)
}

// hashOf returns the Zobrist hash of p under r: everything the repetition
// rule compares (board, stones, store pebbles and mandarins, side to
// move), plus the ply while a young-mandarin rule still reads it or the
// game's ply limit (rules.MaxPlies) is within a search's reach. Debts are
// left out, as the repetition rule leaves them out: a debt never changes
// what can be played, only the final count, by a fixed amount, so the
// table keeps scores without it and adds it back (debtOffset). It is
// computed whole rather than updated move by move: rules.Position.Play
// does not say which cells a move changed, and twenty table reads cost
// less than a sowing.
func hashOf(p *rules.Position, r *rules.Rules) uint64 {
	h := uint64(0)
	for c, n := range p.Cells {
		h ^= zCell[c][n&127]
	}
	if p.Stone[0] {
		h ^= zStone[0]
	}
	if p.Stone[1] {
		h ^= zStone[1]
	}
	for i, s := range p.Stores {
		h ^= zPebbles[i][s.Pebbles] ^ zMandarins[i][s.Mandarins&3]
	}
	if p.ToMove != 0 {
		h ^= zSide
	}
	if p.Ply < r.YoungPlies || p.Ply+maxPly >= rules.MaxPlies {
		h ^= mix(uint64(p.Ply) + 1<<40)
	}
	return h
}

// debtOffset is what the debts of p add to its value for the side to
// move, in units: at the count the mover pays its own debt and collects
// the opponent's, so the final difference moves by twice each. Debts
// never change the play, so every score of p, exact, bound or evaluated
// (the evaluation's bank counts debts the same way), is the score of p
// without debts plus debtOffset(p). The table stores scores less the
// offset, so that positions that differ only in their debts share an
// entry.
func debtOffset(p *rules.Position) int {
	me := p.ToMove & 1
	return 2 * unit * (int(p.Stores[me^1].Debt) - int(p.Stores[me].Debt))
}
