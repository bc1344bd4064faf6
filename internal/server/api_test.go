package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/wire"
	"oanquan/notation"
	"oanquan/rules"
)

func TestCreateDefaults(t *testing.T) {
	s := newServer(t, Config{})
	r := do(t, s, "POST", "/api/games", nil)
	c := must[api.Created](t, r, http.StatusCreated)
	g := c.Game
	if len(c.Secret) < 22 || c.Seat != 0 || !slices.Equal(c.Seats, []int{0}) {
		t.Errorf("secret %q, seat %d, seats %v; want a secret for seat 0 alone", c.Secret, c.Seat, c.Seats)
	}
	want := wire.Game{
		ID: g.ID, Mode: "ai", Level: "easy", Human: 0, First: 0, Variants: []string{},
		Position:   notation.Start,
		Cells:      [12]int{5, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5, 0},
		Stones:     [2]bool{true, true},
		StoneValue: 10,
		Legal:      []string{"5L", "5R", "6L", "6R", "7L", "7R", "8L", "8R", "9L", "9R"},
		Moves:      []string{},
		History:    []wire.Played{},
		End:        "none",
		CanHint:    true, // the player to move, against the computer
	}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("new game =\n%+v\nwant\n%+v", g, want)
	}
	if !validID(g.ID) || len(g.ID) < 8 {
		t.Errorf("id %q: want eight or more letters and digits", g.ID)
	}
	if loc := r.header.Get("Location"); loc != "/api/games/"+g.ID {
		t.Errorf("Location = %q", loc)
	}
	if other := create(t, s, nil); other.ID == g.ID {
		t.Errorf("two games with the id %q", g.ID)
	}
	unchanged(t, s, g)
}

// TestStateKeys holds the server to the field names of docs/API.md.
func TestStateKeys(t *testing.T) {
	s := newServer(t, Config{})
	r := do(t, s, "POST", "/api/games", map[string]any{"mode": "local"})
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "mode", "level", "human", "variants", "position", "cells", "stones", "stores",
		"toMove", "ply", "legal", "moves", "thinking", "over", "end", "result", "canUndo", "history", "secret", "seat", "seats"} {
		if _, ok := m[k]; !ok {
			t.Errorf("state has no %q: %s", k, r.body)
		}
	}
	if string(m["result"]) != "null" || string(m["variants"]) != "[]" || string(m["moves"]) != "[]" {
		t.Errorf("result, variants, moves = %s, %s, %s; want null, [], []", m["result"], m["variants"], m["moves"])
	}
	if want := `[{"pebbles":0,"mandarins":0,"debt":0,"points":0},{"pebbles":0,"mandarins":0,"debt":0,"points":0}]`; string(m["stores"]) != want {
		t.Errorf("stores = %s, want %s", m["stores"], want)
	}
	c := decodeAs[api.Created](t, r)
	secrets.Store(c.ID, c.Secret)
	turn := do(t, s, "POST", "/api/games/"+c.ID+"/moves", `{"move":"7R"}`)
	var tm map[string]json.RawMessage
	json.Unmarshal(turn.body, &tm)
	for _, k := range []string{"ply", "player", "move", "by", "events", "state"} {
		if _, ok := tm[k]; !ok {
			t.Errorf("turn has no %q: %s", k, turn.body)
		}
	}
	var events []map[string]json.RawMessage
	json.Unmarshal(tm["events"], &events)
	for _, k := range []string{"kind", "player", "cell", "count", "stone", "points", "reason"} {
		if _, ok := events[0][k]; !ok {
			t.Errorf("event has no %q: %s", k, tm["events"])
		}
	}
}

func TestCreateOptions(t *testing.T) {
	s := newServer(t, Config{})
	g := create(t, s, map[string]any{"mode": "local", "level": "hard", "human": 1, "first": 1,
		"variants": []string{"young-mandarin", "pebble-mandarins"}})
	if g.Mode != "local" || g.Level != "hard" || g.Human != 1 || g.First != 1 || g.ToMove != 1 ||
		!slices.Equal(g.Variants, []string{"young-mandarin", "pebble-mandarins"}) || g.Cells[5] != 10 || g.Stones[0] {
		t.Errorf("game = %+v", g)
	}
	pos := "0/0/0/0/1/0*/0/0/0/0/1/0 0 20,1,0 28,0,0 40"
	g = create(t, s, map[string]any{"mode": "local", "position": pos})
	if g.Position != pos || !slices.Equal(g.Legal, []string{"9L", "9R"}) {
		t.Errorf("game from %q = %+v", pos, g)
	}
}

