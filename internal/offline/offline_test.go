package offline

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/match"
	"oanquan/internal/wire"
	"oanquan/notation"
	"oanquan/rules"
)

// engine returns an engine whose updates come on the channel.
func engine(t *testing.T) (*Engine, chan Update) {
	c := make(chan Update, 64)
	return New(func(u Update) { c <- u }), c
}

// do answers q, failing the test unless the status is want; it decodes
// the body (through JSON, as the page gets it) into v.
func do[T any](t *testing.T, e *Engine, q Request, want int) (T, *Saved) {
	t.Helper()
	a := e.Do(q)
	b, err := json.Marshal(a.Body)
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != want {
		t.Fatalf("%s %s%s: status %d %s, want %d", q.Method, q.Path, q.Op, a.Status, b, want)
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s %s%s: %v in %s", q.Method, q.Path, q.Op, err, b)
	}
	return v, a.Saved
}

// call is an API call as the page sends it: body in JSON, and the game
// as kept, if any.
func call(method, path string, body any, kept ...*Saved) Request {
	q := Request{Method: method, Path: path}
	if body != nil {
		q.Body, _ = json.Marshal(body)
	}
	if len(kept) > 0 {
		q.Game = kept[0]
	}
	return q
}

// nextTurn waits for the next turn among the updates.
func nextTurn(t *testing.T, c chan Update) Update {
	t.Helper()
	for {
		select {
		case u := <-c:
			if u.Message.Type == "turn" {
				return u
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no turn came")
		}
	}
}

// A whole game against Easy, as the page plays it: each move answered
// with its turn, the computer's reply sent as an update; the game kept
// from the updates rebuilds, in a new engine, the same state.
func TestGameAgainstEasy(t *testing.T) {
	e, c := engine(t)
	st, saved := do[wire.Game](t, e, call("POST", "/api/games", map[string]any{"mode": "ai", "level": "easy", "first": 1}), 201)
	if st.Mode != "ai" || st.Level != "easy" || st.ID[:len(IDPrefix)] != IDPrefix || saved == nil || saved.ID != st.ID {
		t.Fatalf("created %+v, kept %+v", st, saved)
	}
	id := st.ID
	for i := 0; !st.Over; i++ {
		if len(st.Legal) == 0 { // the computer is to move
			u := nextTurn(t, c)
			if u.ID != id || u.Message.Turn.By != "computer" || u.Saved == nil || len(u.Saved.Moves) != u.Message.Turn.State.Ply {
				t.Fatalf("update %+v", u)
			}
			st, saved = u.Message.Turn.State, u.Saved
			continue
		}
		ply := st.Ply
		turn, kept := do[wire.Turn](t, e, call("POST", "/api/games/"+id+"/moves", map[string]any{"move": st.Legal[i%len(st.Legal)], "ply": ply}), 200)
		if turn.By != "human" || turn.Ply != ply || len(turn.Events) == 0 || kept == nil || len(kept.Moves) < ply+1 {
			t.Fatalf("turn %+v, kept %+v", turn, kept)
		}
		saved = kept   // the game may end with this move
		nextTurn(t, c) // the same turn, as the WebSocket sends it
		st = turn.State
	}
	if st.Result == nil || len(st.Positions) != len(st.Moves)+1 {
		t.Fatalf("the end: %+v", st)
	}
	do[wire.Game](t, e, call("POST", "/api/games/"+id+"/moves", map[string]any{"move": "7R"}), 409)
	text, _ := do[string](t, e, call("GET", "/api/games/"+id+"/record", nil), 200)
	if len(text) < 100 {
		t.Errorf("record %q", text)
	}

	// A reload: a new engine, the game rebuilt from what was kept.
	e2, _ := engine(t)
	do[wire.Game](t, e2, call("GET", "/api/games/"+id, nil), 404)
	again, _ := do[wire.Game](t, e2, call("GET", "/api/games/"+id, nil, saved), 200)
	if !reflect.DeepEqual(again, st) {
		t.Errorf("rebuilt\n%+v\nwant\n%+v", again, st)
	}
}

// Two players: the moves, an undo, refusals with the server's codes.
func TestTwoPlayers(t *testing.T) {
	e, _ := engine(t)
	st, _ := do[wire.Game](t, e, call("POST", "/api/games", map[string]any{"mode": "local", "variants": []string{"young-mandarin"}}), 201)
	if st.Mode != "local" || len(st.Legal) != 10 || !reflect.DeepEqual(st.Variants, []string{"young-mandarin"}) {
		t.Fatalf("created %+v", st)
	}
	turn, _ := do[wire.Turn](t, e, call("POST", "/api/games/"+st.ID+"/moves", map[string]any{"move": "7R"}), 200)
	if turn.State.ToMove != 1 || turn.State.History[0].Player != 0 {
		t.Fatalf("after 7R: %+v", turn.State)
	}
	type refused struct {
		Error struct{ Code string } `json:"error"`
	}
	for _, c := range []struct {
		q    Request
		code string
		want int
	}{
		{call("POST", "/api/games/"+st.ID+"/moves", map[string]any{"move": "7R"}), "illegal_move", 422}, // player 2's turn: the bottom row is not theirs
		{call("POST", "/api/games/"+st.ID+"/moves", map[string]any{"move": "2L", "ply": 0}), "conflict", 409},
		{call("POST", "/api/games/"+st.ID+"/moves", map[string]any{"move": "x"}), "bad_request", 400},
		{call("GET", "/api/games/local-nope", nil), "not_found", 404},
		{call("POST", "/api/games", map[string]any{"mode": "online"}), "not_offline", 501},
		{call("POST", "/api/games", map[string]any{"mode": "nope"}), "bad_request", 400},
		{call("POST", "/api/games/"+st.ID+"/resign", nil), "not_offline", 501},
		{call("GET", "/api/games/"+st.ID+"/fly", nil), "not_found", 404},
		{call("DELETE", "/api/games/"+st.ID, nil), "method_not_allowed", 405},
		{Request{Op: "fly"}, "bad_request", 400},
	} {
		r, _ := do[refused](t, e, c.q, c.want)
		if r.Error.Code != c.code {
			t.Errorf("%+v: code %q, want %q", c.q, r.Error.Code, c.code)
		}
	}
	back, saved := do[wire.Game](t, e, call("POST", "/api/games/"+st.ID+"/undo", nil), 200)
	if back.Ply != 0 || len(saved.Moves) != 0 {
		t.Errorf("after undo: ply %d, kept %v", back.Ply, saved.Moves)
	}
	hints, _ := do[wire.Hints](t, e, call("GET", "/api/games/"+st.ID+"/hints", nil), 200)
	if len(hints.Hints) != 10 {
		t.Errorf("hints %+v", hints)
	}
}

// A game of the server's carries on here from its last state: the same
// id, moves and position; one set up from a position carries on from it.
func TestAdopt(t *testing.T) {
	setup, err := notation.ParsePosition("4/6/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 0")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		start *rules.Position
		moves int // kept here
	}{{"usual start", nil, 2}, {"set up", &setup, 0}} {
		m, err := match.New(match.Config{ID: "k3j9x2ab", Mode: match.Local, Start: c.start})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			st := m.State()
			if _, err := m.Play(st.Legal[len(st.Legal)-1], nil); err != nil {
				t.Fatal(err)
			}
		}
		st := m.State()
		m.Close()
		last := wire.GameOf(&st)
		e, _ := engine(t)
		got, saved := do[wire.Game](t, e, Request{Op: "adopt", State: &last}, 200)
		if got.ID != last.ID || got.Position != last.Position || len(got.Moves) != c.moves || got.ToMove != last.ToMove {
			t.Errorf("%s: carried on as %+v\nfrom %+v", c.name, got, last)
		}
		if (saved.Start != "") != (c.start != nil) {
			t.Errorf("%s: kept start %q", c.name, saved.Start)
		}
		turn, _ := do[wire.Turn](t, e, call("POST", "/api/games/"+last.ID+"/moves", map[string]any{"move": got.Legal[0]}), 200)
		if turn.Ply != last.Ply {
			t.Errorf("%s: the next move at ply %d, want %d", c.name, turn.Ply, last.Ply)
		}
	}
	online := wire.Game{ID: "x", Mode: "online"}
	do[struct{}](t, New(func(Update) {}), Request{Op: "adopt", State: &online}, 400)
}

