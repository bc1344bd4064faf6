package ai

import "oanquan/rules"

// unit is the number of internal score units in one point. The search
// works in these finer units so that the evaluation can weigh things
// worth less than a pebble; Result and Hint scores are in points.
const unit = 16

// Weights are the evaluation's parameters, in 1/16 of a point. The
// evaluation of a position, from the side to move's view, is
//
//	16·(bank − opponent's bank)
//	+ Row·(pebbles on own row − on the opponent's)
//	+ Mobility·(own non-empty squares − the opponent's)
//	+ Pile·(own squares holding 12 or more − the opponent's)
//	+ Tempo
//
// where a bank is the points in the store, less the debt, plus what the
// opponent owes: points nobody can take away any more.
type Weights struct {
	Row      int
	Mobility int
	Pile     int
	Tempo    int
	// QDepth is how many plies of captures the search still follows
	// past its horizon (quiescence search); 0 turns it off.
	QDepth int
	// LateMoves is how many moves of a node the search tries at full
	// depth before it tries the later ones that capture nothing one ply
	// shallower first (late move reductions); 0 turns that off.
	LateMoves int
	// EndRow is added to Row once both mandarin stones have left the
	// board: the game is then near its end, where each player sweeps the
	// pebbles of their own row, so a row pebble is nearly a point. 0
	// turns it off (an experiment: docs/AI.md, "What depth cannot see").
	EndRow int
}

// Default is the evaluation tuned by self-play (docs/AI.md), with which
// Hard searches.
var Default = Weights{Row: 8, Mobility: 4, Pile: 0, Tempo: 16, QDepth: 4}

// MediumWeights are Medium's: the same evaluation without the quiescence
// search, so that Medium misses a capture that lies just past its
// horizon, as a player who reads two moves ahead would.
var MediumWeights = Weights{Row: 8, Mobility: 4, Pile: 0, Tempo: 16, QDepth: 0}

// WeightsOf returns the weights a level searches with unless
// Limits.Eval says otherwise.
func WeightsOf(l Level) Weights {
	if l == Medium {
		return MediumWeights
	}
	return Default
}

// bank returns pl's points that are safe: store points less debt plus
// credit.
func bank(p *rules.Position, pl rules.Player) int {
	return p.Stores[pl].Points() - int(p.Stores[pl].Debt) + int(p.Stores[pl^1].Debt)
}

// material is the bank difference from the side to move's view, in units.
func material(p *rules.Position) int {
	me := p.ToMove
	return unit * (bank(p, me) - bank(p, me^1))
}

// rowFeatures returns the pebbles on pl's row, its non-empty squares and
// its squares holding 12 or more.
func rowFeatures(p *rules.Position, pl rules.Player) (pebbles, filled, piles int) {
	s := 0
	if pl == rules.Player0 {
		s = 6
	}
	for _, n := range p.Cells[s : s+5] {
		pebbles += int(n)
		if n != 0 {
			filled++
		}
		if n >= 12 {
			piles++
		}
	}
	return pebbles, filled, piles
}

// evaluate scores a position where the game goes on, from the side to
// move's view, in units.
func (w *Weights) evaluate(p *rules.Position) int {
	me := p.ToMove
	mp, mf, mb := rowFeatures(p, me)
	op, of, ob := rowFeatures(p, me^1)
	row := w.Row
	if !p.Stone[0] && !p.Stone[1] {
		row += w.EndRow
	}
	return material(p) + row*(mp-op) + w.Mobility*(mf-of) + w.Pile*(mb-ob) + w.Tempo
}

// final scores a position where the game has ended by end, from the side
// to move's view, in units: the exact final point difference.
func final(p *rules.Position, end rules.End) int {
	res := p.Count(end)
	me := p.ToMove
	return unit * (res.Players[me].Total - res.Players[me^1].Total)
}

// points converts internal units to points, rounding to the nearest.
func points(v int) int {
	if v >= 0 {
		return (v + unit/2) / unit
	}
	return -((-v + unit/2) / unit)
}
