package ai

import (
	"context"
	"sync/atomic"
	"time"

	"oanquan/ai/endgames"
	"oanquan/rules"
)

const (
	maxPly = 128 // deepest line the search follows
	// inf is beyond any score, in units. Debts only grow and the
	// repetition rule ignores them, so a final difference can in
	// principle be as large as two full 16-bit debts.
	inf = 1 << 23
)

// child is a position after one move, kept for move ordering and reuse.
type child struct {
	pos   rules.Position
	end   rules.End
	move  rules.Move
	gain  int // material the move wins for its mover, in units
	order int // sort key: higher is searched first
}

// searcher is one thread's search state. The transposition table and the
// stop flag are shared; everything else is the thread's own.
type searcher struct {
	r     rules.Rules
	w     Weights
	tt    *table
	stop  *atomic.Bool
	clock *clock
	eg    *endgames.Table // the endgame table probed at every node, or nil

	nodes int64 // positions reached: moves played, as chess engines count make-move
	reps  int64 // lines ended by the repetition rule
	polls int64 // calls of stopped

	// The positions of the game and of the line being searched, for the
	// repetition rule: hashes in order, and a small counting filter so
	// that most nodes need not scan them.
	path   []uint64
	filter [1 << 12]uint8

	children [maxPly][10]child
	killers  [maxPly]rules.Move
	history  [2][20]int32
	pv       [maxPly][maxPly]rules.Move
	pvLen    [maxPly]int

	// At the root: the score of each move in the last iteration that
	// searched it to the end (hints), and whether every root move gets a
	// full window.
	allRoot    bool
	rootScores map[rules.Move]int
	noise      uint64 // helper threads perturb their move order with it

	// The best root move found so far in the current iteration, its
	// score and line: what a search stopped by the clock still knows.
	rootMove  rules.Move
	rootScore int
	rootPV    []rules.Move
}

// clock stops a search at a deadline or when its context is done.
type clock struct {
	ctx      context.Context
	deadline time.Time
	timed    bool
}

func (c *clock) expired() bool {
	if c.timed && !time.Now().Before(c.deadline) {
		return true
	}
	select {
	case <-c.ctx.Done():
		return true
	default:
		return false
	}
}

func newSearcher(r rules.Rules, w Weights, tt *table, stop *atomic.Bool, c *clock) *searcher {
	return &searcher{r: r, w: w, tt: tt, stop: stop, clock: c}
}

// push adds the position with hash h to the line and returns how many
// times it has now occurred. Positions that differ in side to move never
// match, so only every other one is compared.
func (s *searcher) push(h uint64) int {
	n := 1
	f := &s.filter[h%uint64(len(s.filter))]
	if *f > 0 {
		for i := len(s.path) - 2; i >= 0; i -= 2 {
			if s.path[i] == h {
				n++
			}
		}
	}
	*f++
	s.path = append(s.path, h)
	return n
}

func (s *searcher) pop() {
	h := s.path[len(s.path)-1]
	s.filter[h%uint64(len(s.filter))]--
	s.path = s.path[:len(s.path)-1]
}

// stopped polls the clock every few thousand nodes.
func (s *searcher) stopped() bool {
	if s.polls++; s.polls&1023 == 0 && s.clock.expired() {
		s.stop.Store(true)
	}
	return s.stop.Load()
}

// expand plays every legal move of pos into the ply's child slots and
// sorts them: the table's move first, then captures by what they gain,
// then the killer, then by history.
func (s *searcher) expand(pos *rules.Position, ply int, ttMove rules.Move) []child {
	ms := pos.Moves()
	cs := s.children[ply][:ms.N]
	before := material(pos)
	side := pos.ToMove
	for i, m := range ms.Moves[:ms.N] {
		c := &cs[i]
		c.pos = *pos
		c.move = m
		c.end = c.pos.Play(m, &s.r, nil)
		if c.end == rules.EndNone && c.pos.Ply >= rules.MaxPlies {
			c.end = rules.EndPlyLimit
		}
		s.nodes++
		// material is from the side to move's view: after the move
		// that is the opponent.
		gain := -material(&c.pos) - before
		c.gain = gain
		c.order = gain<<16 + int(s.history[side][m])
		if m == s.killers[ply] {
			c.order += 1 << 15
		}
		if m == ttMove {
			c.order = 1 << 30
		}
		if s.noise != 0 {
			c.order += int(splitmix64(&s.noise) & 0x3fff)
		}
	}
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].order > cs[j-1].order; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
	return cs
}