// A search for measuring: Hard from the start, in its time.
func TestSearch(t *testing.T) {
	e, _ := engine(t)
	r, _ := do[SearchResult](t, e, Request{Op: "search", Search: &SearchRequest{MoveTime: 100}}, 200)
	if r.Depth < 2 || r.Nodes < 100 || r.Move == "" || r.MS < 50 || r.MS > 2000 {
		t.Errorf("search = %+v", r)
	}
	do[struct{}](t, e, Request{Op: "search", Search: &SearchRequest{Position: "nonsense"}}, 400)
}

// An engine keeps a few games live; one closed is rebuilt when asked for
// with what the page kept.
func TestFewLive(t *testing.T) {
	e, _ := engine(t)
	var kept []*Saved
	for range maxLive + 2 {
		st, saved := do[wire.Game](t, e, call("POST", "/api/games", map[string]any{"mode": "local"}), 201)
		do[wire.Turn](t, e, call("POST", "/api/games/"+st.ID+"/moves", map[string]any{"move": "7R"}), 200)
		_, saved = do[wire.Game](t, e, call("GET", "/api/games/"+st.ID, nil), 200)
		kept = append(kept, saved)
	}
	if n := len(e.games); n != maxLive {
		t.Errorf("%d games live, want %d", n, maxLive)
	}
	first := kept[0]
	do[struct{}](t, e, call("GET", "/api/games/"+first.ID, nil), 404)
	st, _ := do[wire.Game](t, e, call("GET", "/api/games/"+first.ID, nil, first), 200)
	if len(st.Moves) != 1 || st.Moves[0] != "7R" {
		t.Errorf("rebuilt with moves %v, want [7R]", st.Moves)
	}
}

