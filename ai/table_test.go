package ai

import (
	"context"
	"flag"
	"math/rand/v2"
	"testing"
	"time"

	"oanquan/ai/endgames"
	"oanquan/rules"
)

var (
	tablePositions = flag.Int("table-positions", 400, "positions TestTableAgreesWithSearch checks against the full search")
	tablePebbles   = flag.Int("table-pebbles", 5, "pebbles of the endgame table the table tests build")
)

// smallTable builds the endgame table the tests use in a temporary
// directory. It also shortens the lines the full search (exact) follows
// until the test ends: the tests compare positions whose lines end soon.
func smallTable(t *testing.T) *endgames.Table {
	t.Helper()
	n := exactMaxPath
	exactMaxPath = 60
	t.Cleanup(func() { exactMaxPath = n })
	dir := t.TempDir()
	if err := endgames.Build(context.Background(), *tablePebbles, dir, endgames.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	tb, err := endgames.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// tableSample returns a random position in play with at most n pebbles on
// the board: the stones, the stores' split of what is not on the board,
// the debts and the ply all drawn at random.
func tableSample(rng *rand.Rand, n int) rules.Position {
	for {
		var p rules.Position
		k := rng.IntN(n + 1)
		for range k {
			p.Cells[rng.IntN(rules.NumCells)]++
		}
		p.Stone = [2]bool{rng.IntN(2) == 0, rng.IntN(2) == 0}
		p.ToMove = rules.Player(rng.IntN(2))
		p.Ply = 10 + uint32(rng.IntN(100))
		board := k
		for _, s := range p.Stone {
			if s {
				board += rules.StoneValue
			}
		}
		left := rules.Total - board
		// The stones off the board are in a store, or were exchanged.
		for _, s := range p.Stone {
			if !s && rng.IntN(2) == 0 {
				p.Stores[rng.IntN(2)].Mandarins++
				left -= rules.StoneValue
			}
		}
		a := rng.IntN(left + 1)
		p.Stores[0].Pebbles, p.Stores[1].Pebbles = uint8(a), uint8(left-a)
		p.Stores[0].Debt, p.Stores[1].Debt = uint16(rng.IntN(3)*rng.IntN(8)), uint16(rng.IntN(3)*rng.IntN(8))
		if p.Validate() == nil && p.Status() == rules.EndNone {
			return p
		}
	}
}

// tableHistory returns a history for p: none, or one in which the result
// of one of p's moves has already occurred twice, so that playing it ends
// the game by repetition.
func tableHistory(rng *rand.Rand, p rules.Position) []rules.Position {
	if rng.IntN(2) == 0 {
		return nil
	}
	var r rules.Rules
	ms := p.LegalMoves(nil)
	c := p
	if c.Play(ms[rng.IntN(len(ms))], &r, nil) != rules.EndNone {
		return nil
	}
	return []rules.Position{c, p, c, p}
}

// TestTableAgreesWithSearch checks the endgame table against a plain
// alpha-beta search to the end of the game under the full rules, the
// repetition rule with its history included, on random positions the table
// holds, with random stores, debts and histories: wherever the search
// finishes, its value lies within the table's bounds, and equals an exact
// entry. It checks each move's bounds from Table.Moves the same way.
func TestTableAgreesWithSearch(t *testing.T) {
	tb := smallTable(t)
	rng := rand.New(rand.NewPCG(19, 19))
	var r rules.Rules
	checked, exactOnes, tries := 0, 0, 0
	for checked < *tablePositions && tries < 100**tablePositions {
		tries++
		p := tableSample(rng, tb.Pebbles())
		hist := tableHistory(rng, p)
		budget := 3000
		want, ok := exact(p, &r, append(hist, p), &budget)
		if !ok {
			continue
		}
		b, covered := tb.Probe(&p, &r)
		if !covered {
			t.Fatalf("%v: not covered by a table of %d pebbles", p, tb.Pebbles())
		}
		if !within(endgames.Final(&p, b.Lo), want, endgames.Final(&p, b.Hi), b) {
			t.Fatalf("%v (history %d positions): search %d, table bounds %v (final %d..%d)", p, len(hist), want, b, endgames.Final(&p, b.Lo), endgames.Final(&p, b.Hi))
		}
		checked++
		if b.Exact() {
			exactOnes++
		}
		seen := func(q *rules.Position) bool {
			n := 0
			for _, h := range hist {
				if same(h, *q) {
					n++
				}
			}
			return n >= rules.Repetitions-1
		}
		moves, _, _ := tb.Moves(&p, &r, seen)
		for _, mv := range moves {
			budget := 3000
			want, ok := moveValue(p, mv.Move, &r, append(hist, p), &budget, -1000, 1000)
			if ok && !within(endgames.Final(&p, mv.Bounds.Lo), want, endgames.Final(&p, mv.Bounds.Hi), mv.Bounds) {
				t.Fatalf("%v (history %d positions): %v scores %d by search, table bounds %v", p, len(hist), mv.Move, want, mv.Bounds)
			}
		}
	}
	t.Logf("%d positions checked (%d drawn; the others the search could not finish), %d of them exact in the table", checked, tries, exactOnes)
	if checked < *tablePositions || exactOnes < checked/20 {
		t.Errorf("checked %d positions of %d wanted, %d exact: too few", checked, *tablePositions, exactOnes)
	}
}

// within reports whether v lies within the bounds b, given as finals lo
// and hi (a missing bound holds anything).
func within(lo, v, hi int, b endgames.Bounds) bool {
	return (b.Lo == endgames.NegInf || lo <= v) && (b.Hi == endgames.PosInf || v <= hi)
}

// TestHistoryChangesValue finds moves whose exact value under the full
// rules depends on the history: the position they lead to has occurred
// twice before (the game ends there, rows counted) or not (it goes on).
// The table's bounds for such a move, history unknown, must hold both
// values and so cannot be exact; told the history (Table.Moves with seen),
// the table gives the ending's value exactly.
func TestHistoryChangesValue(t *testing.T) {
	tb := smallTable(t)
	rng := rand.New(rand.NewPCG(17, 19))
	var r rules.Rules
	found := 0
	for tries := 0; found < 5 && tries < 20000; tries++ {
		p := tableSample(rng, tb.Pebbles())
		free, _, _ := tb.Moves(&p, &r, nil)
		for _, mv := range free {
			c := p
			if c.Play(mv.Move, &r, nil) != rules.EndNone {
				continue
			}
			b1, b2 := 3000, 3000
			goesOn, ok1 := moveValue(p, mv.Move, &r, []rules.Position{p}, &b1, -1000, 1000)
			ends, ok2 := moveValue(p, mv.Move, &r, []rules.Position{c, p, c, p}, &b2, -1000, 1000)
			if !ok1 || !ok2 || goesOn == ends {
				continue
			}
			found++
			b := mv.Bounds
			lo, hi := endgames.Final(&p, b.Lo), endgames.Final(&p, b.Hi)
			if b.Exact() || !within(lo, goesOn, hi, b) || !within(lo, ends, hi, b) {
				t.Errorf("%v, %v: %d if the game goes on, %d if it ends by repetition; table bounds %v (final %d..%d)", p, mv.Move, goesOn, ends, b, lo, hi)
			}
			told, _, _ := tb.Moves(&p, &r, func(q *rules.Position) bool { return same(*q, c) })
			for _, tm := range told {
				if tm.Move == mv.Move && (!tm.Bounds.Exact() || endgames.Final(&p, tm.Bounds.Lo) != ends) {
					t.Errorf("%v, %v after its result occurred twice: table bounds %v, want exactly %d", p, mv.Move, tm.Bounds, ends)
				}
			}
			if found == 1 {
				t.Logf("%v, %v: %d if the game goes on, %d if it ends by repetition; table without the history: final in [%d, %d]", p, mv.Move, goesOn, ends, lo, hi)
			}
		}
	}
	if found == 0 {
		t.Fatal("no move whose value depends on the history found")
	}
}

// TestSearchUsesTable: with an endgame table, Search answers a position
// the table knows exactly at once (depth 0, proven, the exact value), and
// Hints gives every move's exact value when the table knows them all;
// positions with more pebbles than the table, where the search reads it
// at its leaves, are proven more often, and every proof agrees with the
// full search. In every case the position has occurred once before (the
// history), so that the full search, for which a return to it ends the
// game, finishes more often.
func TestSearchUsesTable(t *testing.T) {
	tb := smallTable(t)
	rng := rand.New(rand.NewPCG(3, 19))
	var r rules.Rules
	atOnce, confirmed := 0, 0
	for tries := 0; atOnce < 100 && tries < 50000; tries++ {
		p := tableSample(rng, tb.Pebbles())
		b, _ := tb.Probe(&p, &r)
		if !b.Exact() {
			continue
		}
		value := endgames.Final(&p, b.Lo)
		hist := []rules.Position{p, p}
		res, err := Search(context.Background(), p, Limits{Level: Hard, MoveTime: time.Minute, Depth: 12, Threads: 1, Endgames: tb, History: hist})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Proven || res.Depth != 0 || res.Nodes != 0 || res.Score != value {
			t.Fatalf("Search(%v) with the table = %+v; want %d proven at once", p, res, value)
		}
		atOnce++
		budget := 20000
		want, ok := exact(p, &r, hist, &budget)
		if !ok {
			continue
		}
		budget = 20000
		mv, _ := moveValue(p, res.Move, &r, hist, &budget, -1000, 1000)
		if want != value || mv != want {
			t.Fatalf("Search(%v) with the table = %+v; the full search: %d, and %d after %v", p, res, want, mv, res.Move)
		}
		hints, err := Hints(context.Background(), p, Limits{Depth: 1, Threads: 1, Endgames: tb, History: hist})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hints {
			budget := 20000
			if v, ok := moveValue(p, h.Move, &r, hist, &budget, -1000, 1000); ok && v != h.Score {
				t.Fatalf("Hints(%v) with the table: %v scores %d, the full search %d", p, h.Move, h.Score, v)
			}
		}
		confirmed++
	}
	if atOnce < 100 || confirmed < 3 {
		t.Fatalf("%d positions answered from the table, %d of them confirmed by the full search: too few", atOnce, confirmed)
	}
	proven := [2]int{}
	checked, confirmed2 := 0, 0
	for checked < 100 {
		p := tableSample(rng, tb.Pebbles()+3)
		if _, ok := tb.Probe(&p, &r); ok {
			continue
		}
		checked++
		hist := []rules.Position{p, p}
		var scores [2]*int
		for i, eg := range []*endgames.Table{nil, tb} {
			res, err := Search(context.Background(), p, Limits{Level: Hard, MoveTime: time.Minute, Depth: 8, Threads: 1, History: hist, Endgames: eg})
			if err != nil {
				t.Fatal(err)
			}
			if res.Proven {
				proven[i]++
				scores[i] = &res.Score
			}
		}
		if scores[0] != nil && scores[1] != nil && *scores[0] != *scores[1] {
			t.Fatalf("Search(%v) proves %d without the table, %d with it", p, *scores[0], *scores[1])
		}
		if scores[1] != nil {
			budget := 20000
			if want, ok := exact(p, &r, hist, &budget); ok {
				confirmed2++
				if *scores[1] != want {
					t.Fatalf("Search(%v) with the table proves %d, the full search finds %d", p, *scores[1], want)
				}
			}
		}
	}
	t.Logf("%d positions answered from the table (%d confirmed by the full search); of %d with more pebbles, %d proven at depth 8 without the table, %d with it (%d confirmed by the full search)", atOnce, confirmed, checked, proven[0], proven[1], confirmed2)
	if proven[1] <= proven[0] {
		t.Errorf("the table proved %d of %d positions, no more than the search alone (%d)", proven[1], checked, proven[0])
	}
}