// negamax is a principal variation search of pos (hash h) to depth plies,
// with the window (alpha, beta), from the side to move's view, in units.
// It returns the score and what is proven of it (provedLo, provedHi): a
// bound is proven when every line it rests on was followed to the end of
// the game, so that it holds whatever the depth.
func (s *searcher) negamax(pos *rules.Position, h uint64, depth, alpha, beta, ply int) (int, uint8) {
	s.pvLen[ply] = ply
	if s.stopped() {
		return 0, 0
	}
	if s.eg != nil && ply > 0 {
		if score, proof, ok := s.probeTable(pos, alpha, beta); ok {
			return score, proof
		}
	}
	if depth <= 0 || ply >= maxPly-1 {
		return s.quiesce(pos, alpha, beta, ply, s.w.QDepth)
	}
	ttMove := rules.NoMove
	off := debtOffset(pos)
	if e, ok := s.tt.probe(h); ok {
		ttMove = e.move
		e.score += off // the table's scores leave the debts out
		if ply > 0 {
			switch {
			case e.proof == provedExact,
				e.proof&provedLo != 0 && e.score >= beta,
				e.proof&provedHi != 0 && e.score <= alpha:
				return e.score, e.proof
			case e.depth >= depth && (e.bound == boundExact || e.bound == boundLower && e.score >= beta || e.bound == boundUpper && e.score <= alpha):
				return e.score, 0
			}
		}
	}
	alpha0 := alpha
	reps0 := s.reps
	best, bestMove := -inf, rules.NoMove
	// bestProof is what is proven of best; allHi stays set while every
	// move searched is proven to score at most what it returned.
	bestProof, allHi := uint8(0), true
	cut := false
	for i, c := range s.expand(pos, ply, ttMove) {
		var score int
		var proof uint8
		s.pvLen[ply+1] = ply + 1
		if c.end != rules.EndNone {
			score, proof = -final(&c.pos, c.end), provedExact
		} else {
			ch := hashOf(&c.pos, &s.r)
			if s.push(ch) >= rules.Repetitions {
				s.reps++
				score, proof = -final(&c.pos, rules.EndRepetition), provedExact
			} else {
				full := i == 0 || ply == 0 && s.allRoot
				reduce := 0
				if !full && ply > 0 && depth >= 3 && s.w.LateMoves > 0 && i >= s.w.LateMoves && c.gain <= 0 && c.move != s.killers[ply] {
					reduce = 1
				}
				score, proof = s.searchChild(&s.children[ply][i].pos, ch, depth, alpha, beta, ply, full, reduce)
			}
			s.pop()
		}
		if s.stop.Load() {
			return best, 0
		}
		if ply == 0 && s.rootScores != nil {
			s.rootScores[c.move] = score
		}
		if proof&provedHi == 0 {
			allHi = false
		}
		if score > best {
			best, bestMove, bestProof = score, c.move, proof
			if score > alpha {
				s.pv[ply][ply] = c.move
				copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = s.pvLen[ply+1]
				if ply == 0 {
					s.rootMove, s.rootScore = c.move, score
					s.rootPV = append(s.rootPV[:0], s.pv[0][:s.pvLen[0]]...)
				}
				if !(ply == 0 && s.allRoot) {
					alpha = score
				}
			}
			if score >= beta {
				s.killers[ply] = c.move
				s.history[pos.ToMove][c.move] += int32(depth * depth)
				cut = true
				break
			}
		} else if score == best {
			bestProof |= proof & provedLo
		}
	}
	// The value is at least best when the move that scored it is proven
	// to; at most best when every move was searched and proven at most
	// what it scored.
	proof := bestProof & provedLo
	if allHi && !cut {
		proof |= provedHi
	}
	bound := boundExact
	switch {
	case best >= beta:
		bound = boundLower
	case best <= alpha0:
		bound = boundUpper
	}
	if s.reps != reps0 {
		// The score depends on the line that led here, through the
		// repetition rule: keep only the move, for ordering.
		s.tt.store(h, entry{bound: boundNone, move: bestMove})
		return best, proof
	}
	s.tt.store(h, entry{score: best - off, depth: depth, bound: bound, move: bestMove, proof: proof})
	return best, proof
}

