package ai

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"oanquan/rules"
)

// same reports whether a and b are the same position for the repetition
// rule: everything but the ply and the debts (shared/RULES.md).
func same(a, b rules.Position) bool {
	a.Ply, b.Ply = 0, 0
	a.Stores[0].Debt, a.Stores[1].Debt = 0, 0
	b.Stores[0].Debt, b.Stores[1].Debt = 0, 0
	return a == b
}

// exactMaxPath is the longest line exact follows before it gives up.
var exactMaxPath = 400

// exact is the exact final point difference of p for the side to move
// with best play, by a plain alpha-beta search (no table, no move
// ordering) to the end of the game, with the repetition rule over path
// (earlier positions, p last). It gives up (ok false) after budget
// positions or on a line longer than 200 plies.
func exact(p rules.Position, r *rules.Rules, path []rules.Position, budget *int) (score int, ok bool) {
	return alphabeta(p, r, path, budget, -1000, 1000)
}

func alphabeta(p rules.Position, r *rules.Rules, path []rules.Position, budget *int, alpha, beta int) (int, bool) {
	*budget--
	if *budget < 0 || len(path) > exactMaxPath {
		return 0, false
	}
	best := -1000
	for _, m := range p.LegalMoves(nil) {
		s, ok := moveValue(p, m, r, path, budget, -beta, -max(alpha, best))
		if !ok {
			return 0, false
		}
		best = max(best, s)
		if best >= beta {
			break
		}
	}
	return best, true
}

// moveValue is the value of playing m in p for p's mover, searching the
// reply with the window (-beta, -alpha) seen from the opponent.
func moveValue(p rules.Position, m rules.Move, r *rules.Rules, path []rules.Position, budget *int, alpha, beta int) (int, bool) {
	c := p
	end := c.Play(m, r, nil)
	if end == rules.EndNone && c.Ply >= rules.MaxPlies {
		end = rules.EndPlyLimit
	}
	if end == rules.EndNone {
		n := 1
		for _, q := range path {
			if same(q, c) {
				n++
			}
		}
		if n >= rules.Repetitions {
			end = rules.EndRepetition
		}
	}
	if end != rules.EndNone {
		res := c.Count(end)
		return res.Players[p.ToMove].Total - res.Players[c.ToMove].Total, true
	}
	v, ok := alphabeta(c, r, append(path[:len(path):len(path)], c), budget, alpha, beta)
	return -v, ok
}

// provenEnds returns positions a few plies before the end of random games
// that Search proves quickly and whose exact value exact finds within
// its budget, with their games.
func provenEnds(t *testing.T, n int) []*rules.Game {
	rng := rand.New(rand.NewPCG(5, 5))
	var r rules.Rules
	var out []*rules.Game
	for tries := 0; len(out) < n && tries < 150*n; tries++ {
		g := randomGame(t, r, rng, 1000)
		back := 1 + rng.IntN(3)
		if g.Undo(back) != back || g.Over() {
			continue
		}
		lim := Limits{Level: Hard, MoveTime: time.Minute, Threads: 1, Depth: 12, History: g.History()}
		if res, _ := Search(context.Background(), g.Position(), lim); !res.Proven {
			continue
		}
		budget := 200000
		if _, ok := exact(g.Position(), &r, g.History(), &budget); ok {
			out = append(out, g)
		}
	}
	return out
}

// TestProvenIsExact checks that proven results are exact: the
// score of the move chosen, and of every move in the hints, against a plain
// alpha-beta search to the end of the game.
func TestProvenIsExact(t *testing.T) {
	games := provenEnds(t, 10)
	if len(games) < 4 {
		t.Fatalf("only %d endgames found", len(games))
	}
	var r rules.Rules
	for _, g := range games {
		pos, hist := g.Position(), g.History()
		budget := 1 << 24
		want, _ := exact(pos, &r, hist, &budget)
		lim := Limits{Level: Hard, MoveTime: time.Minute, Depth: 12, Threads: 1, History: hist}
		res, err := Search(context.Background(), pos, lim)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Proven || res.Score != want {
			t.Errorf("Search(%v) = score %d proven %v, want %d proven", pos, res.Score, res.Proven, want)
		}
		hints, err := Hints(context.Background(), pos, lim)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hints {
			budget := 1 << 24
			want, _ := moveValue(pos, h.Move, &r, hist, &budget, -1000, 1000)
			if h.Score != want {
				t.Errorf("Hints(%v): %v scores %d, want %d", pos, h.Move, h.Score, want)
			}
		}
	}
}

