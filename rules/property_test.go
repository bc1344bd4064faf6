package rules

import (
	"math/rand/v2"
	"testing"
)

// checkInvariants fails t unless p keeps what every position must: 70
// points among board and stores, no count beyond the 70 there are (a
// negative count would wrap round to a large one), a valid position.
func checkInvariants(t testing.TB, p *Position, context string) {
	t.Helper()
	board, stores := p.Points()
	if board+stores != Total {
		t.Fatalf("%s: %d points on the board and %d in the stores, want %d in all: %+v", context, board, stores, Total, *p)
	}
	for i, n := range p.Cells {
		if n > Total {
			t.Fatalf("%s: cell %d holds %d: %+v", context, i, n, *p)
		}
	}
	for i, s := range p.Stores {
		if s.Pebbles > Total || s.Mandarins > 2 || s.Debt > 10000 {
			t.Fatalf("%s: store %d is %+v", context, i, s)
		}
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("%s: %v: %+v", context, err, *p)
	}
}

// playRandomGame plays a game from start with moves chosen by pick, checking
// the invariants after every turn, and returns the number of turns. It
// fails t if the game runs past limit turns.
func playRandomGame(t testing.TB, r Rules, start Position, pick func(n int) int, limit int) int {
	g, err := NewGame(r, start)
	if err != nil {
		t.Fatalf("NewGame: %v", err)
	}
	turns := 0
	for !g.Over() {
		moves := g.LegalMoves(nil)
		if len(moves) == 0 {
			t.Fatalf("no legal move in a game that is not over: %+v", g.Position())
		}
		m := moves[pick(len(moves))]
		if _, err := g.Play(m, nil); err != nil {
			t.Fatalf("Play(%v): %v", m, err)
		}
		p := g.Position()
		checkInvariants(t, &p, "after "+m.String())
		if turns++; turns > limit {
			t.Fatalf("the game did not end in %d turns", limit)
		}
	}
	res := g.Result()
	board := 0
	for _, c := range []int{LeftMandarin, RightMandarin} {
		board += int(g.pos.Cells[c])
		if g.pos.Stone[stoneIndex(c)] {
			board += StoneValue
		}
	}
	if s := res.Score(); s[0]+s[1]+board != Total {
		t.Fatalf("final count %v and %d points left on the mandarin squares: want %d in all", s, board, Total)
	}
	return turns
}

func TestRandomGamesKeepInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	games := 2000
	if testing.Short() {
		games = 200
	}
	longest := 0
	for range games {
		r := randomGameRules(rng)
		longest = max(longest, playRandomGame(t, r, r.Start(), rng.IntN, 100000))
	}
	t.Logf("%d random games, the longest %d turns", games, longest)
}

func FuzzGame(f *testing.F) {
	f.Add(uint8(0), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add(uint8(7), []byte{9, 9, 9, 9, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, variant uint8, choices []byte) {
		var r Rules
		for i, v := range Variants {
			if variant&(1<<i) != 0 {
				v.set(&r)
			}
		}
		r.First = Player(variant >> 7)
		i := 0
		pick := func(n int) int {
			if i >= len(choices) {
				i++
				return (i * 7) % n // a fixed tail, so every game ends
			}
			i++
			return int(choices[i-1]) % n
		}
		playRandomGame(t, r, r.Start(), pick, 100000)
	})
}

// The relay guard: with the bound lowered to 2 sowings, a move that would
// sow 3 times stops at the third, and the position stays valid.
func TestRelayLimit(t *testing.T) {
	defer func(n int) { maxSowings = n }(maxSowings)
	maxSowings = 2
	p := Position{
		Cells:  [12]uint8{1, 1, 1, 1, 1, 0, 2, 2, 13, 2, 2, 0},
		Stone:  [2]bool{true, true},
		Stores: [2]Store{{Pebbles: 14}, {Pebbles: 10}},
	}
	var r Rules
	var tr Trace
	untraced := p
	untraced.Play(MakeMove(7, Right), &r, nil)
	p.Play(MakeMove(7, Right), &r, &tr)
	if untraced != p {
		t.Fatalf("with and without a trace: %+v and %+v", untraced, p)
	}
	last := tr.Events[len(tr.Events)-1]
	if last.Kind != EvStop || StopReason(last.Reason) != StopRelayLimit || last.Cell != 2 {
		t.Fatalf("last event %+v, want a relay-limit stop at cell 2", last)
	}
	checkInvariants(t, &p, "after the relay limit")
}

// No move of any random game comes near the relay bound, as the argument
// at MaxSowings says.
func TestSowingsStayFarBelowTheBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	most := 0
	var tr Trace
	for range 1000 {
		r := randomGameRules(rng)
		g, _ := NewGame(r, r.Start())
		for !g.Over() {
			moves := g.LegalMoves(nil)
			tr.Reset()
			g.Play(moves[rng.IntN(len(moves))], &tr)
			n := 0
			for _, e := range tr.Events {
				if e.Kind == EvPickUp || e.Kind == EvRelay {
					n++
				}
			}
			most = max(most, n)
		}
	}
	if most >= MaxSowings/2 {
		t.Errorf("a move sowed %d times: the bound %d is too close", most, MaxSowings)
	}
	t.Logf("most sowings in one move: %d", most)
}

// The bound on a game's length: with it lowered to 6 plies, a game from
// the start ends after its sixth turn with EndPlyLimit, reported in the
// trace with the count, and the position itself reads as finished.
func TestPlyLimit(t *testing.T) {
	defer func(n uint32) { maxPlies = n }(maxPlies)
	maxPlies = 6
	var r Rules
	g, _ := NewGame(r, r.Start())
	var tr Trace
	for i := 0; !g.Over(); i++ {
		if i == 6 {
			t.Fatalf("the game goes on after %d turns: %+v", i, g.Position())
		}
		ms := g.MoveSet()
		tr.Reset()
		if _, err := g.Play(ms.Moves[i%int(ms.N)], &tr); err != nil {
			t.Fatal(err)
		}
	}
	p := g.Position()
	if g.End() != EndPlyLimit || p.Ply != 6 {
		t.Fatalf("ended by %v at ply %d, want ply-limit at 6", g.End(), p.Ply)
	}
	last := tr.Events[len(tr.Events)-1]
	if last.Kind != EvEnd || End(last.Reason) != EndPlyLimit || tr.Result.End != EndPlyLimit {
		t.Fatalf("last event %+v, result %+v: want the ply-limit ending", last, tr.Result)
	}
	if s := tr.Result.Score(); s != g.Result().Score() {
		t.Fatalf("trace count %v, game count %v", s, g.Result().Score())
	}
	if st := p.Status(); st != EndPlyLimit {
		t.Fatalf("Status of the last position: %v, want ply-limit", st)
	}
	if err := p.Legal(p.Moves().Moves[0]); err == nil {
		t.Fatal("a move is legal after the ply limit")
	}
	if g2, _ := NewGame(r, p); !g2.Over() {
		t.Fatal("a game started at the ply limit is not over")
	}
}
