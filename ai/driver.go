package ai

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"oanquan/ai/endgames"
	"oanquan/rules"
)

// ErrNoMove is returned for a position where the side to move has no legal
// move: the game is over.
var ErrNoMove = errors.New("no legal move: the game is over")

// Search chooses a move for the side to move in pos. It returns ErrNoMove
// (and nothing else) when there is no legal move. It stops at the first
// of lim.MoveTime, lim.Depth, ctx's deadline or cancellation, and a proven
// result; whatever stops it, it returns a legal move.
func Search(ctx context.Context, pos rules.Position, lim Limits) (Result, error) {
	if pos.Status() != rules.EndNone || pos.Moves().N == 0 {
		return Result{}, ErrNoMove
	}
	if lim.Level <= Easy {
		return easyMove(&pos, &lim), nil
	}
	if lim.Level == Medium {
		return mediumMove(ctx, pos, lim), nil
	}
	return think(ctx, pos, lim, false).Result, nil
}

// MediumNoise is the most, in points, that Medium adds to a move's score
// at random before choosing: it plays the best move it sees when that
// stands out, and otherwise one of the near-best, as a decent club player
// would.
const MediumNoise = 6

// mediumMove scores every move with a shallow full-window search and
// picks the best after adding seeded noise to each score.
func mediumMove(ctx context.Context, pos rules.Position, lim Limits) Result {
	out := think(ctx, pos, lim, true)
	seed := lim.Seed ^ hashOf(&pos, &lim.Rules)
	noise := lim.Noise
	if noise == 0 {
		noise = MediumNoise
	}
	best, bestScore := out.Move, -inf
	for _, m := range pos.LegalMoves(nil) {
		v, ok := out.scores[m]
		if !ok {
			continue
		}
		v += int(splitmix64(&seed) % uint64(noise*unit+1))
		if v > bestScore {
			best, bestScore = m, v
		}
	}
	res := out.Result
	if best != res.Move {
		res.Move, res.Score, res.PV, res.Proven = best, points(out.scores[best]), []rules.Move{best}, false
	}
	return res
}

// Hints scores every legal move of pos from the mover's point of view,
// best first, searching each with a full window at full strength for
// lim.MoveTime (1 s if zero) or to lim.Depth; lim.Level is not used. It
// returns ErrNoMove when there is no legal move.
func Hints(ctx context.Context, pos rules.Position, lim Limits) ([]Hint, error) {
	if pos.Status() != rules.EndNone || pos.Moves().N == 0 {
		return nil, ErrNoMove
	}
	lim.Level = Hard
	out := think(ctx, pos, lim, true)
	hints := make([]Hint, 0, len(out.scores))
	for _, m := range pos.LegalMoves(nil) {
		hints = append(hints, Hint{Move: m, Score: points(out.scores[m])})
	}
	// Stable insertion sort: best first, ties in move order.
	for i := 1; i < len(hints); i++ {
		for j := i; j > 0 && hints[j].Score > hints[j-1].Score; j-- {
			hints[j], hints[j-1] = hints[j-1], hints[j]
		}
	}
	return hints, nil
}

// outcome is a search's result, with each root move's score in units
// when every root move was searched with a full window.
type outcome struct {
	Result
	scores map[rules.Move]int
}

// settings are what a search does at a level, once Limits' zero values
// are filled in.
type settings struct {
	moveTime time.Duration
	depth    int
	threads  int
	tableMB  int
	weights  Weights
}

func settingsFor(lim *Limits) settings {
	st := settings{moveTime: lim.MoveTime, depth: lim.Depth, threads: lim.Threads, tableMB: lim.TableMB, weights: WeightsOf(lim.Level)}
	if lim.Eval != nil {
		st.weights = *lim.Eval
	}
	switch lim.Level {
	case Hard:
		if st.moveTime == 0 {
			st.moveTime = HardMoveTime
		}
		if st.tableMB == 0 {
			st.tableMB = 16
		}
		if st.threads == 0 {
			st.threads = 1
			if lim.Depth == 0 {
				st.threads = min(2, runtime.GOMAXPROCS(0))
			}
		}
	default:
		if st.moveTime == 0 {
			st.moveTime = MediumMoveTime
		}
		if st.depth == 0 {
			st.depth = MediumDepth
		}
		if st.tableMB == 0 {
			st.tableMB = 2
		}
		if st.threads == 0 {
			st.threads = 1
		}
	}
	if st.depth <= 0 || st.depth > maxPly-2 {
		st.depth = maxPly - 2
	}
	return st
}

// gameHistory returns the hashes of the positions of lim.History before
// pos.
func gameHistory(pos *rules.Position, lim *Limits) []uint64 {
	h := lim.History
	if n := len(h); n > 0 && h[n-1] == *pos {
		h = h[:n-1]
	}
	out := make([]uint64, 0, len(h)+maxPly)
	for i := range h {
		out = append(out, hashOf(&h[i], &lim.Rules))
	}
	return out
}