// probeTable answers pos from the endgame table when it can: an exact
// entry, or a proven bound beyond the window. The table's bounds hold for
// every history (package endgames), so they are proofs in the search's
// sense, whatever the line.
func (s *searcher) probeTable(pos *rules.Position, alpha, beta int) (int, uint8, bool) {
	b, ok := s.eg.Probe(pos, &s.r)
	if !ok {
		return 0, 0, false
	}
	switch {
	case b.Exact():
		return unit * endgames.Final(pos, b.Lo), provedExact, true
	case b.Lo != endgames.NegInf && unit*endgames.Final(pos, b.Lo) >= beta:
		return unit * endgames.Final(pos, b.Lo), provedLo, true
	case b.Hi != endgames.PosInf && unit*endgames.Final(pos, b.Hi) <= alpha:
		return unit * endgames.Final(pos, b.Hi), provedHi, true
	}
	return 0, 0, false
}

// searchChild searches a child position: with the full window for the
// first move, and otherwise with a null window first (PVS), searching
// again with the full window only when the move turns out better. A late
// quiet move (reduce > 0) is first searched that many plies shallower,
// and again at full depth only if it does not fail low. It returns the
// score and its proof from the parent's view.
func (s *searcher) searchChild(pos *rules.Position, h uint64, depth, alpha, beta, ply int, full bool, reduce int) (int, uint8) {
	if reduce > 0 {
		score, proof := s.negamax(pos, h, depth-1-reduce, -alpha-1, -alpha, ply+1)
		if -score <= alpha || s.stop.Load() {
			return -score, flipProof(proof)
		}
	}
	if !full {
		score, proof := s.negamax(pos, h, depth-1, -alpha-1, -alpha, ply+1)
		if -score <= alpha || -score >= beta || s.stop.Load() {
			return -score, flipProof(proof)
		}
	}
	score, proof := s.negamax(pos, h, depth-1, -beta, -alpha, ply+1)
	return -score, flipProof(proof)
}

// quiesce scores a position at the search's horizon: the evaluation, or
// better for the side to move if one of its captures wins more, looking
// up to qdepth plies of captures ahead. It keeps the evaluation from
// judging a position where a big capture is about to happen. Its score is
// proven only as a lower bound, and only when a capture that ends the
// game reaches beta.
func (s *searcher) quiesce(pos *rules.Position, alpha, beta, ply, qdepth int) (int, uint8) {
	stand := s.w.evaluate(pos)
	if qdepth <= 0 || stand >= beta || ply >= maxPly-1 {
		return stand, 0
	}
	best := stand
	alpha = max(alpha, stand)
	for i, c := range s.expand(pos, ply, rules.NoMove) {
		if c.gain <= 0 {
			continue
		}
		var score int
		if c.end != rules.EndNone {
			score = -final(&c.pos, c.end)
			if score >= beta {
				return score, provedLo
			}
		} else {
			score, _ = s.quiesce(&s.children[ply][i].pos, -beta, -alpha, ply+1, qdepth-1)
			score = -score
		}
		if score > best {
			best = score
			if score >= beta {
				break
			}
			alpha = max(alpha, score)
		}
	}
	return best, 0
}
