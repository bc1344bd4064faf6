package ai

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"oanquan/rules"
)

// Player is a contestant in an arena: a level with its limits, the
// baseline alpha-beta, or a random mover.
type Player struct {
	Name   string // as given to ParsePlayer
	Random bool   // picks uniformly among the legal moves
	// AlphaBeta, when above 0, makes the player the plain alpha-beta
	// baseline (func AlphaBeta) searching this many plies.
	AlphaBeta int
	Limits    Limits // for a searching level; Seed and History are set per move
	// NoEndgames (the setting endgames=0) keeps an endgame table that
	// the arena offers every searching level away from this player.
	NoEndgames bool
}

// DefaultAlphaBetaDepth is the baseline's depth when "alphabeta" comes
// without one.
const DefaultAlphaBetaDepth = 8

// ParsePlayer reads a player: "easy", "medium", "hard", "random" or
// "alphabeta" (the plain baseline, func AlphaBeta; its one setting is
// depth=N, 1 or more, default 8: "alphabeta:depth=8"). A level may be
// followed by a colon and comma-separated settings:
// movetime=MS, depth=N, threads=N, noise=POINTS (Medium), keep=0 (Hard:
// a new transposition table for every move instead of one kept from move
// to move), and the evaluation weights row=, mobility=, pile=, tempo= (in
// 1/16 point), qdepth= (plies), lmr= (Weights.LateMoves) and endrow=
// (Weights.EndRow). For example
// "hard:movetime=200,threads=1" or "medium:depth=5".
func ParsePlayer(s string) (Player, error) {
	name, opts, _ := strings.Cut(s, ":")
	p := Player{Name: s}
	if name == "alphabeta" {
		return parseAlphaBeta(s, opts)
	}
	if name == "random" {
		p.Random = true
	} else {
		l, err := ParseLevel(name)
		if err != nil {
			return p, fmt.Errorf("player %q: %v (or random, or alphabeta)", s, err)
		}
		p.Limits.Level = l
		if l == Hard {
			p.Limits.Table = new(Table)
		}
	}
	if opts == "" {
		return p, nil
	}
	w := WeightsOf(p.Limits.Level)
	for _, kv := range strings.Split(opts, ",") {
		k, v, ok := strings.Cut(kv, "=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n < 0 {
			return p, fmt.Errorf("player %q: setting %q: want NAME=NUMBER (0 or more)", s, kv)
		}
		switch k {
		case "movetime":
			p.Limits.MoveTime = time.Duration(n) * time.Millisecond
		case "depth":
			p.Limits.Depth = n
		case "threads":
			p.Limits.Threads = n
		case "noise":
			p.Limits.Noise = n
		case "endgames":
			p.NoEndgames = n == 0
		case "keep":
			if n == 0 {
				p.Limits.Table = nil
			}
		case "row":
			w.Row = n
		case "mobility":
			w.Mobility = n
		case "pile":
			w.Pile = n
		case "tempo":
			w.Tempo = n
		case "qdepth":
			w.QDepth = n
		case "lmr":
			w.LateMoves = n
		case "endrow":
			w.EndRow = n
		default:
			return p, fmt.Errorf("player %q: unknown setting %q: want movetime, depth, threads, noise, keep, endgames, row, mobility, pile, tempo, qdepth, lmr or endrow", s, k)
		}
	}
	if w != WeightsOf(p.Limits.Level) {
		p.Limits.Eval = &w
	}
	return p, nil
}

// parseAlphaBeta reads the settings of the baseline player s.
func parseAlphaBeta(s, opts string) (Player, error) {
	p := Player{Name: s, AlphaBeta: DefaultAlphaBetaDepth}
	if opts == "" {
		return p, nil
	}
	k, v, _ := strings.Cut(opts, "=")
	n, err := strconv.Atoi(v)
	if k != "depth" || err != nil || n < 1 || n > maxPly-2 {
		return p, fmt.Errorf("player %q: settings %q: alphabeta takes only depth=N, N from 1 to %d", s, opts, maxPly-2)
	}
	p.AlphaBeta = n
	return p, nil
}

// Move chooses p's move in g, which must not be over.
func (p *Player) Move(ctx context.Context, g *rules.Game, seed uint64) (rules.Move, error) {
	pos := g.Position()
	if p.AlphaBeta > 0 {
		m, _ := AlphaBeta(pos, g.Rules(), p.AlphaBeta)
		return m, nil
	}
	if p.Random {
		ms := pos.Moves()
		return ms.Moves[mix(seed)%uint64(ms.N)], nil
	}
	lim := p.Limits
	lim.Seed = seed
	lim.Rules = g.Rules()
	lim.History = g.History()
	res, err := Search(ctx, pos, lim)
	return res.Move, err
}

// Opening returns the position after plies random legal moves from the
// start under r, chosen by seed, or false if the game ended on the way.
func Opening(r rules.Rules, plies int, seed uint64) ([]rules.Move, bool) {
	g, _ := rules.NewGame(r, r.Start())
	var moves []rules.Move
	for range plies {
		if g.Over() {
			return nil, false
		}
		ms := g.LegalMoves(nil)
		m := ms[splitmix64(&seed)%uint64(len(ms))]
		g.Play(m, nil)
		moves = append(moves, m)
	}
	return moves, !g.Over()
}