// TestRepetitionInHistory gives a history in which one move's result has
// already occurred twice: playing it ends the game by repetition, and the
// hint for it must be that ending's exact score.
func TestRepetitionInHistory(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	var r rules.Rules
	checked := 0
	for range 200 {
		g := randomGame(t, r, rng, 5+rng.IntN(30))
		if g.Over() {
			continue
		}
		pos := g.Position()
		other := r.Start()
		for _, m := range pos.LegalMoves(nil) {
			c := pos
			if c.Play(m, &r, nil) != rules.EndNone {
				continue
			}
			res := c.Count(rules.EndRepetition)
			want := res.Players[pos.ToMove].Total - res.Players[c.ToMove].Total
			hist := []rules.Position{other, c, other, c}
			hints, err := Hints(context.Background(), pos, Limits{Depth: 3, History: hist})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hints {
				if h.Move == m && h.Score != want {
					t.Errorf("Hints(%v) with %v twice in the history: %v scores %d, want %d (the count at the repetition)", pos, c, m, h.Score, want)
				}
			}
			checked++
			break
		}
	}
	if checked < 20 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// TestLargeDebts adds a large debt to positions that Search proves: the
// play is the same, and the count takes the debt from the debtor and gives
// it to the creditor, so the proven score must move by twice the debt.
// Debts only grow and can reach thousands of points in a game where one
// player keeps borrowing.
func TestLargeDebts(t *testing.T) {
	games := provenEnds(t, 4)
	if len(games) < 2 {
		t.Fatalf("only %d endgames found", len(games))
	}
	for _, g := range games {
		pos := g.Position()
		lim := Limits{Level: Hard, MoveTime: time.Minute, Depth: 12, Threads: 1}
		want, err := Search(context.Background(), pos, lim)
		if err != nil || !want.Proven {
			t.Fatalf("Search(%v) = %+v, %v: want a proven result", pos, want, err)
		}
		for _, debt := range []uint16{3000, 65000} {
			p := pos
			p.Stores[pos.ToMove^1].Debt += debt
			got, err := Search(context.Background(), p, lim)
			if err != nil || !got.Proven || got.Score != want.Score+2*int(debt) {
				t.Errorf("Search(%v) = score %d proven %v, %v; want %d proven", p, got.Score, got.Proven, err, want.Score+2*int(debt))
			}
		}
	}
}

// TestPack checks that table entries keep their fields, scores of either
// sign up to ±inf included.
func TestPack(t *testing.T) {
	for _, e := range []entry{
		{score: inf, depth: 255, bound: boundExact, move: rules.NoMove, proof: provedExact, gen: 63},
		{score: -inf, depth: 0, bound: boundLower, move: 7, proof: provedLo, gen: 1},
		{score: -1, depth: 17, bound: boundUpper, move: 19, proof: provedHi},
		{score: 65535 * 2 * unit, depth: 3, bound: boundNone},
	} {
		if got := unpack(pack(e)); got != e {
			t.Errorf("unpack(pack(%+v)) = %+v", e, got)
		}
	}
}

// TestPlyLimit puts positions two plies before the game's ply limit
// (rules.MaxPlies): every line ends there, so Search must prove the exact
// score of a plain search that knows the limit.
func TestPlyLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	var r rules.Rules
	checked := 0
	for range 80 {
		g := randomGame(t, r, rng, 2+rng.IntN(20))
		if g.Over() {
			continue
		}
		pos := g.Position()
		pos.Ply = rules.MaxPlies - 2
		budget := 1 << 20
		want, ok := exact(pos, &r, []rules.Position{pos}, &budget)
		if !ok {
			t.Fatalf("exact(%v) gave up", pos)
		}
		res, err := Search(context.Background(), pos, Limits{Level: Hard, MoveTime: time.Minute, Depth: 6, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Proven || res.Score != want || res.Depth > 2 {
			t.Errorf("Search(%v) = score %d proven %v depth %d, want %d proven by depth 2", pos, res.Score, res.Proven, res.Depth, want)
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// TestDebtsOnlyShiftTheScore adds debts to positions of random games:
// debts never change the play, so a search to a fixed depth must see the
// same tree (the table keys positions without debts and stores scores
// without them) and choose the same line, its score moved by twice the
// difference of the debts (up to a point of rounding); and a table filled
// by the search without debts must give the search with them its scores
// shifted the same way.
func TestDebtsOnlyShiftTheScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	var r rules.Rules
	checked := 0
	for range 40 {
		g := randomGame(t, r, rng, rng.IntN(30))
		if g.Over() {
			continue
		}
		pos := g.Position()
		lim := Limits{Level: Hard, MoveTime: time.Minute, Depth: 7, Threads: 1}
		want, err := Search(context.Background(), pos, lim)
		if err != nil {
			t.Fatal(err)
		}
		p := pos
		p.Stores[0].Debt += uint16(rng.IntN(300))
		p.Stores[1].Debt += uint16(rng.IntN(300))
		got, err := Search(context.Background(), p, lim)
		if err != nil {
			t.Fatal(err)
		}
		me := pos.ToMove
		shift := 2 * (int(p.Stores[me^1].Debt-pos.Stores[me^1].Debt) - int(p.Stores[me].Debt-pos.Stores[me].Debt))
		if d := got.Score - want.Score - shift; d < -1 || d > 1 || got.Move != want.Move || got.Nodes != want.Nodes || len(got.PV) != len(want.PV) {
			t.Errorf("Search(%v) = %v score %d nodes %d; with debts %v: %v score %d nodes %d; want the same move and nodes, the score moved by %d", pos, want.Move, want.Score, want.Nodes, p.Stores, got.Move, got.Score, got.Nodes, shift)
		}
		// A table kept from the search without debts serves the one with
		// them: its entries must come back shifted by the debts.
		lim.Table = new(Table)
		if _, err := Search(context.Background(), pos, lim); err != nil {
			t.Fatal(err)
		}
		kept, err := Search(context.Background(), p, lim)
		if err != nil {
			t.Fatal(err)
		}
		if d := kept.Score - want.Score - shift; d < -1 || d > 1 {
			t.Errorf("Search(%v) with debts %v and the table of the search without: score %d, want %d", pos, p.Stores, kept.Score, want.Score+shift)
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d positions checked", checked)
	}
}
