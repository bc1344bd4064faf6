package rules_test

import (
	"fmt"

	"oanquan/rules"
)

// A whole game in which each side always sows the lowest of its squares
// that hold pebbles, to the right: the moves played, how the game ended,
// and the final count.
func Example() {
	var r rules.Rules // the standard game
	g, err := rules.NewGame(r, r.Start())
	if err != nil {
		panic(err)
	}
	for !g.Over() {
		move := g.LegalMoves(nil)[0]
		for _, m := range g.LegalMoves(nil) {
			if m.Dir() == rules.Right {
				move = m
				break
			}
		}
		if _, err := g.Play(move, nil); err != nil {
			panic(err)
		}
	}
	res := g.Result()
	fmt.Println("moves:", len(g.Moves()), "first:", g.Moves()[:4])
	fmt.Println("end:", res.End)
	for p, t := range res.Players {
		fmt.Printf("player %d: %d stones, %d pebbles, %d swept, total %d\n", p, t.Mandarins, t.Pebbles, t.Swept, t.Total)
	}
	fmt.Println("winner:", res.Winner, "score:", res.Score())
	// Output:
	// moves: 29 first: [5R 1R 5R 0R]
	// end: mandarins
	// player 0: 1 stones, 29 pebbles, 0 swept, total 39
	// player 1: 1 stones, 21 pebbles, 0 swept, total 31
	// winner: 0 score: [39 31]
}

// The start: five pebbles on each of the ten squares, a mandarin stone on
// each mandarin square, player 0 to move with ten moves (each square, to
// either side).
func ExampleRules_Start() {
	var r rules.Rules
	p := r.Start()
	fmt.Println("cells:", p.Cells, "stones:", p.Stone, "to move:", p.ToMove)
	fmt.Println("legal:", p.LegalMoves(nil))
	fmt.Println(p.Legal(rules.MakeMove(2, rules.Left)))
	// Output:
	// cells: [5 5 5 5 5 0 5 5 5 5 5 0] stones: [true true] to move: 0
	// legal: [5L 5R 6L 6R 7L 7R 8L 8R 9L 9R]
	// move 2L: square 2 belongs to player 1, and player 0 is to move
}

// A turn through Game: its events, then a move the rules refuse.
func ExampleGame_Play() {
	var r rules.Rules
	g, _ := rules.NewGame(r, r.Start())
	var tr rules.Trace
	end, err := g.Play(rules.MakeMove(7, rules.Right), &tr)
	fmt.Println(end, err)
	for _, e := range tr.Events {
		if e.Kind == rules.EvCapture {
			fmt.Printf("captured square %d: %d pebbles, %d points\n", e.Square(), e.Count, e.Points)
		}
	}
	p := g.Position()
	fmt.Println("stores:", p.Stores, "to move:", p.ToMove)
	_, err = g.Play(rules.MakeMove(7, rules.Right), &tr)
	fmt.Println(err)
	// Output:
	// none <nil>
	// captured square 8: 6 pebbles, 6 points
	// stores: [{6 0 0} {0 0 0}] to move: 1
	// move 7R: square 7 belongs to player 0, and player 1 is to move
}

// A position where both mandarin squares are empty: the game is over, and
// each player sweeps the pebbles left on their own row into their count.
func ExamplePosition_Count() {
	p := rules.Position{
		Cells:  [rules.NumCells]uint8{3, 0, 0, 1, 0, 0, 0, 2, 0, 0, 4, 0},
		Stores: [2]rules.Store{{Pebbles: 24, Mandarins: 1}, {Pebbles: 16, Mandarins: 1}},
	}
	fmt.Println(p.Validate())
	end := p.Status()
	res := p.Count(end)
	fmt.Println(end)
	for pl, t := range res.Players {
		fmt.Printf("player %d: %+v\n", pl, t)
	}
	fmt.Println("winner:", res.Winner, "score:", res.Score())
	// Output:
	// <nil>
	// mandarins
	// player 0: {Mandarins:1 Pebbles:24 Swept:6 Debt:0 Credit:0 Total:40}
	// player 1: {Mandarins:1 Pebbles:16 Swept:4 Debt:0 Credit:0 Total:30}
	// winner: 0 score: [40 30]
}

func ExamplePosition_Play() {
	var r rules.Rules
	p := r.Start()
	var tr rules.Trace
	p.Play(rules.MakeMove(7, rules.Right), &r, &tr)
	for _, e := range tr.Events {
		switch e.Kind {
		case rules.EvPickUp, rules.EvRelay, rules.EvCapture:
			fmt.Println(e.Kind, "cell", e.Cell, "count", e.Count)
		case rules.EvStop:
			fmt.Println(e.Kind, rules.StopReason(e.Reason))
		}
	}
	// Square 7 (cell 8) sows 5 to cells 9–1; square 2 (cell 2) relays
	// its 5 to cells 3–7; after it, square 7 is empty and square 8 (cell
	// 9) holds 6: captured; square 9 is occupied, so the turn ends.

	// Output:
	// pickup cell 8 count 5
	// relay cell 2 count 5
	// capture cell 9 count 6
	// stop after-capture
}