// fromTable answers pos from lim.Endgames when the table knows its value
// exactly, and with allRoot the value of every move too: the first move
// that reaches the value, proven, at depth 0 and without a node searched.
// The game's history tells which moves end it by repetition.
func fromTable(pos *rules.Position, lim *Limits, allRoot bool) (outcome, bool) {
	if lim.Endgames == nil {
		return outcome{}, false
	}
	hist := lim.History
	if n := len(hist); n > 0 && hist[n-1] == *pos {
		hist = hist[:n-1]
	}
	seen := func(q *rules.Position) bool {
		n := 0
		for i := range hist {
			if hist[i].SameForRepetition(q) {
				n++
			}
		}
		if pos.SameForRepetition(q) {
			n++
		}
		return n >= rules.Repetitions-1
	}
	moves, best, ok := lim.Endgames.Moves(pos, &lim.Rules, seen)
	if !ok || !best.Exact() {
		return outcome{}, false
	}
	out := outcome{Result: Result{Move: rules.NoMove, Score: endgames.Final(pos, best.Lo), Proven: true}, scores: map[rules.Move]int{}}
	for _, mv := range moves {
		if out.Move == rules.NoMove && mv.Bounds.Lo >= best.Lo {
			out.Move = mv.Move // it scores at least the value: a best move
		}
		if mv.Bounds.Exact() {
			out.scores[mv.Move] = unit * endgames.Final(pos, mv.Bounds.Lo)
		} else if allRoot {
			return outcome{}, false
		}
	}
	if out.Move == rules.NoMove {
		return outcome{}, false
	}
	out.PV = []rules.Move{out.Move}
	return out, true
}

// think runs the iterative-deepening search, on several threads when
// st.threads > 1 (Lazy SMP: the helpers search the same tree with a
// perturbed move order and fill the shared table; the main thread's
// result is the answer).
func think(ctx context.Context, pos rules.Position, lim Limits, allRoot bool) outcome {
	if lim.Level != Hard {
		lim.Endgames = nil // Medium plays as it sees, table or not
	}
	if out, ok := fromTable(&pos, &lim, allRoot); ok {
		return out
	}
	st := settingsFor(&lim)
	start := time.Now()
	c := &clock{ctx: ctx, deadline: start.Add(st.moveTime), timed: true}
	var stop atomic.Bool
	var tt *table
	if lim.Table != nil {
		tt = lim.Table.get(lim.Rules, st.weights, st.tableMB)
	} else {
		tt = newTable(st.tableMB)
	}
	past := gameHistory(&pos, &lim)
	h := hashOf(&pos, &lim.Rules)

	newThread := func() *searcher {
		s := newSearcher(lim.Rules, st.weights, tt, &stop, c)
		s.eg = lim.Endgames
		for _, k := range past {
			s.push(k)
		}
		s.push(h)
		return s
	}
	var wg sync.WaitGroup
	helpers := make([]*searcher, st.threads-1)
	for i := range helpers {
		s := newThread()
		seed := lim.Seed + uint64(i) + 1
		s.noise = splitmix64(&seed) | 1
		helpers[i] = s
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := 1 + (i+1)%2; d <= st.depth && !stop.Load(); d++ {
				if _, proof := s.negamax(&pos, h, d, -inf, inf, 0); proof == provedExact {
					break
				}
			}
		}()
	}

	s := newThread()
	s.allRoot = allRoot
	s.rootScores = map[rules.Move]int{}
	out := outcome{Result: Result{Move: rules.NoMove}, scores: map[rules.Move]int{}}
	for d := 1; d <= st.depth; d++ {
		s.rootMove = rules.NoMove
		score, proof := s.negamax(&pos, h, d, -inf, inf, 0)
		if stop.Load() {
			if s.rootMove != rules.NoMove && d > 1 {
				// A move from the unfinished iteration was searched
				// to the end and beat the others searched so far.
				out.Move, out.Score, out.PV = s.rootMove, points(s.rootScore), append([]rules.Move(nil), s.rootPV...)
			}
			break
		}
		out.Move, out.Score, out.Depth = s.rootMove, points(score), d
		out.PV = append([]rules.Move(nil), s.rootPV...)
		for m, v := range s.rootScores {
			out.scores[m] = v
		}
		if proof == provedExact {
			out.Proven = true
			break
		}
		// The next iteration takes several times longer than this one:
		// do not start one that would surely be cut short.
		if time.Since(start) > st.moveTime/2 {
			break
		}
	}
	stop.Store(true)
	wg.Wait()
	out.Nodes = s.nodes
	for _, hs := range helpers {
		out.Nodes += hs.nodes
	}
	if out.Move == rules.NoMove {
		// Stopped before depth 1 finished: any legal move will do.
		out.Move = pos.Moves().Moves[0]
		out.PV = []rules.Move{out.Move}
	}
	return out
}
