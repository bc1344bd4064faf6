package rules

// Tally is one player's final count.
type Tally struct {
	Mandarins int // mandarin stones in the store, 10 points each
	Pebbles   int // pebbles in the store, captured or exchanged
	Swept     int // pebbles collected from the player's own row at the end
	Debt      int // pebbles this player owed and repays
	Credit    int // pebbles the other player owed and repays to this one
	Total     int // 10·Mandarins + Pebbles + Swept − Debt + Credit
}

// Result is the final count of a game.
type Result struct {
	End     End      // how the game ended
	Players [2]Tally // each player's count
	Winner  int      // 0 or 1, or -1 for a draw
}

// Score returns the totals as a pair, player 0 first.
func (r Result) Score() [2]int { return [2]int{r.Players[0].Total, r.Players[1].Total} }

// Count makes the final count of p, a position where the game has ended
// by end: each player sweeps the pebbles on their own row, debts are
// repaid, pebbles score 1 and stones 10. Pebbles or a stone left on a
// mandarin square belong to no one.
func (p *Position) Count(end End) Result {
	res := Result{End: end}
	for pl := Player0; pl <= Player1; pl++ {
		s := p.Stores[pl]
		t := Tally{
			Mandarins: int(s.Mandarins),
			Pebbles:   int(s.Pebbles),
			Swept:     p.RowPebbles(pl),
			Debt:      int(s.Debt),
			Credit:    int(p.Stores[pl^1].Debt),
		}
		t.Total = StoneValue*t.Mandarins + t.Pebbles + t.Swept - t.Debt + t.Credit
		res.Players[pl] = t
	}
	switch a, b := res.Players[0].Total, res.Players[1].Total; {
	case a > b:
		res.Winner = 0
	case b > a:
		res.Winner = 1
	default:
		res.Winner = -1
	}
	return res
}

// Sweep moves the pebbles left on each row into its owner's store: the
// board as it stands after the final count. Debts stay in the stores.
func (p *Position) Sweep() {
	for pl := Player0; pl <= Player1; pl++ {
		s := rowStart[pl]
		for c := s; c < s+5; c++ {
			p.Stores[pl].Pebbles += p.Cells[c]
			p.Cells[c] = 0
		}
	}
}
