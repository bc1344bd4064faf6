package rules_test

import (
	"testing"

	"oanquan/notation"
	"oanquan/rules"
)

func mustPosition(t *testing.T, s string) rules.Position {
	t.Helper()
	p, err := notation.ParsePosition(s)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", s, err)
	}
	return p
}

func mustMove(t *testing.T, s string) rules.Move {
	t.Helper()
	m, err := notation.ParseMove(s)
	if err != nil {
		t.Fatalf("ParseMove(%q): %v", s, err)
	}
	return m
}

func rulesWith(t *testing.T, variants ...string) rules.Rules {
	t.Helper()
	var r rules.Rules
	for _, v := range variants {
		if err := r.Enable(v); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// A turn on a hand-built position: every case was worked out by hand from
// RULES.md, pebble by pebble; the comments show the reasoning.
var turnTests = []struct {
	name     string
	variants []string
	before   string
	move     string
	after    string
	end      rules.End
	stop     rules.StopReason
	captured []int // points of each capture, in order
}{
	{
		// Seed 001: sow 3 to the right, the fourth square holds 6: take
		// them and go on (relay). The 6 go round past the right mandarin
		// to squares 0–4 and stop before the left mandarin's stone.
		name:   "seed relay",
		before: "5/5/5/5/5/0*/3/0/0/0/6/0* 0 10,0,0 6,0,0 0",
		move:   "5R",
		after:  "6/6/6/6/6/0*/0/1/1/1/0/1* 1 10,0,0 6,0,0 1",
		stop:   rules.StopMandarin,
	},
	{
		// Seed 001: the next square is empty and the one after holds 4:
		// "4 pebbles captured!"; then an empty square and a mandarin square
		// with its stone and 2 pebbles: 10 + 2 = 12 more.
		name:     "seed capture chain",
		before:   "5/5/5/5/5/2*/0/4/0/3/1/0* 0 10,0,0 5,0,0 0",
		move:     "9L",
		after:    "5/5/5/5/5/0/0/0/0/4/0/0* 1 16,1,0 5,0,0 1",
		stop:     rules.StopAfterCapture,
		captured: []int{4, 12},
	},
	{
		// Seed 001: the last pebble falls just before a mandarin square
		// that still has its stone: the turn ends.
		name:   "seed stop before mandarin",
		before: "5/5/5/5/5/0*/5/5/5/1/0/0* 0 9,0,0 0,0,0 0",
		move:   "8R",
		after:  "5/5/5/5/5/0*/5/5/5/0/1/0* 1 9,0,0 0,0,0 1",
		stop:   rules.StopMandarin,
	},
	{
		// 13 pebbles from square 7 go once round the ring, the emptied
		// square included, and one more lands on square 8; square 9's 3
		// relay to squares R, 0, 1; square 2's 2 relay to 3 and 4; the left
		// mandarin's stone stops the turn.
		name:   "relay round the ring",
		before: "1/1/1/1/1/0*/2/2/13/2/2/0* 0 14,0,0 10,0,0 0",
		move:   "7R",
		after:  "3/3/0/3/3/1*/3/3/1/4/0/2* 1 14,0,0 10,0,0 1",
		stop:   rules.StopMandarin,
	},
	{
		// The right mandarin square is empty (its stone was taken), so it
		// counts as the empty square before a capture of square 0.
		name:     "capture across an empty mandarin square",
		before:   "4/3/2/2/2/0*/5/5/5/1/0/0 0 11,1,0 10,0,0 12",
		move:     "8R",
		after:    "0/3/2/2/2/0*/5/5/5/0/1/0 1 15,1,0 10,0,0 13",
		stop:     rules.StopAfterCapture,
		captured: []int{4},
	},
	{
		name:     "strict mandarin stop at an empty mandarin square",
		variants: []string{"strict-mandarin-stop"},
		before:   "4/3/2/2/2/0*/5/5/5/1/0/0 0 11,1,0 10,0,0 12",
		move:     "8R",
		after:    "4/3/2/2/2/0*/5/5/5/0/1/0 1 11,1,0 10,0,0 13",
		stop:     rules.StopStrictMandarin,
	},
	{
		// Last pebble on square 7; 8 empty, 9 captured; the empty right
		// mandarin square, square 0 captured; square 1 is occupied: stop.
		name:     "chain wraps from square 9 to square 0",
		before:   "3/2/5/5/5/0*/5/1/0/0/4/0 0 10,1,0 10,0,0 0",
		move:     "6R",
		after:    "0/2/5/5/5/0*/5/0/1/0/0/0 1 17,1,0 10,0,0 1",
		stop:     rules.StopAfterCapture,
		captured: []int{4, 3},
	},
	{
		name:   "double empty",
		before: "5/5/5/5/5/0*/1/0/0/0/5/0* 0 19,0,0 0,0,0 0",
		move:   "5R",
		after:  "5/5/5/5/5/0*/0/1/0/0/5/0* 1 19,0,0 0,0,0 1",
		stop:   rules.StopDoubleEmpty,
	},
	{
		// The chain reaches the left mandarin, stone and 2 pebbles, in the
		// first 10 turns: young, so it stays and the turn ends.
		name:     "young mandarin",
		variants: []string{"young-mandarin"},
		before:   "5/5/5/5/5/2*/0/4/0/3/1/0* 0 10,0,0 5,0,0 0",
		move:     "9L",
		after:    "5/5/5/5/5/2*/0/0/0/4/0/0* 1 14,0,0 5,0,0 1",
		stop:     rules.StopYoungMandarin,
		captured: []int{4},
	},
	{
		name:     "young mandarin grown up after 10 turns",
		variants: []string{"young-mandarin"},
		before:   "5/5/5/5/5/2*/0/4/0/3/1/0* 0 10,0,0 5,0,0 10",
		move:     "9L",
		after:    "5/5/5/5/5/0/0/0/0/4/0/0* 1 16,1,0 5,0,0 11",
		stop:     rules.StopAfterCapture,
		captured: []int{4, 12},
	},
	{
		name:     "young mandarin with 5 pebbles can be captured",
		variants: []string{"young-mandarin"},
		before:   "5/5/5/5/2/5*/0/4/0/3/1/0* 0 10,0,0 5,0,0 3",
		move:     "9L",
		after:    "5/5/5/5/2/0/0/0/0/4/0/0* 1 19,1,0 5,0,0 4",
		stop:     rules.StopAfterCapture,
		captured: []int{4, 15},
	},
	{
		// Player 1's row is empty after player 0's turn: 5 pebbles from
		// player 1's store, one on each square.
		name:   "refill from the store",
		before: "0/0/0/0/0/3*/1/0/0/0/2/4* 0 20,0,0 20,0,0 30",
		move:   "5R",
		after:  "1/1/1/1/1/3*/0/1/0/0/2/4* 1 20,0,0 15,0,0 31",
		stop:   rules.StopDoubleEmpty,
	},
	{
		name:   "refill with a mandarin exchange",
		before: "0/0/0/0/0/3/1/0/0/0/2/4* 0 37,0,0 3,1,0 30",
		move:   "5R",
		after:  "1/1/1/1/1/3/0/1/0/0/2/4* 1 37,0,0 8,0,0 31",
		stop:   rules.StopDoubleEmpty,
	},
	{
		name:   "refill with borrowing",
		before: "0/0/0/0/0/3*/1/0/0/0/2/4* 0 38,0,0 2,0,0 30",
		move:   "5R",
		after:  "1/1/1/1/1/3*/0/1/0/0/2/4* 1 35,0,0 0,0,3 31",
		stop:   rules.StopDoubleEmpty,
	},
	{
		// The lender has 1 pebble and a mandarin: they exchange it to lend 3.
		name:   "refill with borrowing from a lender who exchanges",
		before: "0/0/0/0/0/3/1/0/0/0/39/4* 0 1,1,0 2,0,0 30",
		move:   "5R",
		after:  "1/1/1/1/1/3/0/1/0/0/39/4* 1 8,0,0 0,0,3 31",
		stop:   rules.StopDoubleEmpty,
	},
	{
		// Player 1 must refill and the stores hold 3 pebbles in all.
		name:   "refill nobody can supply",
		before: "0/0/0/0/0/40*/1/0/0/0/6/0* 0 2,0,0 1,0,0 30",
		move:   "5R",
		after:  "0/0/0/0/0/40*/0/1/0/0/6/0* 1 2,0,0 1,0,0 31",
		end:    rules.EndNoRefill,
		stop:   rules.StopDoubleEmpty,
	},
	{
		// The last capture takes the last mandarin stone: both mandarin
		// squares are empty and the game is over.
		name:     "both mandarin squares empty",
		before:   "5/5/5/5/5/2*/0/4/0/3/1/0 0 10,1,0 5,0,0 20",
		move:     "9L",
		after:    "5/5/5/5/5/0/0/0/0/4/0/0 1 16,2,0 5,0,0 21",
		end:      rules.EndMandarins,
		stop:     rules.StopAfterCapture,
		captured: []int{4, 12},
	},
}

func TestTurns(t *testing.T) {
	for _, tt := range turnTests {
		t.Run(tt.name, func(t *testing.T) {
			r := rulesWith(t, tt.variants...)
			p := mustPosition(t, tt.before)
			m := mustMove(t, tt.move)
			if err := p.Legal(m); err != nil {
				t.Fatalf("Legal(%v) = %v", m, err)
			}
			var tr rules.Trace
			end := p.Play(m, &r, &tr)
			if got := notation.FormatPosition(p); got != tt.after {
				t.Errorf("Play(%s) = %s, want %s", tt.move, got, tt.after)
			}
			if end != tt.end {
				t.Errorf("Play(%s) ended %v, want %v", tt.move, end, tt.end)
			}
			if tt.end != rules.EndNone {
				last := tr.Events[len(tr.Events)-1]
				if last.Kind != rules.EvEnd || rules.End(last.Reason) != tt.end || tr.Result != p.Count(tt.end) || tr.Result.End != tt.end {
					t.Errorf("last event %+v, trace result %+v: want the end (%v) with the count %+v", last, tr.Result, tt.end, p.Count(tt.end))
				}
			}
			var stop rules.StopReason
			var captured []int
			for _, e := range tr.Events {
				switch e.Kind {
				case rules.EvStop:
					stop = rules.StopReason(e.Reason)
				case rules.EvCapture:
					captured = append(captured, int(e.Points))
				}
			}
			if stop != tt.stop {
				t.Errorf("stop reason %v, want %v", stop, tt.stop)
			}
			if len(captured) != len(tt.captured) {
				t.Fatalf("captures %v, want %v", captured, tt.captured)
			}
			for i := range captured {
				if captured[i] != tt.captured[i] {
					t.Errorf("captures %v, want %v", captured, tt.captured)
				}
			}
		})
	}
}

func TestRefillEvents(t *testing.T) {
	r := rulesWith(t)
	p := mustPosition(t, "0/0/0/0/0/3/1/0/0/0/39/4* 0 1,1,0 2,0,0 30")
	var tr rules.Trace
	p.Play(mustMove(t, "5R"), &r, &tr)
	var kinds []rules.EventKind
	for _, e := range tr.Events {
		if e.Kind >= rules.EvExchange {
			kinds = append(kinds, e.Kind)
		}
	}
	want := []rules.EventKind{rules.EvExchange, rules.EvBorrow, rules.EvRefill}
	if len(kinds) != len(want) {
		t.Fatalf("refill events %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("refill events %v, want %v", kinds, want)
		}
	}
	if e := tr.Events[len(tr.Events)-2]; e.Player != rules.Player1 || e.Count != 3 || e.Debt != 3 {
		t.Errorf("borrow event %+v: want player 1 borrowing 3, owing 3", e)
	}
}

// Seed 001's count: one mandarin + 23 pebbles, 4 swept, owing 2:
// 10 + 23 + 4 − 2 = 35; the creditor gets the 2.
func TestCountWithDebts(t *testing.T) {
	p := mustPosition(t, "1/1/1/0/0/0/1/1/1/1/0/0 0 23,1,2 20,1,0 40")
	if st := p.Status(); st != rules.EndMandarins {
		t.Fatalf("Status() = %v, want %v", st, rules.EndMandarins)
	}
	res := p.Count(rules.EndMandarins)
	want0 := rules.Tally{Mandarins: 1, Pebbles: 23, Swept: 4, Debt: 2, Credit: 0, Total: 35}
	want1 := rules.Tally{Mandarins: 1, Pebbles: 20, Swept: 3, Debt: 0, Credit: 2, Total: 35}
	if res.Players[0] != want0 || res.Players[1] != want1 {
		t.Errorf("Count() = %+v, want %+v and %+v", res.Players, want0, want1)
	}
	if res.Winner != -1 {
		t.Errorf("Winner = %d, want -1 (a draw at 35 all)", res.Winner)
	}
}

func TestThirdRepetition(t *testing.T) {
	start := mustPosition(t, "1/0/0/0/0/20*/1/0/0/0/0/20* 0 4,0,0 4,0,0 0")
	g, err := rules.NewGame(rules.Rules{}, start)
	if err != nil {
		t.Fatal(err)
	}
	cycle := []string{"5R", "0R", "6L", "1L"}
	var tr rules.Trace
	for i := 0; i < 8; i++ {
		tr.Reset()
		end, err := g.Play(mustMove(t, cycle[i%4]), &tr)
		if err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
		want := rules.EndNone
		if i == 7 {
			want = rules.EndRepetition // the start, for the third time
		}
		if end != want {
			t.Fatalf("move %d %s ended %v, want %v", i+1, cycle[i%4], end, want)
		}
	}
	if last := tr.Events[len(tr.Events)-1]; last.Kind != rules.EvEnd || rules.End(last.Reason) != rules.EndRepetition || tr.Result != g.Result() {
		t.Errorf("last event %+v, trace result %+v: want the repetition end with the count", last, tr.Result)
	}
	if _, err := g.Play(mustMove(t, "5R"), nil); err == nil {
		t.Error("Play after the end: no error")
	}
	res := g.Result()
	if res.Score() != [2]int{5, 5} || res.Winner != -1 {
		t.Errorf("Result() = %+v, want 5-5, a draw (the mandarin squares count for no one)", res)
	}
}

// A borrowing loop: player 1's row is refilled with 5 borrowed pebbles,
// player 0 captures all 5 back four plies later, and player 1 borrows them
// again. Only the debt changes from one round to the next, and the
// repetition rule ignores debts (shared/RULES.md), so the start comes
// round for the third time after two rounds and the game ends there. The
// count repays the debts as they stand then: 15, not the 5 of the start.
func TestBorrowingLoopEndsAtThirdRepetition(t *testing.T) {
	start := mustPosition(t, "1/1/1/1/1/0*/1/0/0/0/1/0 1 43,1,0 0,0,5 20")
	g, err := rules.NewGame(rules.Rules{}, start)
	if err != nil {
		t.Fatal(err)
	}
	// 3R stops at the left mandarin's stone, 9L and 1L at a double empty,
	// and 8R jumps the empty right mandarin square to capture squares 0, 2
	// and 4: player 1's row is empty and the refill is borrowed.
	round := []string{"3R", "9L", "1L", "8R"}
	var tr rules.Trace
	for i := range 2 * len(round) {
		tr.Reset()
		end, err := g.Play(mustMove(t, round[i%4]), &tr)
		if err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
		want := rules.EndNone
		if i == 2*len(round)-1 {
			want = rules.EndRepetition // the start, for the third time
		}
		if end != want {
			t.Fatalf("move %d %s ended %v, want %v", i+1, round[i%4], end, want)
		}
		if i%4 == 3 {
			p := g.Position()
			if got, want := p.Stores[1].Debt, uint16(5+5*(i/4+1)); got != want {
				t.Errorf("after round %d: player 1 owes %d, want %d", i/4+1, got, want)
			}
			if !p.SameForRepetition(&start) || p == start {
				t.Errorf("after round %d: %s, want the start with a larger debt", i/4+1, notation.FormatPosition(p))
			}
		}
	}
	res := g.Result()
	// Player 0: a mandarin, 43 pebbles, 2 swept, 15 owed to it. Player 1:
	// 5 swept, 15 owed. The stone left on the board counts for no one.
	want0 := rules.Tally{Mandarins: 1, Pebbles: 43, Swept: 2, Credit: 15, Total: 70}
	want1 := rules.Tally{Swept: 5, Debt: 15, Total: -10}
	if res.End != rules.EndRepetition || res.Players[0] != want0 || res.Players[1] != want1 || res.Winner != 0 {
		t.Errorf("Result() = %+v, want a repetition with %+v and %+v", res, want0, want1)
	}
	if tr.Result != res {
		t.Errorf("trace result %+v, want %+v", tr.Result, res)
	}
}

// SameForRepetition compares what the repetition rule compares: a
// different ply or debt is the same position, anything else is not.
func TestSameForRepetition(t *testing.T) {
	p := mustPosition(t, "1/1/1/1/1/0*/1/0/0/0/1/0 1 43,1,0 0,0,5 20")
	for _, tt := range []struct {
		name   string
		change func(*rules.Position)
		same   bool
	}{
		{"ply", func(q *rules.Position) { q.Ply += 4 }, true},
		{"debt 0", func(q *rules.Position) { q.Stores[0].Debt = 7 }, true},
		{"debt 1", func(q *rules.Position) { q.Stores[1].Debt = 0 }, true},
		{"cell", func(q *rules.Position) { q.Cells[6]--; q.Cells[7]++ }, false},
		{"store pebbles", func(q *rules.Position) { q.Stores[0].Pebbles--; q.Cells[7]++ }, false},
		{"store mandarins", func(q *rules.Position) { q.Stone[0] = false; q.Stores[1].Mandarins = 1 }, false},
		{"side", func(q *rules.Position) { q.ToMove = 0 }, false},
	} {
		q := p
		tt.change(&q)
		if got := p.SameForRepetition(&q); got != tt.same {
			t.Errorf("%s changed: SameForRepetition = %v, want %v", tt.name, got, tt.same)
		}
	}
}

func TestIllegalMoves(t *testing.T) {
	var r rules.Rules
	start := r.Start()
	g, _ := rules.NewGame(r, start)
	for _, m := range []string{"0R", "4L"} { // player 1's squares
		if _, err := g.Play(mustMove(t, m), nil); err == nil {
			t.Errorf("Play(%s) by player 0: no error", m)
		}
	}
	p := mustPosition(t, "5/5/5/5/5/0*/0/5/5/5/5/0* 0 5,0,0 0,0,0 0")
	if err := p.Legal(mustMove(t, "5R")); err == nil {
		t.Error("Legal(5R) on an empty square: no error")
	}
	if g.Position() != start || len(g.Moves()) != 0 {
		t.Error("an illegal move changed the game")
	}
}

func TestVariantsAsData(t *testing.T) {
	r := rulesWith(t, "pebble-mandarins")
	if got, want := notation.FormatPosition(r.Start()), "5/5/5/5/5/10/5/5/5/5/5/10 0 0,0,0 0,0,0 0"; got != want {
		t.Errorf("pebble-mandarins start = %s, want %s", got, want)
	}
	r.First = rules.Player1
	if r.Start().ToMove != rules.Player1 {
		t.Error("First = 1: player 0 to move at the start")
	}
	if names := rulesWith(t, "young-mandarin", "strict-mandarin-stop").Names(); len(names) != 2 {
		t.Errorf("Names() = %v, want both variants", names)
	}
	if err := r.Enable("no-such-rule"); err == nil {
		t.Error("Enable(no-such-rule): no error")
	}
}

func TestUndoReplays(t *testing.T) {
	var r rules.Rules
	g, _ := rules.NewGame(r, r.Start())
	var positions []rules.Position
	for i := 0; i < 6 && !g.Over(); i++ {
		positions = append(positions, g.Position())
		g.Play(g.LegalMoves(nil)[i%2], nil)
	}
	for i := len(positions) - 1; i >= 0; i-- {
		if n := g.Undo(1); n != 1 {
			t.Fatalf("Undo(1) = %d", n)
		}
		if g.Position() != positions[i] {
			t.Fatalf("after undo: %+v, want %+v", g.Position(), positions[i])
		}
	}
	if n := g.Undo(1); n != 0 {
		t.Errorf("Undo at the start = %d, want 0", n)
	}
}
