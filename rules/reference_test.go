package rules

import (
	"math/rand/v2"
	"testing"
)

// refPlay is a second, deliberately plain implementation of a turn,
// written from RULES.md sentence by sentence with none of Play's speed
// tricks (no byte lanes, no span tables, one pebble at a time). The tests
// compare the two on many random games.
func refPlay(p Position, m Move, r Rules) (Position, End) {
	var cells [12]int
	for i, n := range p.Cells {
		cells[i] = int(n)
	}
	stone := map[int]bool{5: p.Stone[0], 11: p.Stone[1]}
	mandarin := func(c int) bool { return c == 5 || c == 11 }
	occupied := func(c int) bool { return cells[c] > 0 || (mandarin(c) && stone[c]) }
	next := func(c int) int {
		if m.Dir() == Right {
			return (c + 1) % 12
		}
		return (c + 11) % 12
	}
	me := p.ToMove
	store := &p.Stores[me]

	// 3. Sow: take every pebble and drop one on each following square.
	c := m.Cell()
	hand := cells[c]
	cells[c] = 0
	for sowings := 1; ; sowings++ {
		for ; hand > 0; hand-- {
			c = next(c)
			cells[c]++
		}
		// 4. Look at the square after the last pebble.
		n := next(c)
		if !mandarin(n) && cells[n] > 0 {
			if sowings >= maxSowings {
				break
			}
			c, hand, cells[n] = n, cells[n], 0 // relay
			continue
		}
		if mandarin(n) && (occupied(n) || r.StrictMandarinStop) {
			break
		}
		// n is empty: capture along the ring while single empty squares
		// alternate with occupied ones.
		for empty := n; ; {
			t := next(empty)
			if !occupied(t) {
				break
			}
			if mandarin(t) && stone[t] && p.Ply < r.YoungPlies && cells[t] < int(r.YoungMin) {
				break
			}
			store.Pebbles += uint8(cells[t])
			cells[t] = 0
			if mandarin(t) && stone[t] {
				stone[t] = false
				store.Mandarins++
			}
			empty = next(t)
			if occupied(empty) {
				break
			}
		}
		break
	}
	for i := range cells {
		p.Cells[i] = uint8(cells[i])
	}
	p.Stone = [2]bool{stone[5], stone[11]}
	p.ToMove = me.Other()
	p.Ply++

	// 5. Both mandarin squares empty: the game is over.
	if cells[5] == 0 && cells[11] == 0 && !stone[5] && !stone[11] {
		return p, EndMandarins
	}
	// 1. The next mover refills an empty row.
	row := Player(p.ToMove).Row()
	sum := 0
	for _, c := range row {
		sum += cells[c]
	}
	if sum > 0 {
		return p, EndNone
	}
	mine, theirs := &p.Stores[p.ToMove], &p.Stores[me]
	if mine.Points()+theirs.Points() < 5 {
		return p, EndNoRefill
	}
	if mine.Pebbles < 5 && mine.Mandarins > 0 {
		mine.Mandarins--
		mine.Pebbles += 10
	}
	if mine.Pebbles < 5 {
		short := 5 - mine.Pebbles
		if theirs.Pebbles < short {
			theirs.Mandarins--
			theirs.Pebbles += 10
		}
		theirs.Pebbles -= short
		mine.Pebbles += short
		mine.Debt += uint16(short)
	}
	mine.Pebbles -= 5
	for _, c := range row {
		p.Cells[c]++
	}
	return p, EndNone
}

// randomPosition plays n random moves from the start of a random variant.
func randomGameRules(rng *rand.Rand) Rules {
	var r Rules
	for _, v := range Variants {
		if rng.IntN(3) == 0 {
			r.Enable(v.Name)
		}
	}
	r.First = Player(rng.IntN(2))
	return r
}

func TestPlayMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	games, turns := 3000, 0
	if testing.Short() {
		games = 300
	}
	var tr Trace
	for range games {
		r := randomGameRules(rng)
		g, _ := NewGame(r, r.Start())
		for !g.Over() {
			moves := g.LegalMoves(nil)
			m := moves[rng.IntN(len(moves))]
			before := g.Position()
			want, wantEnd := refPlay(before, m, r)
			tr.Reset()
			end, err := g.Play(m, &tr)
			if err != nil {
				t.Fatalf("Play(%v) on %+v: %v", m, before, err)
			}
			got := g.Position()
			if got != want || (end != wantEnd && end != EndRepetition) {
				t.Fatalf("rules %+v, position %+v, move %v:\n got %+v, %v\nwant %+v, %v", r, before, m, got, end, want, wantEnd)
			}
			untraced := before
			if e := untraced.Play(m, &r, nil); untraced != got || (e != end && end != EndRepetition) {
				t.Fatalf("Play(%v) with and without a trace differ:\n%+v\n%+v", m, untraced, got)
			}
			checkTrace(t, before, got, tr.Events)
			turns++
		}
	}
	t.Logf("%d games, %d turns agree", games, turns)
}