// FuzzRebuild: a game kept in the browser may come back altered (by
// hand, or by an older page); rebuilding it refuses what does not parse
// or play, with the server's codes, and never fails otherwise.
func FuzzRebuild(f *testing.F) {
	f.Add("ai", "hard", 0, 1, "young-mandarin", "", "7R 2L 9R")
	f.Add("local", "", 1, 0, "", "4/6/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 0", "5L")
	f.Add("online", "x", 2, -1, "nope", "garbage", "7Q")
	f.Add("", "", 0, 0, "young-mandarin", "", "9R 2L 7R") // the computer's turn: it may answer at once
	e := New(func(Update) {})
	f.Fuzz(func(t *testing.T, mode, level string, human, first int, variant, start, moves string) {
		saved := &Saved{ID: "local-fuzz", Mode: mode, Level: level, Human: human, First: first, Start: start, Moves: strings.Fields(moves)}
		if variant != "" {
			saved.Variants = []string{variant}
		}
		e.close(saved.ID)
		a := e.Do(call("GET", "/api/games/"+saved.ID, nil, saved))
		switch a.Status {
		case 200:
			// The rebuilt game has the kept moves; the computer, if it
			// was its turn, may have answered already with one more.
			g, ok := a.Body.(wire.Game)
			extra := len(g.Moves) - len(saved.Moves)
			if !ok || g.ID != saved.ID || extra < 0 || extra > 1 || !slices.Equal(g.Moves[:len(saved.Moves)], saved.Moves) ||
				extra == 1 && (len(g.History) == 0 || g.History[len(g.History)-1].By != "computer") {
				t.Fatalf("rebuilt %+v from %+v", a.Body, saved)
			}
		case 501: // a game between players online: the server's
			if b, ok := a.Body.(api.ErrorBody); !ok || b.Error.Code != "not_offline" {
				t.Fatalf("refused with %+v", a.Body)
			}
		case 400:
			if b, ok := a.Body.(api.ErrorBody); !ok || b.Error.Code != "bad_request" || b.Error.Message == "" {
				t.Fatalf("refused with %+v", a.Body)
			}
		default:
			t.Fatalf("status %d, %+v, from %+v", a.Status, a.Body, saved)
		}
	})
}

