package plainrules_test

import (
	"math/rand/v2"
	"testing"

	"oanquan/internal/plainrules"
	"oanquan/rules"
)

// plainOf returns p in this package's terms.
func plainOf(p rules.Position) plainrules.Position {
	q := plainrules.Position{Stone: p.Stone, ToMove: int(p.ToMove), Ply: int(p.Ply)}
	for c, n := range p.Cells {
		q.Board[c] = int(n)
	}
	for pl, s := range p.Stores {
		q.Stores[pl] = plainrules.Store{Pebbles: int(s.Pebbles), Mandarins: int(s.Mandarins), Debt: int(s.Debt)}
	}
	return q
}

func plainMove(m rules.Move) plainrules.Move {
	return plainrules.Move{Square: m.Square(), Right: m.Dir() == rules.Right}
}

// randomRules turns each variant on with probability 1/3 and picks who
// starts.
func randomRules(rng *rand.Rand) (rules.Rules, plainrules.Rules) {
	var r rules.Rules
	var q plainrules.Rules
	if rng.IntN(3) == 0 {
		r.Enable("young-mandarin")
		q.YoungMandarin = true
	}
	if rng.IntN(3) == 0 {
		r.Enable("strict-mandarin-stop")
		q.StrictMandarinStop = true
	}
	if rng.IntN(3) == 0 {
		r.Enable("pebble-mandarins")
		q.PebbleMandarins = true
	}
	r.First = rules.Player(rng.IntN(2))
	q.First = int(r.First)
	return r, q
}

// starts are positions that reach what games from the opening seldom do.
var starts = []rules.Position{
	// Player 1 borrows for a refill and the line can loop
	// (rules.TestBorrowingLoopEndsAtThirdRepetition): debts, exchanges
	// and repetitions.
	{
		Cells:  [12]uint8{1, 1, 1, 1, 1, 0, 1, 0, 0, 0, 1, 0},
		Stone:  [2]bool{true, false},
		ToMove: rules.Player1,
		Stores: [2]rules.Store{{Pebbles: 43, Mandarins: 1}, {Debt: 5}},
		Ply:    20,
	},
	// A pebble on each row and 3 points in the stores: a row soon
	// empties, and then the refill often cannot be made.
	{
		Cells:  [12]uint8{1, 0, 0, 0, 0, 22, 0, 0, 0, 0, 1, 23},
		Stone:  [2]bool{true, true},
		Stores: [2]rules.Store{{Pebbles: 2}, {Pebbles: 1}},
	},
	// Player 1's row empties after player 0's move, and the loan makes
	// player 0 exchange a mandarin.
	{
		Cells:  [12]uint8{0, 0, 0, 0, 0, 23, 0, 0, 0, 0, 1, 24},
		Stone:  [2]bool{true, false},
		Stores: [2]rules.Store{{Pebbles: 2, Mandarins: 1}, {}},
	},
	// A position that comes back after four moves
	// (rules.TestPerftMatchesReference).
	{
		Cells:  [12]uint8{1, 0, 0, 0, 0, 20, 1, 0, 0, 0, 0, 20},
		Stone:  [2]bool{true, true},
		Stores: [2]rules.Store{{Pebbles: 4}, {Pebbles: 4}},
	},
}

// TestSameGamesAsEngine plays random games with the engine (rules.Game)
// and with this package from the same random choices, and requires the
// same legal moves, position, moves played and end after every ply, and
// the same final score. Half the games start from the opening of a random
// variant, half from the positions of starts; every ending must occur.
func TestSameGamesAsEngine(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 4))
	games := 20000
	if testing.Short() {
		games = 2000
	}
	var ends [5]int
	plies := 0
	var moves []rules.Move
	var plainMoves []plainrules.Move
	for i := range games {
		r, q := randomRules(rng)
		start := r.Start()
		if k := i % (2 * len(starts)); k < len(starts) {
			r, q, start = rules.Rules{}, plainrules.Rules{}, starts[k]
		}
		g, err := rules.NewGame(r, start)
		if err != nil {
			t.Fatal(err)
		}
		h := plainrules.NewGame(q, plainOf(start))
		for {
			moves, plainMoves = g.LegalMoves(moves[:0]), h.LegalMoves(plainMoves[:0])
			if len(moves) != len(plainMoves) {
				t.Fatalf("game %d ply %d, %+v: legal moves %v, plain %v", i, plies, g.Position(), moves, plainMoves)
			}
			for j, m := range moves {
				if plainMove(m) != plainMoves[j] {
					t.Fatalf("game %d, %+v: legal moves %v, plain %v", i, g.Position(), moves, plainMoves)
				}
			}
			if g.Over() || len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			before := g.Position()
			end := g.PlayLegal(m, nil)
			plainEnd := h.Play(plainMove(m))
			plies++
			if got, want := h.Pos, plainOf(g.Position()); got != want || int(end) != int(plainEnd) {
				t.Fatalf("game %d (%+v), %v from %+v:\nplain  %+v, end %d\nengine %+v, end %v", i, r, m, before, got, plainEnd, want, end)
			}
			if len(h.Moves) != len(g.Moves()) || h.Moves[len(h.Moves)-1] != plainMove(g.Moves()[len(g.Moves())-1]) {
				t.Fatalf("game %d: moves %v, plain %v", i, g.Moves(), h.Moves)
			}
		}
		if !g.Over() || int(g.End()) != int(h.End) {
			t.Fatalf("game %d: engine over %v (%v), plain end %d", i, g.Over(), g.End(), h.End)
		}
		if got, want := h.Score(), g.Result().Score(); got != want {
			t.Fatalf("game %d ended %v in %+v: plain score %v, engine %v", i, g.End(), g.Position(), got, want)
		}
		ends[h.End]++
	}
	t.Logf("%d games, %d plies agree; ends (mandarins, no refill, repetition, ply limit): %v", games, plies, ends[1:])
	for e, name := range map[plainrules.End]string{plainrules.MandarinsEmpty: "mandarins", plainrules.NoRefill: "no refill", plainrules.Repetition: "repetition"} {
		if ends[e] == 0 {
			t.Errorf("no game ended by %s: the test does not cover that ending", name)
		}
	}
}

// TestStartMatchesEngine checks the opening of every variant.
func TestStartMatchesEngine(t *testing.T) {
	for _, v := range []plainrules.Rules{{}, {PebbleMandarins: true}, {First: 1}} {
		r := rules.Rules{First: rules.Player(v.First)}
		if v.PebbleMandarins {
			r.Enable("pebble-mandarins")
		}
		if got, want := plainrules.Start(v), plainOf(r.Start()); got != want {
			t.Errorf("Start(%+v) = %+v, engine %+v", v, got, want)
		}
	}
}