// checkTrace replays events on before, as a browser would animate them,
// and checks that they arrive at after.
func checkTrace(t *testing.T, before, after Position, events []Event) {
	t.Helper()
	p := before
	hand := 0
	for i, e := range events {
		switch e.Kind {
		case EvPickUp, EvRelay:
			if int(p.Cells[e.Cell]) != int(e.Count) || hand != 0 {
				t.Fatalf("event %d %v: cell %d holds %d, hand %d", i, e.Kind, e.Cell, p.Cells[e.Cell], hand)
			}
			hand = int(e.Count)
			p.Cells[e.Cell] = 0
		case EvDrop:
			hand--
			p.Cells[e.Cell]++
			if p.Cells[e.Cell] != e.Count || hand < 0 {
				t.Fatalf("event %d drop: cell %d holds %d, event says %d", i, e.Cell, p.Cells[e.Cell], e.Count)
			}
		case EvCapture:
			pts := int(p.Cells[e.Cell])
			st := &p.Stores[e.Player]
			st.Pebbles += p.Cells[e.Cell]
			p.Cells[e.Cell] = 0
			if e.Stone {
				p.Stone[stoneIndex(int(e.Cell))] = false
				st.Mandarins++
				pts += StoneValue
			}
			if pts != int(e.Points) {
				t.Fatalf("event %d capture: %d points, event says %d", i, pts, e.Points)
			}
		case EvExchange:
			p.Stores[e.Player].Mandarins--
			p.Stores[e.Player].Pebbles += 10
		case EvBorrow:
			p.Stores[e.Player.Other()].Pebbles -= e.Count
			p.Stores[e.Player].Pebbles += e.Count
			p.Stores[e.Player].Debt += uint16(e.Count)
		case EvRefill:
			p.Stores[e.Player].Pebbles -= 5
			for _, c := range e.Player.Row() {
				p.Cells[c]++
			}
		}
	}
	if hand != 0 {
		t.Fatalf("%d pebbles still in hand after the events", hand)
	}
	p.ToMove, p.Ply = after.ToMove, after.Ply
	if p != after {
		t.Fatalf("events replayed give\n%+v\nwant\n%+v\nevents %+v", p, after, events)
	}
	if n := len(events); n == 0 || (events[n-1].Kind != EvStop && events[n-1].Kind != EvRefill && events[n-1].Kind != EvEnd) {
		t.Fatalf("events do not end with a stop, refill or end: %+v", events)
	}
}

// refKey is p as the repetition rule compares it, written from RULES.md:
// everything but the ply count and the debts.
func refKey(p Position) Position {
	p.Ply = 0
	p.Stores[0].Debt, p.Stores[1].Debt = 0, 0
	return p
}

// refPerft counts lines of play with refPlay and a plain list of earlier
// positions for the repetition rule.
func refPerft(r Rules, p Position, depth int, seen []Position) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range p.LegalMoves(nil) {
		q, end := refPlay(p, m, r)
		key := refKey(q)
		reps := 1
		for _, s := range seen {
			if s == key {
				reps++
			}
		}
		if depth == 1 {
			n++
		} else if end == EndNone && reps < Repetitions {
			n += refPerft(r, q, depth-1, append(seen, key))
		}
	}
	return n
}

func TestPerftMatchesReference(t *testing.T) {
	repetition := Position{ // a position that repeats after four moves
		Cells:  [12]uint8{1, 0, 0, 0, 0, 20, 1, 0, 0, 0, 0, 20},
		Stone:  [2]bool{true, true},
		Stores: [2]Store{{Pebbles: 4}, {Pebbles: 4}},
	}
	borrowing := Position{
		Cells:  [12]uint8{1, 1, 1, 1, 1, 0, 1, 0, 0, 0, 1, 0},
		Stone:  [2]bool{true, false},
		ToMove: Player1,
		Stores: [2]Store{{Pebbles: 43, Mandarins: 1}, {Debt: 5}},
		Ply:    20,
	}
	for _, c := range []struct {
		r     Rules
		p     Position
		depth int
	}{
		{Rules{}, Rules{}.Start(), 5},
		{Rules{PebbleMandarins: true}, Rules{PebbleMandarins: true}.Start(), 5},
		{Rules{}, repetition, 9},
		// A borrowing loop that repeats every four plies, the debt growing
		// by 5 a round (TestBorrowingLoopEndsAtThirdRepetition).
		{Rules{}, borrowing, 10},
	} {
		start := refKey(c.p)
		for d := 1; d <= c.depth; d++ {
			got, want := Perft(c.r, c.p, d), refPerft(c.r, c.p, d, []Position{start})
			if got != want {
				t.Errorf("Perft(%+v, depth %d) = %d, reference %d", c.p, d, got, want)
			}
		}
	}
}