// TestCreateOver: a game may start from a finished position; it is over
// at once.
func TestCreateOver(t *testing.T) {
	s := newServer(t, Config{})
	g := create(t, s, map[string]any{"position": "0/0/0/0/0/0/0/0/0/0/0/0 0 25,1,0 25,1,0 40"})
	if !g.Over || g.End != "mandarins" || g.Thinking || len(g.Legal) != 0 || g.Result == nil || g.Result.Winner != nil {
		t.Fatalf("game = %+v, want over, a draw", g)
	}
	wantError(t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", `{"move":"5L"}`), 409, "game_over")
	wantError(t, do(t, s, "POST", "/api/games/"+g.ID+"/undo", nil), 409, "conflict")
	unchanged(t, s, g)
}

// TestComputerFirst: the computer moves first when the human takes seat 1.
func TestComputerFirst(t *testing.T) {
	gt := newGate()
	s := newServer(t, Config{Engine: gt})
	g := create(t, s, map[string]any{"human": 1})
	if !g.Thinking || len(g.Legal) != 0 {
		t.Errorf("game = %+v, want the computer thinking", g)
	}
	gt.Release(t)
}

func TestCreateRefused(t *testing.T) {
	s := newServer(t, Config{})
	for _, tc := range []struct {
		body   string
		status int
		code   string
	}{
		{`{`, 400, "bad_request"},
		{`[]`, 400, "bad_request"},
		{`"ai"`, 400, "bad_request"},
		{`null x`, 400, "bad_request"},
		{`{} {}`, 400, "bad_request"},
		{`{"mode":"ai"}}`, 400, "bad_request"},
		{`{"colour":"red"}`, 400, "bad_request"},
		{`{"mode":"chess"}`, 400, "bad_request"},
		{`{"mode":1}`, 400, "bad_request"},
		{`{"level":"expert"}`, 400, "bad_request"},
		{`{"level":"Easy"}`, 400, "bad_request"},
		{`{"human":2}`, 400, "bad_request"},
		{`{"human":0.5}`, 400, "bad_request"},
		{`{"human":"0"}`, 400, "bad_request"},
		{`{"first":-1}`, 400, "bad_request"},
		{`{"variants":["young-mandarin","chess"]}`, 400, "bad_request"},
		{`{"variants":"young-mandarin"}`, 400, "bad_request"},
		{`{"position":"5/5/5"}`, 400, "bad_request"},
		{`{"position":"` + notation.Start + `","first":1}`, 400, "bad_request"},
		{`{"mode":"` + strings.Repeat("x", maxBody) + `"}`, 413, "too_large"},
		{`{"mode":"ai"}` + strings.Repeat(" ", maxBody), 413, "too_large"},
	} {
		r := do(t, s, "POST", "/api/games", tc.body)
		name := tc.body
		if len(name) > 40 {
			name = name[:40] + "…"
		}
		t.Run(name, func(t *testing.T) { wantError(t, r, tc.status, tc.code) })
	}
	if n := len(s.live); n != 0 {
		t.Errorf("%d games made by refused requests", n)
	}
}

func TestNotFound(t *testing.T) {
	s := newServer(t, Config{})
	for _, tc := range []struct{ method, path, body string }{
		{"GET", "/api/games/nope", ""},
		{"GET", "/api/games/NOPE!", ""},
		{"POST", "/api/games/nope/moves", `{"move":"7R"}`},
		{"POST", "/api/games/nope/undo", ""},
		{"PUT", "/api/games/nope/level", `{"level":"hard"}`},
		{"GET", "/api/games/nope/hints", ""},
		{"GET", "/api/games/nope/record", ""},
		{"GET", "/api/games/nope/ws", ""},
		{"GET", "/api/nothing", ""},
		{"GET", "/api/games/nope/nothing", ""},
		{"GET", "/no-such-file.js", ""},
	} {
		r := do(t, s, tc.method, tc.path, tc.body)
		if tc.path == "/no-such-file.js" {
			if r.status != 404 {
				t.Errorf("GET %s: %s, want 404", tc.path, r)
			}
			continue
		}
		t.Run(tc.method+" "+tc.path, func(t *testing.T) { wantError(t, r, 404, "not_found") })
	}
}

func TestWrongMethod(t *testing.T) {
	s := newServer(t, Config{})
	g := create(t, s, map[string]any{"mode": "local"})
	for _, tc := range []struct{ method, path, allow string }{
		{"GET", "/api/games", "POST"},
		{"DELETE", "/api/games/" + g.ID, "GET, HEAD"},
		{"GET", "/api/games/" + g.ID + "/moves", "POST"},
		{"PUT", "/api/games/" + g.ID + "/moves", "POST"},
		{"GET", "/api/games/" + g.ID + "/undo", "POST"},
		{"POST", "/api/games/" + g.ID + "/level", "PUT"},
		{"POST", "/api/games/" + g.ID + "/hints", "GET, HEAD"},
		{"POST", "/api/games/" + g.ID + "/record", "GET, HEAD"},
		{"POST", "/", "GET, HEAD"},
	} {
		r := do(t, s, tc.method, tc.path, `{"move":"7R","level":"hard"}`)
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			wantError(t, r, 405, "method_not_allowed")
			if got := r.header.Get("Allow"); got != tc.allow {
				t.Errorf("Allow = %q, want %q", got, tc.allow)
			}
		})
	}
	unchanged(t, s, g)
}

