package wire

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"testing"

	"oanquan/internal/match"
	"oanquan/notation"
)

// TestKeysAsDocumented holds GameState to the field names of the example
// in docs/API.md, in the same order.
func TestKeysAsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/API.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)## Game state\n\n```json\n(.*?)```").FindSubmatch(doc)
	if block == nil {
		t.Fatal("docs/API.md has no GameState example")
	}
	var want []string
	for _, m := range regexp.MustCompile(`(?m)^  "(\w+)":`).FindAllSubmatch(block[1], -1) {
		want = append(want, string(m[1]))
	}
	m, err := match.New(match.Config{Mode: match.Local})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	st := m.State()
	b, err := json.Marshal(GameOf(&st))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range regexp.MustCompile(`[{,]"(\w+)":`).FindAllSubmatch(b, -1) {
		if !slices.Contains(got, string(k[1])) && slices.Contains(want, string(k[1])) {
			got = append(got, string(k[1]))
		}
	}
	if !slices.Equal(got, want) || len(want) < 20 {
		t.Errorf("GameState keys = %v\nwant (docs/API.md) %v", got, want)
	}
}

// TestTurnsTellTheBoard plays a whole two-player game and checks that
// each turn's JSON is whole: its events, applied to the cells the page
// showed before, give the cells of its state, and its state's position,
// moves and history agree with the game.
func TestTurnsTellTheBoard(t *testing.T) {
	m, err := match.New(match.Config{Mode: match.Local})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	st := m.State()
	prev := GameOf(&st)
	for i := 0; !prev.Over; i++ {
		mv, err := notation.ParseMove(prev.Legal[(i*5)%len(prev.Legal)])
		if err != nil {
			t.Fatal(err)
		}
		turn, err := m.Play(mv, nil)
		if err != nil {
			t.Fatalf("ply %d: %v", i, err)
		}
		tj := TurnOf(&turn)
		cells := prev.Cells
		for _, e := range tj.Events {
			switch e.Kind {
			case "pickup", "relay", "capture":
				cells[e.Cell] = 0
			case "drop":
				cells[e.Cell] = e.Count
			case "refill":
				for c := e.Cell; c < e.Cell+5; c++ {
					cells[c]++
				}
			}
		}
		g := tj.State
		if cells != g.Cells {
			t.Fatalf("ply %d (%s): events %+v\ntake %v to %v, but the state says %v", i, tj.Move, tj.Events, prev.Cells, cells, g.Cells)
		}
		pos, err := notation.ParsePosition(g.Position)
		if err != nil || pos != turn.State.Position {
			t.Fatalf("ply %d: position %q (%v), want %v", i, g.Position, err, turn.State.Position)
		}
		if tj.Ply != i || g.Ply != i+1 || len(g.Moves) != i+1 || g.Moves[i] != tj.Move || g.History[i] != (Played{tj.Move, tj.Player, "human"}) {
			t.Fatalf("ply %d: turn %d, state ply %d, moves %v, history %v", i, tj.Ply, g.Ply, g.Moves, g.History)
		}
		prev = g
	}
	r := prev.Result
	if r == nil || prev.End == "none" || len(prev.Legal) != 0 || len(prev.Positions) != len(prev.Moves)+1 {
		t.Fatalf("the end: %+v", prev)
	}
	for p, tl := range r.Players {
		if tl.Total != 10*tl.Mandarins+tl.Pebbles+tl.Swept-tl.Debt+tl.Credit {
			t.Errorf("player %d: tally %+v does not add up", p, tl)
		}
	}
	if w := r.Winner; w != nil && r.Players[*w].Total <= r.Players[1-*w].Total {
		t.Errorf("winner %d with %+v", *w, r.Players)
	}
}
