package ai

import "oanquan/rules"

// AlphaBeta is the baseline player of the arena ("alphabeta:depth=N"):
// a plain fixed-depth alpha-beta search on material, the kind anyone can
// write in an afternoon, to measure Hard against (docs/AI.md). It has no
// transposition table, no move ordering (moves are tried in the order of
// rules.MoveSet), no quiescence search and no clock, and it does not know
// the repetition rule. A leaf scores the bank difference (store points
// less debt plus credit) from the mover's view; a game that ends on the
// way scores its exact final difference. It returns the best move, the
// first of equals, and its score in points; depth below 1 counts as 1.
// pos must have a legal move.
func AlphaBeta(pos rules.Position, r rules.Rules, depth int) (rules.Move, int) {
	depth = max(depth, 1)
	best, bestScore := rules.NoMove, -inf
	ms := pos.Moves()
	for _, m := range ms.Moves[:ms.N] {
		c := pos
		var v int
		if end := c.Play(m, &r, nil); end != rules.EndNone {
			v = -final(&c, end)
		} else {
			v = -plainAlphaBeta(&c, &r, depth-1, -inf, -bestScore)
		}
		if v > bestScore {
			best, bestScore = m, v
		}
	}
	return best, points(bestScore)
}

// plainAlphaBeta is AlphaBeta's negamax below the root, in units, from
// the side to move's view.
func plainAlphaBeta(p *rules.Position, r *rules.Rules, depth, alpha, beta int) int {
	if depth <= 0 {
		return material(p)
	}
	ms := p.Moves()
	best := -inf
	for _, m := range ms.Moves[:ms.N] {
		c := *p
		var v int
		if end := c.Play(m, r, nil); end != rules.EndNone {
			v = -final(&c, end)
		} else {
			v = -plainAlphaBeta(&c, r, depth-1, -beta, -max(alpha, best))
		}
		if v > best {
			best = v
			if best >= beta {
				break
			}
		}
	}
	return best
}
