package rules_test

import (
	"fmt"

	"oanquan/rules"
)

// A whole game: each side always sows its lowest non-empty square to the
// right.
func Example() {
	var r rules.Rules // the standard game
	g, _ := rules.NewGame(r, r.Start())
	var tr rules.Trace
	captures := 0
	for !g.Over() {
		tr.Reset()
		g.Play(g.LegalMoves(nil)[1], &tr)
		for _, e := range tr.Events {
			if e.Kind == rules.EvCapture {
				captures++
			}
		}
	}
	res := g.Result()
	fmt.Println(len(g.Moves()) > 0, captures > 0, res.Score()[0]+res.Score()[1] <= rules.Total)
	// Output: true true true
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
