// Package rules is Ô Ăn Quan, the Vietnamese mandarin-capture mancala, as
// played by this project (shared/RULES.md): positions as values, legal
// moves, sowing with relays, capture chains, the refill (thả cá) with
// mandarin exchange and borrowing, the three endings (with a bound on a
// game's length as a guard, MaxPlies) and the final count.
// It does no I/O and reads no clock or randomness.
//
// The board is a ring of twelve cells. Cells are indexed in ring order,
// which is also the order of the position notation:
//
//	              [ 4 ] [ 3 ] [ 2 ] [ 1 ] [ 0 ]        player 1 (top row)
//	   (left M)                                (right M)
//	   cell 5     [ 5 ] [ 6 ] [ 7 ] [ 8 ] [ 9 ]  cell 11  player 0 (bottom row)
//
//	cells:  0 1 2 3 4 | 5 = left mandarin | 6 7 8 9 10 | 11 = right mandarin
//	squares 0–4 are cells 0–4; squares 5–9 are cells 6–10.
//
// Moving Right goes to the next higher cell (square 9 → right mandarin →
// square 0), the same ring direction for both players.
//
// A short game:
//
//	var r rules.Rules // the standard game
//	g, _ := rules.NewGame(r, r.Start())
//	var tr rules.Trace
//	for !g.Over() {
//		moves := g.LegalMoves(nil)
//		g.Play(moves[0], &tr) // tr.Events: pick-ups, drops, captures…
//	}
//	fmt.Println(g.Result().Score(), g.Result().Winner)
//
// Position.Play is the allocation-free core used by searches and
// playouts; Game adds the legality checks, the move list, the repetition
// rule and the length bound.
package rules
