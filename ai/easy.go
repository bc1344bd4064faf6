package ai

import "oanquan/rules"

// easyMove plays like a child who has learnt the rules: it looks at what
// each move captures at once and never at the reply. Most of the time it
// takes the biggest capture it sees; now and then it overlooks it, and
// among moves that capture nothing it prefers ones that look lively.
func easyMove(pos *rules.Position, lim *Limits) Result {
	seed := lim.Seed ^ hashOf(pos, &lim.Rules)
	rnd := func(n int) int { return int(splitmix64(&seed) % uint64(n)) }
	ms := pos.Moves()
	before := material(pos)
	best, bestScore, bestGain := ms.Moves[0], -inf, 0
	for _, m := range ms.Moves[:ms.N] {
		c := *pos
		end := c.Play(m, &lim.Rules, nil)
		var gain int
		if end != rules.EndNone {
			gain = -final(&c, end) - before
		} else {
			gain = -material(&c) - before
		}
		// Overlook a capture one time in four; otherwise see it, a
		// little blurred.
		seen := gain
		if gain > 0 && rnd(4) == 0 {
			seen = 0
		}
		score := seen + rnd(3*unit)
		if score > bestScore {
			best, bestScore, bestGain = m, score, gain
		}
	}
	// The score is what Easy believes: the material the move wins now.
	return Result{Move: best, Score: points(bestGain), Depth: 1, Nodes: int64(ms.N), PV: []rules.Move{best}}
}