// TestMoveRefused tries every way a move can be refused, and checks that
// the game is as it was after each.
func TestMoveRefused(t *testing.T) {
	gt := newGate()
	s := newServer(t, Config{Engine: gt})
	g := create(t, s, nil)
	path := "/api/games/" + g.ID + "/moves"
	for _, tc := range []struct {
		body   string
		status int
		code   string
	}{
		{``, 400, "bad_request"},
		{`{`, 400, "bad_request"},
		{`{}`, 400, "bad_request"},
		{`{"move":null}`, 400, "bad_request"},
		{`{"move":"7X"}`, 400, "bad_request"},
		{`{"move":"7r"}`, 400, "bad_request"},
		{`{"move":"10R"}`, 400, "bad_request"},
		{`{"move":7}`, 400, "bad_request"},
		{`{"move":"7R","ply":"0"}`, 400, "bad_request"},
		{`{"move":"7R","by":"computer"}`, 400, "bad_request"},
		{`{"move":"7R"} {"move":"8R"}`, 400, "bad_request"},
		{`{"move":"2R"}`, 422, "illegal_move"},
		{`{"move":"7R","ply":1}`, 409, "conflict"},
		{`{"move":"7R","ply":-1}`, 409, "conflict"},
		{`{"move":"` + strings.Repeat("7", maxBody) + `"}`, 413, "too_large"},
	} {
		r := do(t, s, "POST", path, tc.body)
		t.Run(tc.body, func(t *testing.T) { wantError(t, r, tc.status, tc.code) })
		unchanged(t, s, g)
	}
	turn := must[wire.Turn](t, do(t, s, "POST", path, `{"move":"7R","ply":0}`), 200)
	if !turn.State.Thinking {
		t.Fatalf("after the human's move: %+v, want the computer thinking", turn.State)
	}
	r := do(t, s, "POST", path, `{"move":"5R"}`)
	wantError(t, r, 409, "not_your_turn")
	wantError(t, do(t, s, "GET", "/api/games/"+g.ID+"/hints", nil), 409, "not_your_turn")
	unchanged(t, s, turn.State)
	gt.Release(t)
}