// MaxGamePlies is where PlayGame stops a game and counts the position as
// it stands: a guard that keeps a run's length bounded. The rules end
// every game (the repetition rule ignores debts, so a borrowing loop comes
// round), but their bound on a game's length is far beyond anything an
// arena can wait for; no measured game has come near this one.
const MaxGamePlies = 1000

// maxGamePlies is MaxGamePlies, lowered by a test.
var maxGamePlies = MaxGamePlies

// GameResult is the outcome of one arena game.
type GameResult struct {
	Opening []rules.Move
	AFirst  bool   // player A moved first (after the opening)
	Points  [2]int // final totals of A and B
	Plies   int
	Stopped bool             // stopped after MaxGamePlies and counted as it stood
	Time    [2]time.Duration // thinking time of A and B
	Moves   [2]int           // moves chosen by A and B
	MaxTime [2]time.Duration // longest single move of A and B
}

// Score is A's result: 1 for a win, ½ for a draw, 0 for a loss.
func (g GameResult) Score() float64 {
	switch {
	case g.Points[0] > g.Points[1]:
		return 1
	case g.Points[0] == g.Points[1]:
		return 0.5
	}
	return 0
}

// PlayGame plays one game from opening under r, with A moving next when
// aFirst is set; seed varies the players' choices. A game still going
// after MaxGamePlies is counted as it stands, as if it had ended by
// repetition.
func PlayGame(ctx context.Context, r rules.Rules, opening []rules.Move, a, b *Player, aFirst bool, seed uint64) (GameResult, error) {
	g, _ := rules.NewGame(r, r.Start())
	for _, m := range opening {
		if _, err := g.Play(m, nil); err != nil {
			return GameResult{}, err
		}
	}
	res := GameResult{Opening: opening, AFirst: aFirst}
	aSide := g.Position().ToMove
	if !aFirst {
		aSide ^= 1
	}
	for !g.Over() && res.Plies < maxGamePlies {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		i := 0
		pl := a
		if g.Position().ToMove != aSide {
			i, pl = 1, b
		}
		t := time.Now()
		m, err := pl.Move(ctx, g, seed+uint64(res.Plies)*0x9e37)
		el := time.Since(t)
		if err != nil {
			return res, err
		}
		res.Time[i] += el
		res.Moves[i]++
		res.MaxTime[i] = max(res.MaxTime[i], el)
		if _, err := g.Play(m, nil); err != nil {
			return res, fmt.Errorf("%s played an illegal move: %v", pl.Name, err)
		}
		res.Plies++
	}
	sc := g.Result().Score()
	if !g.Over() {
		res.Stopped = true
		p := g.Position()
		sc = p.Count(rules.EndRepetition).Score()
	}
	res.Points = [2]int{sc[aSide], sc[aSide^1]}
	return res, nil
}

// Stats summarises arena games from A's point of view.
type Stats struct {
	Games, Wins, Draws, Losses int
	Share                      float64 // score share: (wins + draws/2) / games
	Low, High                  float64 // its 95% interval
	Elo, EloLow, EloHigh       float64 // the Elo difference and its interval
	PointsShare                float64 // A's points over all points scored
	PointsLow, PointsHigh      float64 // its 95% interval
}

// Summarise computes Stats. Games come in pairs (the same opening with
// sides swapped, one after the other); the interval treats each pair as
// one sample, which accounts for openings that favour one side.
func Summarise(games []GameResult) Stats {
	var st Stats
	st.Games = len(games)
	var shares, pshares []float64
	var ptsA, ptsAll float64
	for i, g := range games {
		switch g.Score() {
		case 1:
			st.Wins++
		case 0.5:
			st.Draws++
		default:
			st.Losses++
		}
		ptsA += float64(g.Points[0])
		ptsAll += float64(g.Points[0] + g.Points[1])
		if i%2 == 1 {
			h := games[i-1]
			shares = append(shares, (g.Score()+h.Score())/2)
			pshares = append(pshares, float64(g.Points[0]+h.Points[0])/math.Max(1, float64(g.Points[0]+g.Points[1]+h.Points[0]+h.Points[1])))
		}
	}
	if st.Games == 0 {
		return st
	}
	st.Share = (float64(st.Wins) + float64(st.Draws)/2) / float64(st.Games)
	st.PointsShare = ptsA / math.Max(1, ptsAll)
	if len(shares) == 0 {
		shares = []float64{st.Share}
		pshares = []float64{st.PointsShare}
	}
	half := 1.96 * stderr(shares)
	st.Low, st.High = math.Max(0, st.Share-half), math.Min(1, st.Share+half)
	ph := 1.96 * stderr(pshares)
	st.PointsLow, st.PointsHigh = math.Max(0, st.PointsShare-ph), math.Min(1, st.PointsShare+ph)
	st.Elo, st.EloLow, st.EloHigh = elo(st.Share), elo(st.Low), elo(st.High)
	return st
}

// stderr is the standard error of the mean of xs.
func stderr(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	v /= float64(len(xs) - 1)
	return math.Sqrt(v / float64(len(xs)))
}

// elo converts a score share to an Elo difference (±Inf at 0 and 1).
func elo(share float64) float64 {
	return -400 * math.Log10(1/share-1)
}
