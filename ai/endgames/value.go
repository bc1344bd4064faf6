package endgames

import "oanquan/rules"

// Bounds are what is proven of a value: it lies in [Lo, Hi]. NegInf and
// PosInf stand for no bound.
type Bounds struct{ Lo, Hi int }

// The infinite bounds. A finite bound is always within ±Limit.
const (
	Limit  = 126
	NegInf = -1 << 20
	PosInf = 1 << 20
)

// Exact reports whether the bounds meet: the value is known.
func (b Bounds) Exact() bool { return b.Lo == b.Hi }

// unknown is the bound of a position outside the table.
var unknown = Bounds{NegInf, PosInf}

// standing returns the mover's total minus the opponent's if the game
// were counted now without the rows: store points and debts repaid. The
// value a table stores is the final count's difference less this.
func standing(p *rules.Position) int {
	me, op := &p.Stores[p.ToMove], &p.Stores[p.ToMove^1]
	return me.Points() - op.Points() - 2*int(me.Debt) + 2*int(op.Debt)
}

// sweep returns the mover's row less the opponent's: what the final count
// adds to the standing when the game ends here.
func sweep(p *rules.Position) int {
	return p.RowPebbles(p.ToMove) - p.RowPebbles(p.ToMove^1)
}

// Final returns the final difference (mover's total less the opponent's)
// that a value v of p gives.
func Final(p *rules.Position, v int) int { return standing(p) + v }

// child is what a move leads to, from the mover's view: the points it
// gains at once (captures, less a refill it forces on nobody: a refill
// costs the side that makes it), and the position after it.
type child struct {
	gain int            // change of the standing, mover's view
	end  rules.End      // how the game ended, or EndNone
	pos  rules.Position // the position after the move
}

// play plays m in p under the default rules.
func play(p *rules.Position, m rules.Move) child {
	var r rules.Rules
	c := *p
	end := c.Play(m, &r, nil)
	// c's standing is from the opponent's view.
	return child{gain: -standing(&c) - standing(p), end: end, pos: c}
}

// outcome is what moveBounds needs of a move's result.
type outcome struct {
	gain  int       // the child's gain
	sweep int       // the rows' difference after the move, its mover's view
	end   rules.End // how the game ended, or EndNone
}

// outcome returns ch's outcome.
func (ch *child) outcome() outcome {
	return outcome{gain: ch.gain, sweep: sweep(&ch.pos), end: ch.end}
}

// moveBounds returns the bounds of playing a move whose result is o, from
// the mover's view, given the bounds of the position after it (from its
// mover's view). repeat says whether that position may be a third
// occurrence: then the game may end there with the rows swept, and the
// bounds must cover that ending too, unless repeat is certain.
func moveBounds(o outcome, after Bounds, repeat repetition) Bounds {
	if o.end != rules.EndNone {
		v := o.gain - o.sweep
		return Bounds{v, v}
	}
	switch repeat {
	case mayRepeat:
		after.Lo, after.Hi = min(after.Lo, o.sweep), max(after.Hi, o.sweep)
	case repeats:
		after = Bounds{o.sweep, o.sweep}
	}
	return Bounds{neg(after.Hi) + o.gain, neg(after.Lo) + o.gain}.clamp()
}

// repetition says what is known of a position's occurrences before.
type repetition uint8

const (
	mayRepeat repetition = iota // it may be a third occurrence (any history)
	noRepeat                    // it is not
	repeats                     // it is: the game ends there
)

// neg negates a bound, infinities included.
func neg(v int) int {
	switch v {
	case NegInf:
		return PosInf
	case PosInf:
		return NegInf
	}
	return -v
}

// clamp turns bounds beyond ±Limit into no bound (still true, weaker).
func (b Bounds) clamp() Bounds {
	if b.Lo < -Limit {
		b.Lo = NegInf
	}
	if b.Hi > Limit {
		b.Hi = PosInf
	}
	if b.Lo > Limit {
		b.Lo = Limit
	}
	if b.Hi < -Limit {
		b.Hi = -Limit
	}
	return b
}