// TestReview: a game kept here, and a pasted record, are reviewed as the
// server reviews them: the blunder of a position set up for it is marked
// with the better move; a bad ply or record is refused.
func TestReview(t *testing.T) {
	e, _ := engine(t)
	const start = "1/0/0/1/0/0/3/10/4/4/2/4* 0 15,0,0 6,1,0 4" // 6L throws a mandarin away
	pos, err := notation.ParsePosition(start)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := do[wire.Game](t, e, Request{Op: "adopt", State: &wire.Game{ID: "srv1", Mode: "local", Level: "easy", Position: start, Moves: []string{}, Variants: []string{}, First: int(pos.ToMove)}}, 200)
	do[wire.Turn](t, e, call("POST", "/api/games/"+st.ID+"/moves", map[string]any{"move": "6L"}), 200)
	type review struct {
		Review struct {
			Move, Best, Mark string
			Loss             int
		}
		Before, After string
		Moves         int
	}
	got, _ := do[review](t, e, call("GET", "/api/games/"+st.ID+"/review?ply=0", nil), 200)
	if got.Review.Move != "6L" || got.Review.Mark != "blunder" || got.Review.Best == "" || got.Before != start || got.Moves != 1 {
		t.Errorf("review of 6L: %+v", got)
	}
	fromRecord, _ := do[review](t, e, call("POST", "/api/review", map[string]any{"record": "[Start \"" + start + "\"]\n\n1. 6L *\n", "ply": 0}), 200)
	if fromRecord.Review.Move != "6L" || fromRecord.Review.Mark != "blunder" || fromRecord.Review.Best == "" || fromRecord.After != got.After {
		t.Errorf("the record's review %+v, the game's %+v", fromRecord, got)
	}
	for _, q := range []Request{
		call("GET", "/api/games/"+st.ID+"/review?ply=1", nil),
		call("GET", "/api/games/"+st.ID+"/review", nil),
		call("POST", "/api/review", map[string]any{"record": "\n1. 7R 9X *\n", "ply": 0}),
	} {
		do[map[string]any](t, e, q, 400)
	}
}

// FuzzServe: any API call the page could send (any method, path and
// body) is answered with a status and a JSON body, never a crash: a
// game's answer, or a refusal with one of the API's codes.
func FuzzServe(f *testing.F) {
	f.Add("POST", "/api/games", `{"mode":"local"}`)
	f.Add("POST", "/api/games/local-1/moves", `{"move":"7R","ply":0}`)
	f.Add("GET", "/api/games/local-1/review?ply=%30", ``)
	f.Add("POST", "/api/review", `{"record":"\n1. 7R *\n","ply":0}`)
	f.Add("PUT", "/api/games/local-1/level", `{"level":"hard"}`)
	f.Add("DELETE", "/api/games/x/join", `[]`)
	e := New(func(Update) {})
	kept := &Saved{ID: "local-1", Mode: "local", Moves: []string{}}
	f.Fuzz(func(t *testing.T, method, path, body string) {
		q := Request{Method: method, Path: path, Game: kept}
		if json.Valid([]byte(body)) {
			q.Body = json.RawMessage(body)
		}
		a := e.Do(q)
		if _, err := json.Marshal(a.Body); err != nil || a.Status < 200 || a.Status > 599 {
			t.Fatalf("%s %s %s: %d %+v (%v)", method, path, body, a.Status, a.Body, err)
		}
		if b, ok := a.Body.(api.ErrorBody); ok && (a.Status < 400 || b.Error.Code == "" || b.Error.Code == "internal") {
			t.Fatalf("%s %s %s: %d %+v", method, path, body, a.Status, b)
		}
	})
}
