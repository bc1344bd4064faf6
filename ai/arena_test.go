package ai

import (
	"context"
	"testing"

	"oanquan/rules"
)

// TestPlayGameStops lowers the ply limit: a game still going when it is
// reached is stopped and counted as the position stands.
func TestPlayGameStops(t *testing.T) {
	defer func(n int) { maxGamePlies = n }(maxGamePlies)
	maxGamePlies = 3
	var r rules.Rules
	opening := []rules.Move{rules.MakeMove(7, rules.Right)}
	a, b := Player{Name: "a", Random: true}, Player{Name: "b", Random: true}
	res, err := PlayGame(context.Background(), r, opening, &a, &b, true, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.Plies != 3 {
		t.Fatalf("PlayGame with a limit of 3 plies: stopped %v after %d plies, want stopped after 3", res.Stopped, res.Plies)
	}
	// Replay the game to the same point and count it.
	g, _ := rules.NewGame(r, r.Start())
	g.Play(opening[0], nil)
	aSide := g.Position().ToMove
	for i := range 3 {
		m := g.LegalMoves(nil)
		seed := uint64(1) + uint64(i)*0x9e37
		g.Play(m[mix(seed)%uint64(len(m))], nil)
	}
	p := g.Position()
	sc := p.Count(rules.EndRepetition).Score()
	if want := [2]int{sc[aSide], sc[aSide^1]}; res.Points != want {
		t.Errorf("points %v, want %v (the count of %v)", res.Points, want, p)
	}
}

// TestSummarise checks the score share and its interval on paired games.
func TestSummarise(t *testing.T) {
	win, loss, draw := GameResult{Points: [2]int{40, 30}}, GameResult{Points: [2]int{30, 40}}, GameResult{Points: [2]int{35, 35}}
	st := Summarise([]GameResult{win, loss, win, draw, win, win, win, win})
	if st.Wins != 6 || st.Draws != 1 || st.Losses != 1 || st.Share != 6.5/8 {
		t.Errorf("Summarise: %d/%d/%d share %v, want 6/1/1 share %v", st.Wins, st.Draws, st.Losses, st.Share, 6.5/8)
	}
	if !(st.Low < st.Share && st.Share < st.High) {
		t.Errorf("Summarise: interval %v–%v does not surround %v", st.Low, st.High, st.Share)
	}
}
