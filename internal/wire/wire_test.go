package wire

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"oanquan/internal/match"
	"oanquan/notation"
	"oanquan/rules"
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
				row := [5]int{6, 7, 8, 9, 10} // player 0's squares 5–9
				if e.Player == 1 {
					row = [5]int{0, 1, 2, 3, 4}
				}
				if e.Cells != row {
					t.Fatalf("ply %d: player %d's refill has cells %v, want %v", i, e.Player, e.Cells, row)
				}
				for _, c := range e.Cells {
					cells[c]++
				}
			}
			if e.Kind != "refill" && e.Cells != [5]int{} {
				t.Fatalf("ply %d: a %s event has cells %v", i, e.Kind, e.Cells)
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

// TestMandarinPoints plays games to the end under the standard rules and
// with pebble mandarins (no stones to capture), and checks each tally's
// mandarinPoints in the JSON: 10 for each stone captured, and the total
// adds up with it.
func TestMandarinPoints(t *testing.T) {
	var stones int
	for _, variant := range []string{"", "pebble-mandarins"} {
		var r rules.Rules
		if variant != "" {
			if err := r.Enable(variant); err != nil {
				t.Fatal(err)
			}
		}
		for seed := range 8 {
			m, err := match.New(match.Config{Mode: match.Local, Rules: r})
			if err != nil {
				t.Fatal(err)
			}
			st := m.State()
			for i := 0; !st.Over(); i++ {
				turn, err := m.Play(st.Legal[(i*(seed+3))%len(st.Legal)], nil)
				if err != nil {
					t.Fatal(err)
				}
				st = turn.State
			}
			m.Close()
			b, err := json.Marshal(GameOf(&st).Result)
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Players [2]map[string]int `json:"players"`
			}
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			for p, tl := range res.Players {
				want := st.Result.Players[p]
				if tl["mandarins"] != want.Mandarins || tl["mandarinPoints"] != 10*want.Mandarins ||
					tl["total"] != tl["mandarinPoints"]+tl["pebbles"]+tl["swept"]-tl["debt"]+tl["credit"] {
					t.Errorf("%q game %d, player %d: tally %v, want %d mandarins worth %d", variant, seed, p, tl, want.Mandarins, 10*want.Mandarins)
				}
				if variant != "" && tl["mandarinPoints"] != 0 {
					t.Errorf("pebble mandarins, game %d: player %d has mandarin points %d", seed, p, tl["mandarinPoints"])
				}
				stones += tl["mandarins"]
			}
			var back Result
			if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(&back, GameOf(&st).Result) {
				t.Errorf("%s read back as %+v (%v)", b, back, err)
			}
		}
	}
	if stones == 0 {
		t.Error("no game captured a mandarin stone: the test shows nothing")
	}
}

// TestCanInJSON checks that GameState carries the match's canAbort,
// canTakeback and canHint, by their documented names.
func TestCanInJSON(t *testing.T) {
	m, err := match.New(match.Config{Mode: match.Online})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	mv, _ := notation.ParseMove("7R")
	if _, err := m.PlayFor(0, mv, nil); err != nil {
		t.Fatal(err)
	}
	st := m.State()
	b, err := json.Marshal(GameOf(&st))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		CanAbort    []bool `json:"canAbort"`
		CanTakeback []bool `json:"canTakeback"`
		CanHint     *bool  `json:"canHint"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.CanAbort, []bool{false, true}) || !slices.Equal(got.CanTakeback, []bool{true, false}) || got.CanHint == nil || *got.CanHint {
		t.Errorf("after seat 0's move: %s", b)
	}
}

// TestStorePoints holds a store's points to the final count but for the
// rows: stones and pebbles, less its debt, plus the other's.
func TestStorePoints(t *testing.T) {
	p := rules.Position{Stores: [2]rules.Store{{Pebbles: 23, Mandarins: 1, Debt: 2}, {Pebbles: 4, Mandarins: 1}}}
	for pl, want := range [2]int{10 + 23 - 2, 10 + 4 + 2} {
		if got := StoreOf(&p, rules.Player(pl)).Points; got != want {
			t.Errorf("StoreOf(player %d).Points = %d, want %d", pl, got, want)
		}
	}
	res := p.Count(rules.EndMandarins)
	for pl := range 2 {
		if got, want := StoreOf(&p, rules.Player(pl)).Points, res.Players[pl].Total; got != want {
			t.Errorf("rows empty: StoreOf(player %d).Points = %d, final count %d", pl, got, want)
		}
	}
}

// TestRecordTagged: the extra tags are in the record (replacing Record's
// own of the same name), which reads back; Record is RecordTagged with
// none.
func TestRecordTagged(t *testing.T) {
	m, err := match.New(match.Config{Mode: match.Local, Moves: []rules.Move{mustMove(t, "7R")}})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	st := m.State()
	text, err := RecordTagged(&st, time.Time{}, map[string]string{"Player0": "Nguyễn", "Game": "abc", "Event": "Lobby"})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := notation.ParseRecord(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	for name, want := range map[string]string{"Player0": "Nguyễn", "Game": "abc", "Event": "Lobby", "Mode": "local"} {
		if got := rec.Tag(name); got != want {
			t.Errorf("tag %s = %q, want %q", name, got, want)
		}
	}
	plain, _ := Record(&st, time.Time{})
	none, _ := RecordTagged(&st, time.Time{}, nil)
	if plain != none || strings.Contains(plain, "Nguyễn") {
		t.Errorf("Record = %q, RecordTagged(nil) = %q", plain, none)
	}
}

func mustMove(t *testing.T, s string) rules.Move {
	t.Helper()
	mv, err := notation.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return mv
}
