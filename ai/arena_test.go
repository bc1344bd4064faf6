package ai

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"oanquan/rules"
)

// TestPlayGameStops lowers the ply limit: a game still going when it is
// reached is stopped and counted as the position stands.
func TestPlayGameStops(t *testing.T) {
	defer func(n int) { maxGamePlies = n }(maxGamePlies)
	maxGamePlies = 3
	var r rules.Rules
	opening := []rules.Move{rules.MakeMove(7, rules.Right)}
	a, b := Player{Name: "a", Random: true}, Player{Name: "b", Random: true}
	res, err := PlayGame(context.Background(), r, opening, &a, &b, true, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.Plies != 3 {
		t.Fatalf("PlayGame with a limit of 3 plies: stopped %v after %d plies, want stopped after 3", res.Stopped, res.Plies)
	}
	// Replay the game to the same point and count it.
	g, _ := rules.NewGame(r, r.Start())
	g.Play(opening[0], nil)
	aSide := g.Position().ToMove
	for i := range 3 {
		m := g.LegalMoves(nil)
		seed := uint64(1) + uint64(i)*0x9e37
		g.Play(m[mix(seed)%uint64(len(m))], nil)
	}
	p := g.Position()
	sc := p.Count(rules.EndRepetition).Score()
	if want := [2]int{sc[aSide], sc[aSide^1]}; res.Points != want {
		t.Errorf("points %v, want %v (the count of %v)", res.Points, want, p)
	}
}

// TestSummarise checks the score share and its interval on paired games.
func TestSummarise(t *testing.T) {
	win, loss, draw := GameResult{Points: [2]int{40, 30}}, GameResult{Points: [2]int{30, 40}}, GameResult{Points: [2]int{35, 35}}
	st := Summarise([]GameResult{win, loss, win, draw, win, win, win, win})
	if st.Wins != 6 || st.Draws != 1 || st.Losses != 1 || st.Share != 6.5/8 {
		t.Errorf("Summarise: %d/%d/%d share %v, want 6/1/1 share %v", st.Wins, st.Draws, st.Losses, st.Share, 6.5/8)
	}
	if !(st.Low < st.Share && st.Share < st.High) {
		t.Errorf("Summarise: interval %v–%v does not surround %v", st.Low, st.High, st.Share)
	}
}

// The baseline player: its settings, and its move against a plain
// minimax on material (no pruning) to the same depth.
func TestAlphaBetaPlayer(t *testing.T) {
	for _, tt := range []struct {
		in    string
		depth int
		bad   string
	}{
		{"alphabeta", DefaultAlphaBetaDepth, ""},
		{"alphabeta:depth=3", 3, ""},
		{"alphabeta:depth=0", 0, "depth=N"},
		{"alphabeta:movetime=100", 0, "depth=N"},
		{"alphabeta:depth=x", 0, "depth=N"},
	} {
		p, err := ParsePlayer(tt.in)
		switch {
		case tt.bad != "" && (err == nil || !strings.Contains(err.Error(), tt.bad)):
			t.Errorf("ParsePlayer(%q) = %v, want an error saying %q", tt.in, err, tt.bad)
		case tt.bad == "" && (err != nil || p.AlphaBeta != tt.depth):
			t.Errorf("ParsePlayer(%q) = depth %d, %v; want depth %d", tt.in, p.AlphaBeta, err, tt.depth)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var r rules.Rules
	for range 30 {
		g := randomGame(t, r, rng, rng.IntN(30))
		if g.Over() {
			continue
		}
		pos := g.Position()
		for depth := 1; depth <= 4; depth++ {
			m, score := AlphaBeta(pos, r, depth)
			if want := minimax(&pos, &r, depth); score != points(want) {
				t.Errorf("AlphaBeta(%v, depth %d) = %v scoring %d, minimax %d", pos, depth, m, score, points(want))
			}
			c := pos
			end := c.Play(m, &r, nil)
			got := -final(&c, end)
			if end == rules.EndNone {
				got = -minimax(&c, &r, depth-1)
			}
			if points(got) != score {
				t.Errorf("AlphaBeta(%v, depth %d): %v scores %d by minimax, not %d", pos, depth, m, points(got), score)
			}
		}
	}
}

// minimax is plain negamax on material without pruning, in units.
func minimax(p *rules.Position, r *rules.Rules, depth int) int {
	if depth <= 0 {
		return material(p)
	}
	best := -inf
	for _, m := range p.LegalMoves(nil) {
		c := *p
		v := 0
		if end := c.Play(m, r, nil); end != rules.EndNone {
			v = -final(&c, end)
		} else {
			v = -minimax(&c, r, depth-1)
		}
		best = max(best, v)
	}
	return best
}
