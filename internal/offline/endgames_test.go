package offline

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"oanquan/ai"
	"oanquan/ai/endgames"
	"oanquan/internal/wire"
	"oanquan/notation"
	"oanquan/rules"
)

// tableStart is a position with 3 pebbles on the board whose every move
// the table of 6 pebbles knows exactly, as the start of a game, and which
// a search of 14 plies does not prove: player 1 to move.
const tableStart = "1/0/1/0/0/0/0/0/1/0/0/0* 1 12,0,0 35,1,0 30"

// TestEndgames: given a table from its bytes (as the page gives it), the
// engine answers a position inside it from the table: the search proven
// at depth 0 with its verdict, every hint the table's exact score, the
// review proven at depth 0, and the computer at Hard plays the table's
// move. Without one it says so and searches.
func TestEndgames(t *testing.T) {
	dir := t.TempDir()
	if err := endgames.Build(context.Background(), 6, dir, endgames.BuildOptions{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, endgames.Name(6)))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := endgames.Load("table", data)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := notation.ParsePosition(tableStart)
	if err != nil {
		t.Fatal(err)
	}
	var r rules.Rules
	ms, b, ok := tb.Moves(&pos, &r, func(*rules.Position) bool { return false })
	if !ok || !b.Exact() {
		t.Fatalf("the table does not know %s exactly: %v", tableStart, b)
	}
	value, best, moves := endgames.Final(&pos, b.Lo), "", map[string]int{}
	for _, m := range ms {
		moves[notation.FormatMove(m.Move)] = endgames.Final(&pos, m.Bounds.Lo)
		if best == "" && m.Bounds.Lo >= b.Lo {
			best = notation.FormatMove(m.Move)
		}
	}

	e, c := engine(t)
	search := Request{Op: "search", Search: &SearchRequest{Position: tableStart, MoveTime: 50}}
	if n, _ := do[map[string]int](t, e, Request{Op: "endgames"}, 200); n["pebbles"] != 0 {
		t.Errorf("endgames before one is given: %v, want 0 pebbles", n)
	}
	// Without the table the position is searched and not proven (a
	// search's depth may be 0 too: its time can run out before depth 1).
	if res, _ := do[SearchResult](t, e, search, 200); res.Proven || res.Nodes == 0 {
		t.Errorf("search without the table: %+v, want a search, not proven", res)
	}
	e.SetEndgames(tb)
	if n, _ := do[map[string]int](t, e, Request{Op: "endgames"}, 200); n["pebbles"] != 6 {
		t.Errorf("endgames: %v, want 6 pebbles", n)
	}
	if res, _ := do[SearchResult](t, e, search, 200); !res.Proven || res.Depth != 0 || res.Move != best || res.Score != value || res.Verdict == "" {
		t.Errorf("search: %+v; want %s from the table: proven, depth 0, score %d, a verdict", res, best, value)
	}

	st, _ := do[wire.Game](t, e, call("POST", "/api/games", map[string]any{"mode": "local", "position": tableStart}), 201)
	hs, _ := do[wire.Hints](t, e, call("GET", "/api/games/"+st.ID+"/hints", nil), 200)
	for _, h := range hs.Hints {
		if want, ok := moves[h.Move]; !ok || h.Score != want {
			t.Errorf("hint %s scores %d, the table %d", h.Move, h.Score, want)
		}
	}
	do[wire.Turn](t, e, call("POST", "/api/games/"+st.ID+"/moves", map[string]any{"move": best}), 200)
	rv, _ := do[struct {
		Review struct {
			Before int
			Proven bool
			Depth  int
		}
	}](t, e, call("GET", "/api/games/"+st.ID+"/review?ply=0", nil), 200)
	if r := rv.Review; !r.Proven || r.Depth != 0 || r.Before != -value {
		t.Errorf("review: %+v, want proven at depth 0, before %d (player 0's view)", r, -value)
	}

	st, _ = do[wire.Game](t, e, call("POST", "/api/games", map[string]any{"mode": "ai", "level": "hard", "human": 0, "position": tableStart}), 201)
	// The games' computer reads the table: its searches answer from it.
	eng := e.live(st.ID).m.Config().Engine
	if eng == nil {
		t.Fatal("the game's computer is package ai's own, without the table")
	}
	res, err := eng.Search(context.Background(), pos, ai.Limits{Level: ai.Hard, MoveTime: 50 * time.Millisecond, Rules: r})
	if err != nil || !res.Proven || res.Depth != 0 || res.Score != value {
		t.Errorf("the game's engine: %+v, %v; want the table's, proven at depth 0", res, err)
	}
	u := nextTurn(t, c)
	for u.ID != st.ID { // the turns of the game before
		u = nextTurn(t, c)
	}
	if u.Message.Turn == nil || u.Message.Turn.Move != best || u.Message.Turn.By != "computer" {
		t.Errorf("Hard's move: %+v, want %s", u.Message.Turn, best)
	}
}
