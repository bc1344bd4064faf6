package ai

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"oanquan/rules"
)

// randomGame plays up to plies random moves from the start under r and
// returns the game (which may be over).
func randomGame(t testing.TB, r rules.Rules, rng *rand.Rand, plies int) *rules.Game {
	t.Helper()
	g, err := rules.NewGame(r, r.Start())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < plies && !g.Over(); i++ {
		ms := g.LegalMoves(nil)
		if _, err := g.Play(ms[rng.IntN(len(ms))], nil); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func TestParseLevel(t *testing.T) {
	for _, l := range []Level{Easy, Medium, Hard} {
		got, err := ParseLevel(l.String())
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v", l.String(), got, err, l)
		}
	}
	for _, s := range []string{"", "Hard", "expert", "hard "} {
		if _, err := ParseLevel(s); err == nil {
			t.Errorf("ParseLevel(%q): no error", s)
		}
	}
}

// TestSearchGameOver: on a position where the game is over (each end a
// position shows: both mandarins taken, no refill, the ply limit; and the
// last position of a game played out), Search at every level and Hints
// answer ErrNoMove.
func TestSearchGameOver(t *testing.T) {
	var r rules.Rules
	mandarins := rules.Position{ // both mandarin squares empty
		Cells:  [rules.NumCells]uint8{3, 0, 0, 1, 0, 0, 0, 2, 0, 0, 4, 0},
		Stores: [2]rules.Store{{Pebbles: 24, Mandarins: 1}, {Pebbles: 16, Mandarins: 1}},
	}
	noRefill := rules.Position{ // player 0's row is empty, and the stores hold 4 pebbles
		Cells:  [rules.NumCells]uint8{10, 10, 10, 10, 6, 0, 0, 0, 0, 0, 0, 0},
		Stone:  [2]bool{true, true},
		Stores: [2]rules.Store{{Pebbles: 2}, {Pebbles: 2}},
	}
	plyLimit := r.Start()
	plyLimit.Ply = rules.MaxPlies
	// And the last position of a game played to its end, each side
	// sowing its lowest square to the right (a game over by repetition
	// would not do: that end is in the game's history, not the position).
	played, err := rules.NewGame(r, r.Start())
	if err != nil {
		t.Fatal(err)
	}
	for !played.Over() {
		if _, err := played.Play(played.LegalMoves(nil)[1], nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		pos  rules.Position
		want rules.End
	}{
		{mandarins, rules.EndMandarins},
		{noRefill, rules.EndNoRefill},
		{plyLimit, rules.EndPlyLimit},
		{played.Position(), played.End()},
	} {
		if got := c.pos.Status(); got != c.want || got == rules.EndNone {
			t.Fatalf("Status(%v) = %v, want %v (the test's position is wrong)", c.pos, got, c.want)
		}
		for _, lv := range []Level{Easy, Medium, Hard} {
			if _, err := Search(context.Background(), c.pos, Limits{Level: lv, Depth: 2}); !errors.Is(err, ErrNoMove) {
				t.Errorf("Search(%v, %v) over by %v: error = %v, want ErrNoMove", c.pos, lv, c.want, err)
			}
		}
		if _, err := Hints(context.Background(), c.pos, Limits{Depth: 2}); !errors.Is(err, ErrNoMove) {
			t.Errorf("Hints(%v) over by %v: error = %v, want ErrNoMove", c.pos, c.want, err)
		}
	}
}

// TestSearchLegal checks every level's move, and the principal variation,
// in positions from random games, with and without variants.
func TestSearchLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	variants := []string{"", "young-mandarin", "strict-mandarin-stop", "pebble-mandarins"}
	for i := range 60 {
		var r rules.Rules
		if v := variants[i%len(variants)]; v != "" {
			if err := r.Enable(v); err != nil {
				t.Fatal(err)
			}
		}
		g := randomGame(t, r, rng, rng.IntN(50))
		if g.Over() {
			continue
		}
		pos := g.Position()
		for _, lv := range []Level{Easy, Medium, Hard} {
			lim := Limits{Level: lv, Depth: 1 + i%5, Seed: uint64(i), Rules: r, History: g.History(), Threads: 1 + i%2}
			res, err := Search(context.Background(), pos, lim)
			if err != nil {
				t.Fatalf("Search(%v, %v): %v", pos, lv, err)
			}
			if err := pos.Legal(res.Move); err != nil {
				t.Fatalf("Search(%v, %v) = %v: %v", pos, lv, res.Move, err)
			}
			if len(res.PV) == 0 || res.PV[0] != res.Move {
				t.Fatalf("Search(%v, %v): PV %v does not start with %v", pos, lv, res.PV, res.Move)
			}
			p := pos
			for _, m := range res.PV {
				if err := p.Legal(m); err != nil {
					t.Fatalf("Search(%v, %v): PV %v: %v", pos, lv, res.PV, err)
				}
				if p.Play(m, &r, nil) != rules.EndNone {
					break
				}
			}
		}
	}
}

func TestSearchDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for i := range 10 {
		g := randomGame(t, rules.Rules{}, rng, 2+i)
		pos := g.Position()
		for _, lv := range []Level{Easy, Medium, Hard} {
			lim := Limits{Level: lv, Depth: 6, Seed: uint64(i), MoveTime: time.Hour}
			a, _ := Search(context.Background(), pos, lim)
			b, _ := Search(context.Background(), pos, lim)
			if a.Move != b.Move || a.Score != b.Score || a.Nodes != b.Nodes || !slices.Equal(a.PV, b.PV) {
				t.Errorf("Search(%v, %v) twice: %+v, then %+v", pos, lv, a, b)
			}
		}
	}
}

func TestSearchCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var r rules.Rules
	res, err := Search(ctx, r.Start(), Limits{Level: Hard})
	if err != nil {
		t.Fatal(err)
	}
	start := r.Start()
	if err := start.Legal(res.Move); err != nil {
		t.Errorf("Search(cancelled) = %v: %v", res.Move, err)
	}
}

func TestHintsCoverEveryMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range 10 {
		g := randomGame(t, rules.Rules{}, rng, 3*i)
		if g.Over() {
			continue
		}
		pos := g.Position()
		hints, err := Hints(context.Background(), pos, Limits{Depth: 4})
		if err != nil {
			t.Fatal(err)
		}
		var got []rules.Move
		for j, h := range hints {
			got = append(got, h.Move)
			if j > 0 && h.Score > hints[j-1].Score {
				t.Errorf("Hints(%v): not best first: %v", pos, hints)
			}
		}
		slices.Sort(got)
		if want := pos.LegalMoves(nil); !slices.Equal(got, want) {
			t.Errorf("Hints(%v) moves = %v, want %v", pos, got, want)
		}
	}
}

// TestTableKept checks that a Table carries what one search found to the
// next, and that other rules clear it.
func TestTableKept(t *testing.T) {
	moves, _ := Opening(rules.Rules{}, 6, 11)
	var r rules.Rules
	pos := r.Start()
	for _, m := range moves {
		pos.Play(m, &r, nil)
	}
	lim := Limits{Level: Hard, MoveTime: time.Minute, Depth: 8, Threads: 1}
	fresh, _ := Search(context.Background(), pos, lim)
	tb := new(Table)
	lim.Table = tb
	first, _ := Search(context.Background(), pos, lim)
	if first.Nodes != fresh.Nodes || first.Score != fresh.Score {
		t.Errorf("with an empty Table: %d nodes, score %d; without: %d nodes, score %d", first.Nodes, first.Score, fresh.Nodes, fresh.Score)
	}
	second, _ := Search(context.Background(), pos, lim)
	if second.Nodes*2 > first.Nodes {
		t.Errorf("the same search again with its Table: %d nodes, want well under the first's %d", second.Nodes, first.Nodes)
	}
	if err := pos.Legal(second.Move); err != nil {
		t.Errorf("second search: %v", err)
	}
	var strict rules.Rules
	if err := strict.Enable("strict-mandarin-stop"); err != nil {
		t.Fatal(err)
	}
	want, _ := Search(context.Background(), pos, Limits{Level: Hard, MoveTime: time.Minute, Depth: 8, Threads: 1, Rules: strict})
	lim.Rules = strict
	got, _ := Search(context.Background(), pos, lim)
	if got.Nodes != want.Nodes || got.Score != want.Score {
		t.Errorf("Table used under other rules: %d nodes, score %d; a new table: %d nodes, score %d", got.Nodes, got.Score, want.Nodes, want.Score)
	}
}

func TestVerdict(t *testing.T) {
	for _, tt := range []struct {
		res  Result
		want string
	}{
		{Result{Score: 6, Proven: true}, "wins by 6 with best play"},
		{Result{Score: -3, Proven: true}, "loses by 3 with best play"},
		{Result{Score: 0, Proven: true}, "draws with best play"},
		{Result{Score: 6}, ""},
	} {
		if got := tt.res.Verdict(); got != tt.want {
			t.Errorf("%+v.Verdict() = %q, want %q", tt.res, got, tt.want)
		}
	}
}