// TestLocalGame plays a whole two-player game through the API, each move
// checked against a rules.Game, to the final count; then the record.
func TestLocalGame(t *testing.T) {
	s := newServer(t, Config{})
	g := create(t, s, map[string]any{"mode": "local"})
	var r rules.Rules
	ref, _ := rules.NewGame(r, r.Start())
	for i := 0; !g.Over; i++ {
		if len(g.Legal) == 0 {
			t.Fatalf("no legal moves in %+v", g)
		}
		move := g.Legal[(i*3)%len(g.Legal)]
		turn := must[wire.Turn](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": move, "ply": g.Ply}), 200)
		m, _ := notation.ParseMove(move)
		var tr rules.Trace
		if _, err := ref.Play(m, &tr); err != nil {
			t.Fatalf("the server allowed %s, which the rules refuse: %v", move, err)
		}
		if turn.Move != move || turn.Ply != g.Ply || turn.Player != g.ToMove || turn.By != "human" || len(turn.Events) != len(tr.Events) {
			t.Fatalf("turn %+v, want %s at ply %d with %d events", turn, move, g.Ply, len(tr.Events))
		}
		for j, e := range tr.Events {
			if turn.Events[j] != wire.EventOf(e) || turn.Events[j].Kind != e.Kind.String() {
				t.Fatalf("event %d = %+v, want %+v", j, turn.Events[j], e)
			}
		}
		g = get(t, s, g.ID)
		if !reflect.DeepEqual(g, turn.State) || g.Position != notation.FormatPosition(ref.Position()) {
			t.Fatalf("state after %s:\n GET %+v\nturn %+v", move, g, turn.State)
		}
	}
	res := ref.Result()
	if g.End != ref.End().String() || g.Result == nil || len(g.Legal) != 0 {
		t.Fatalf("final state %+v, want the end %v", g, ref.End())
	}
	for i, tally := range g.Result.Players {
		if tally != wire.Tally(res.Players[i]) ||
			tally.Total != 10*tally.Mandarins+tally.Pebbles+tally.Swept-tally.Debt+tally.Credit {
			t.Errorf("player %d: tally %+v, want %+v", i, tally, res.Players[i])
		}
	}
	if w := g.Result.Winner; (w == nil) != (res.Winner < 0) || w != nil && *w != res.Winner {
		t.Errorf("winner %v, want %d", w, res.Winner)
	}
	t.Logf("%d moves, %v, score %v", len(g.Moves), g.End, res.Score())

	wantError(t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": g.Moves[0]}), 409, "game_over")
	wantError(t, do(t, s, "GET", "/api/games/"+g.ID+"/hints", nil), 409, "game_over")
	unchanged(t, s, g)

	rec := do(t, s, "GET", "/api/games/"+g.ID+"/record", nil)
	if rec.status != 200 || !strings.HasPrefix(rec.header.Get("Content-Type"), "text/plain") {
		t.Fatalf("record: %s", rec)
	}
	parsed, err := notation.ParseRecord(string(rec.body))
	if err != nil {
		t.Fatalf("the record does not parse: %v\n%s", err, rec.body)
	}
	if !slices.Equal(parsed.Moves, ref.Moves()) || parsed.Tag("Mode") != "local" {
		t.Errorf("record moves %v, want %v", parsed.Moves, ref.Moves())
	}

	// Local undo takes back one move, even after the end.
	u := must[wire.Game](t, do(t, s, "POST", "/api/games/"+g.ID+"/undo", nil), 200)
	if u.Over || len(u.Moves) != len(g.Moves)-1 {
		t.Errorf("after undo: %+v, want one move fewer and the game going on", u)
	}
}

// TestUndoLevelHints exercises the other endpoints of a game against the
// computer.
func TestUndoLevelHints(t *testing.T) {
	gt := newGate()
	s := newServer(t, Config{Engine: gt})
	g := create(t, s, nil)
	id := g.ID
	wantError(t, do(t, s, "POST", "/api/games/"+id+"/undo", nil), 409, "conflict")
	wantError(t, do(t, s, "POST", "/api/games/"+id+"/undo", `{"all":true}`), 400, "bad_request")
	unchanged(t, s, g)

	hs := must[wire.Hints](t, do(t, s, "GET", "/api/games/"+id+"/hints", nil), 200)
	var hinted []string
	for _, h := range hs.Hints {
		hinted = append(hinted, h.Move)
	}
	if !slices.Equal(hinted, g.Legal) || hs.Hints[0].Score < hs.Hints[1].Score {
		t.Errorf("hints %+v, want every legal move, best first", hs)
	}

	for _, body := range []string{``, `{}`, `{"level":"expert"}`, `{"level":2}`, `{"level":"hard","x":1}`} {
		wantError(t, do(t, s, "PUT", "/api/games/"+id+"/level", body), 400, "bad_request")
	}
	unchanged(t, s, g)
	lv := must[wire.Game](t, do(t, s, "PUT", "/api/games/"+id+"/level", `{"level":"hard"}`), 200)
	if lv.Level != "hard" {
		t.Errorf("level %q, want hard", lv.Level)
	}

	do(t, s, "POST", "/api/games/"+id+"/moves", `{"move":"7R"}`)
	c := <-gt.Calls // thinking now
	if lv := must[wire.Game](t, do(t, s, "PUT", "/api/games/"+id+"/level", `{"level":"medium"}`), 200); !lv.Thinking {
		t.Errorf("after a level change while thinking: %+v, want still thinking", lv)
	}
	<-c.Ctx.Done() // the search at hard was canceled…
	if c = <-gt.Calls; c.Lim.Level.String() != "medium" {
		t.Errorf("search again at %v, want medium", c.Lim.Level)
	}
	u := must[wire.Game](t, do(t, s, "POST", "/api/games/"+id+"/undo", nil), 200)
	<-c.Ctx.Done() // …and so was the one at medium, by undo
	if u.Thinking || len(u.Moves) != 0 || u.Position != notation.Start || len(u.Legal) != 10 {
		t.Errorf("after undo while thinking: %+v, want the start", u)
	}
}

// TestHintsFromAI asks package ai for hints: one per legal move.
func TestHintsFromAI(t *testing.T) {
	s := New(Config{HintTime: 20 * time.Millisecond})
	t.Cleanup(s.Close)
	g := create(t, s, map[string]any{"mode": "local"})
	hs := must[wire.Hints](t, do(t, s, "GET", "/api/games/"+g.ID+"/hints", nil), 200)
	var moves []string
	for i, h := range hs.Hints {
		moves = append(moves, h.Move)
		if i > 0 && h.Score > hs.Hints[i-1].Score {
			t.Errorf("hints %+v: not best first", hs.Hints)
		}
	}
	slices.Sort(moves)
	if !slices.Equal(moves, g.Legal) {
		t.Errorf("hints for %v, want one for each of %v", moves, g.Legal)
	}
}

// TestConcurrentRequests is for the race detector: clients play, undo,
// change the level, ask for hints and watch one game at once. No answer
// is a 5xx, and the game stays one that its moves explain.
func TestConcurrentRequests(t *testing.T) {
	s := newServer(t, Config{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	g := create(t, s, nil)
	ws := dial(t, ts, g.ID)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 30 {
				var r response
				switch (w + i) % 5 {
				case 0, 1:
					st := decodeAs[wire.Game](t, do(t, s, "GET", "/api/games/"+g.ID, nil))
					if len(st.Legal) == 0 {
						continue
					}
					r = do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": st.Legal[i%len(st.Legal)], "ply": st.Ply})
				case 2:
					r = do(t, s, "POST", "/api/games/"+g.ID+"/undo", nil)
				case 3:
					r = do(t, s, "PUT", "/api/games/"+g.ID+"/level", map[string]any{"level": []string{"easy", "medium"}[i%2]})
				case 4:
					r = do(t, s, "GET", "/api/games/"+g.ID+"/hints", nil)
				}
				if r.status >= 500 {
					t.Errorf("%s", r)
				}
			}
		})
	}
	wg.Wait()
	ws.c.CloseNow()
	s.Close()
	s2 := New(Config{Store: s.store, Engine: first{}})
	defer s2.Close()
	final := get(t, s2, g.ID) // rebuilt from what was saved
	var r rules.Rules
	ref, _ := rules.NewGame(r, r.Start())
	for _, mv := range final.Moves {
		m, _ := notation.ParseMove(mv)
		if _, err := ref.Play(m, nil); err != nil {
			t.Fatalf("moves %v: %v", final.Moves, err)
		}
	}
	if final.Position != notation.FormatPosition(ref.Position()) {
		t.Errorf("saved position %s, want %s after %v", final.Position, notation.FormatPosition(ref.Position()), final.Moves)
	}
}
