package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"
	"rsc.io/qr"

	"oanquan/internal/api"
	"oanquan/internal/store/memory"
	"oanquan/internal/wire"
	"oanquan/notation"
)

// player is one side of an online game in these tests: the secret it
// holds and the seat it plays.
type player struct {
	secret string
	seat   int
}

// act sends a request as p.
func (p player) act(t testing.TB, h http.Handler, method, path string, body string) response {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if p.secret != "" {
		req.Header.Set("Authorization", "Bearer "+p.secret)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return response{w.Code, w.Header(), w.Body.Bytes()}
}

// onlineGame makes an online game and has a friend join it.
func onlineGame(t *testing.T, h http.Handler, body string) (id string, creator, friend player) {
	t.Helper()
	c := must[api.Created](t, do(t, h, "POST", "/api/games", body), http.StatusCreated)
	if c.Mode != "online" || len(c.Seats) != 1 {
		t.Fatalf("online game: mode %q, seats %v; want online and one seat", c.Mode, c.Seats)
	}
	if p := c.Presence; p == nil || !p.Taken[c.Seat] || p.Taken[1-c.Seat] {
		t.Fatalf("new online game's presence %+v: want only the creator's seat %d taken", p, c.Seat)
	}
	j := must[api.Joined](t, player{}.act(t, h, "POST", "/api/games/"+c.ID+"/join", ""), 200)
	if j.Secret == "" || j.Seat == c.Seat {
		t.Fatalf("joined seat %d with secret %q; want the other seat than %d and a secret", j.Seat, j.Secret, c.Seat)
	}
	if p := j.Game.Presence; p == nil || p.Taken != [2]bool{true, true} {
		t.Fatalf("joined game's presence %+v: want both seats taken", p)
	}
	return c.ID, player{c.Secret, c.Seat}, player{j.Secret, j.Seat}
}

// mover returns which of a and b is to move in g.
func mover(g wire.Game, a, b player) player {
	if g.ToMove == a.seat {
		return a
	}
	return b
}

// TestJoinRace: many clients race for the free seat of an online game:
// exactly one gets it, the others get 409 and may watch.
func TestJoinRace(t *testing.T) {
	s := newServer(t, Config{})
	c := must[api.Created](t, do(t, s, "POST", "/api/games", `{"mode":"online","human":1}`), http.StatusCreated)
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	var winner api.Joined
	for range 40 {
		wg.Go(func() {
			r := player{}.act(t, s, "POST", "/api/games/"+c.ID+"/join", "")
			mu.Lock()
			defer mu.Unlock()
			codes[r.status]++
			if r.status == 200 {
				winner = decodeAs[api.Joined](t, r)
			}
		})
	}
	wg.Wait()
	if codes[200] != 1 || codes[409] != 39 {
		t.Fatalf("answers %v, want one 200 and 39 409s", codes)
	}
	if winner.Seat != 0 || winner.Secret == "" {
		t.Errorf("winner %+v, want seat 0 with a secret", winner)
	}
	wantError(t, player{}.act(t, s, "POST", "/api/games/"+c.ID+"/join", ""), 409, "seat_taken")
	// A player who joins again keeps their seat, with no new secret.
	again := must[api.Joined](t, player{winner.Secret, 0}.act(t, s, "POST", "/api/games/"+c.ID+"/join", ""), 200)
	if again.Seat != 0 || again.Secret != "" {
		t.Errorf("joining again: %+v, want seat 0 and no new secret", again)
	}
	// The creator too.
	if r := must[api.Joined](t, player{c.Secret, 1}.act(t, s, "POST", "/api/games/"+c.ID+"/join", ""), 200); r.Seat != 1 {
		t.Errorf("the creator joining: seat %d, want 1", r.Seat)
	}
	// Games of the other modes have nothing to join.
	l := create(t, s, map[string]any{"mode": "local"})
	wantError(t, player{}.act(t, s, "POST", "/api/games/"+l.ID+"/join", ""), 409, "seat_taken")
}

// TestOnlineTurns: each player moves only on their turn and with their own
// secret; a stranger is refused everything; the first player is chosen
// as asked, at random too.
func TestOnlineTurns(t *testing.T) {
	s := newServer(t, Config{})
	id, a, b := onlineGame(t, s, `{"mode":"online","first":1}`)
	g := get(t, s, id)
	if g.ToMove != 1 || a.seat != 0 {
		t.Fatalf("first %d, creator's seat %d; want 1 and 0", g.ToMove, a.seat)
	}
	stranger := player{secret: "not-a-secret-of-this-game-at-all"}
	for _, p := range []player{{}, stranger} {
		for _, path := range []string{"moves", "resign", "abort", "draw", "takeback", "rematch"} {
			body := `{"action":"offer"}`
			if path == "moves" {
				body = `{"move":"` + g.Legal[0] + `"}`
			} else if path == "resign" || path == "abort" {
				body = ""
			}
			wantError(t, p.act(t, s, "POST", "/api/games/"+id+"/"+path, body), 403, "not_your_seat")
		}
	}
	wantError(t, a.act(t, s, "POST", "/api/games/"+id+"/moves", `{"move":"`+g.Legal[0]+`"}`), 409, "not_your_turn")
	must[wire.Turn](t, b.act(t, s, "POST", "/api/games/"+id+"/moves", `{"move":"`+g.Legal[0]+`"}`), 200)
	for _, path := range []string{"undo", "hints"} {
		method := "POST"
		if path == "hints" {
			method = "GET"
		}
		if r := a.act(t, s, method, "/api/games/"+id+"/"+path, ""); r.status < 400 {
			t.Errorf("%s in an online game: %s, want a refusal", path, r)
		}
	}
	seen := map[int]bool{}
	for range 40 {
		c := must[api.Created](t, do(t, s, "POST", "/api/games", `{"mode":"online","first":"random"}`), 201)
		seen[c.ToMove] = true
	}
	if !seen[0] || !seen[1] {
		t.Errorf("first at random: only %v in 40 games", seen)
	}
	r := do(t, s, "POST", "/api/games", `{"mode":"online","first":"sometimes"}`)
	wantError(t, r, 400, "bad_request")
	if e := decodeAs[api.ErrorBody](t, r); !strings.Contains(e.Error.Message, `want 0, 1 or "random"`) {
		t.Errorf("first: sometimes: message %q, want what first takes", e.Error.Message)
	}
}

// TestOnlineOffers plays every offer and answer of an online game.
func TestOnlineOffers(t *testing.T) {
	s := newServer(t, Config{})
	id, a, b := onlineGame(t, s, `{"mode":"online"}`)
	path := "/api/games/" + id + "/"
	play := func() wire.Game {
		t.Helper()
		g := get(t, s, id)
		return must[wire.Turn](t, mover(g, a, b).act(t, s, "POST", path+"moves", `{"move":"`+g.Legal[0]+`"}`), 200).State
	}

	// Abort: only before one's own first move.
	play() // a (seat 0) moves first
	wantError(t, a.act(t, s, "POST", path+"abort", ""), 409, "conflict")

	// A draw offered, seen by both, declined.
	g := must[wire.Game](t, a.act(t, s, "POST", path+"draw", `{"action":"offer"}`), 200)
	if g.Offer == nil || g.Offer.Kind != "draw" || g.Offer.By != a.seat {
		t.Fatalf("after a draw offer: offer %+v", g.Offer)
	}
	wantError(t, a.act(t, s, "POST", path+"draw", `{"action":"accept"}`), 409, "conflict") // one's own offer
	g = must[wire.Game](t, b.act(t, s, "POST", path+"draw", `{"action":"decline"}`), 200)
	if g.Offer != nil || g.Over {
		t.Fatalf("after declining: offer %+v, over %v", g.Offer, g.Over)
	}

	// A takeback asked after one's move, accepted: the move is gone.
	before := get(t, s, id)
	asker := mover(before, a, b)
	other := a
	if asker == a {
		other = b
	}
	play()
	must[wire.Game](t, asker.act(t, s, "POST", path+"takeback", `{"action":"offer"}`), 200)
	g = must[wire.Game](t, other.act(t, s, "POST", path+"takeback", `{"action":"accept"}`), 200)
	if len(g.Moves) != len(before.Moves) || g.Offer != nil || g.ToMove != before.ToMove {
		t.Fatalf("after the takeback: %d moves, offer %+v, to move %d; want %d moves, none, %d", len(g.Moves), g.Offer, g.ToMove, len(before.Moves), before.ToMove)
	}

	// An offer lapses when a move is played.
	must[wire.Game](t, b.act(t, s, "POST", path+"draw", `{"action":"offer"}`), 200)
	if g = play(); g.Offer != nil {
		t.Errorf("a draw offer survived a move: %+v", g.Offer)
	}

	// A draw offered and accepted ends the game; a rematch follows.
	must[wire.Game](t, a.act(t, s, "POST", path+"draw", `{"action":"offer"}`), 200)
	g = must[wire.Game](t, b.act(t, s, "POST", path+"draw", `{"action":"accept"}`), 200)
	if !g.Over || g.End != "draw" || g.Result == nil || g.Result.Winner != nil || len(g.Legal) != 0 {
		t.Fatalf("after an agreed draw: over %v, end %q, result %+v, legal %v", g.Over, g.End, g.Result, g.Legal)
	}
	if n := len(g.Positions); n != len(g.Moves)+1 || g.Positions[n-1] != g.Position || g.Positions[0] != notation.Start {
		t.Errorf("a finished game's positions: %d of them, from %q to %q; want %d, from the start to %q", n, g.Positions[0], g.Positions[n-1], len(g.Moves)+1, g.Position)
	}
	wantError(t, a.act(t, s, "POST", path+"resign", ""), 409, "game_over")
	must[wire.Game](t, b.act(t, s, "POST", path+"rematch", `{"action":"offer"}`), 200)
	g = must[wire.Game](t, a.act(t, s, "POST", path+"rematch", `{"action":"accept"}`), 200)
	if g.Next == "" {
		t.Fatalf("after the rematch was agreed: no next game")
	}
	next := get(t, s, g.Next)
	if next.Mode != "online" || next.First != 1-get(t, s, id).First || len(next.Moves) != 0 {
		t.Errorf("the rematch: %+v; want an online game, the other player first", next)
	}
	// Both players' secrets act in the rematch, for their seats.
	m := mover(next, a, b)
	must[wire.Turn](t, m.act(t, s, "POST", "/api/games/"+g.Next+"/moves", `{"move":"`+next.Legal[0]+`"}`), 200)

	// Resign: the other player wins.
	g = must[wire.Game](t, a.act(t, s, "POST", "/api/games/"+g.Next+"/resign", ""), 200)
	if !g.Over || g.End != "resign" || g.Result == nil || g.Result.Winner == nil || *g.Result.Winner != b.seat {
		t.Errorf("after resigning: over %v, end %q, result %+v", g.Over, g.End, g.Result)
	}
}

// TestOnlineAbort: a game nobody has moved in may be aborted by either
// player.
func TestOnlineAbort(t *testing.T) {
	s := newServer(t, Config{})
	id, _, b := onlineGame(t, s, `{"mode":"online"}`)
	g := must[wire.Game](t, b.act(t, s, "POST", "/api/games/"+id+"/abort", ""), 200)
	if !g.Over || g.End != "abort" {
		t.Errorf("after abort: over %v, end %q", g.Over, g.End)
	}
}

// TestOnlineResend: a move sent again for its ply is answered with its
// turn and played once; another move for a past ply is a conflict with
// the state.
func TestOnlineResend(t *testing.T) {
	s := newServer(t, Config{})
	id, a, b := onlineGame(t, s, `{"mode":"online"}`)
	g := get(t, s, id)
	body := `{"move":"` + g.Legal[0] + `","ply":0}`
	first := must[wire.Turn](t, a.act(t, s, "POST", "/api/games/"+id+"/moves", body), 200)
	again := must[wire.Turn](t, a.act(t, s, "POST", "/api/games/"+id+"/moves", body), 200)
	if again.Ply != 0 || again.Move != first.Move || len(again.State.Moves) != 1 || len(again.Events) != len(first.Events) {
		t.Errorf("sent again: %+v; want the same turn, one move played", again)
	}
	// The same move at that ply from the other seat is not a resend.
	r := b.act(t, s, "POST", "/api/games/"+id+"/moves", body)
	wantError(t, r, 409, "conflict")
	r = a.act(t, s, "POST", "/api/games/"+id+"/moves", `{"move":"`+g.Legal[1]+`","ply":0}`)
	wantError(t, r, 409, "conflict")
	if e := decodeAs[api.ErrorBody](t, r); e.State == nil || len(e.State.Moves) != 1 {
		t.Errorf("conflict without the state: %s", r.body)
	}
}

// TestPresence: the players' pages say hello with their secret; the
// WebSocket tells everyone who is connected and how many watch (a
// player's socket is never counted as a watcher, even before its
// hello), and of a player not there, whether their connection dropped
// or their page left.
func TestPresence(t *testing.T) {
	s := newServer(t, Config{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	id, a, _ := onlineGame(t, s, `{"mode":"online"}`)
	watcher := dial(t, ts, id)
	if m := watcher.want("state"); m.State.Presence == nil {
		t.Fatal("an online game's state has no presence")
	}
	// There is one watcher: a player's socket never counts as another,
	// even before its hello.
	waitPresence := func(want wire.Presence) {
		t.Helper()
		for {
			m := watcher.next()
			if m.Type == "presence" && m.Presence.Watchers > 1 {
				t.Errorf("presence %+v: a player counted as a watcher", *m.Presence)
			}
			if m.Type == "presence" && *m.Presence == want {
				return
			}
		}
	}
	both := [2]bool{true, true}
	waitPresence(wire.Presence{Watchers: 1, Taken: both})
	pa := dial(t, ts, id)
	pa.want("state")
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	if err := pa.c.Write(ctx, websocket.MessageText, []byte(`{"type":"hello","secret":"`+a.secret+`"}`)); err != nil {
		t.Fatal(err)
	}
	want := wire.Presence{Watchers: 1, Taken: both}
	want.Seats[a.seat] = true
	waitPresence(want)
	pa.c.Close(websocket.StatusNormalClosure, "")
	waitPresence(wire.Presence{Watchers: 1, Taken: both})

	// The player's connection drops (no close frame): said so, unlike a
	// page closed, until the player is back.
	hello := func() *wsClient {
		t.Helper()
		c := dial(t, ts, id)
		c.want("state")
		if err := c.c.Write(ctx, websocket.MessageText, []byte(`{"type":"hello","secret":"`+a.secret+`"}`)); err != nil {
			t.Fatal(err)
		}
		waitPresence(want)
		return c
	}
	hello().c.CloseNow()
	dropped := wire.Presence{Watchers: 1, Taken: both}
	dropped.Dropped[a.seat] = true
	waitPresence(dropped)
	back := hello()
	// A page that says its network went away (4000) dropped too.
	back.c.Close(4000, "offline")
	waitPresence(dropped)
	// Back, then the page closed: left, not dropped.
	hello().c.Close(websocket.StatusNormalClosure, "")
	waitPresence(wire.Presence{Watchers: 1, Taken: both})
}

// TestQRCode: an invitation link to this server is drawn as a QR code in
// SVG; other links and nonsense are refused.
func TestQRCode(t *testing.T) {
	s := newServer(t, Config{})
	link := "http://example.com/?game=abc123"
	r := do(t, s, "GET", "/api/qr.svg?url="+url.QueryEscape(link), nil) // httptest's host is example.com
	if r.status != 200 || r.header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("QR code: %s", r)
	}
	body := string(r.body)
	if !strings.HasPrefix(body, "<svg") || strings.Count(body, "h1v1h-1z") < 100 {
		t.Errorf("QR code: %.80s…, want an SVG with the code's modules", body)
	}
	// The code is the link's: rsc.io/qr's own bitmap, module for module.
	code, err := qr.Encode(link, qr.M)
	if err != nil {
		t.Fatal(err)
	}
	if got := qrSVG(code); got != body {
		t.Error("the SVG is not the code of the link")
	}
	for _, bad := range []string{"", "javascript:alert(1)", "http://elsewhere.example/?game=x", "/?game=x", "http://example.com/" + strings.Repeat("a", 400)} {
		wantError(t, do(t, s, "GET", "/api/qr.svg?url="+url.QueryEscape(bad), nil), 400, "bad_request")
	}
}

// TestHelloAfterJoinElsewhere: a friend who joined through another
// server sharing the store says hello here before this server has heard
// of the join: the hello is still taken for the friend's seat.
func TestHelloAfterJoinElsewhere(t *testing.T) {
	st := memory.New()
	s := newServer(t, Config{Store: st})
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := must[api.Created](t, do(t, s, "POST", "/api/games", `{"mode":"online"}`), http.StatusCreated)
	watcher := dial(t, ts, c.ID) // the game is live here
	watcher.want("state")
	// Another server gives the free seat: this one is not told (a
	// memory store tells nobody).
	friend := player{newSecret(), 1 - c.Seat}
	if err := st.ClaimSeat(context.Background(), c.ID, friend.seat, hashSecret(friend.secret)); err != nil {
		t.Fatal(err)
	}
	w := dial(t, ts, c.ID)
	w.want("state")
	hello(t, w, friend)
	want := wire.Presence{Watchers: 1, Taken: [2]bool{true, true}}
	want.Seats[friend.seat] = true
	awaitPresence(t, watcher, want)
}

// TestRecordOfPlayersEnd: a game its players ended (a draw agreed, a
// resignation, an abort) is recorded with how and the result
// (docs/RECORD.md), and the record replays.
func TestRecordOfPlayersEnd(t *testing.T) {
	s := newServer(t, Config{})
	for _, tt := range []struct {
		end, how string
		moves    int
	}{
		{"draw", notation.TerminationDraw, 2},
		{"resign", notation.TerminationResign, 1},
		{"abort", notation.TerminationAbort, 0},
	} {
		t.Run(tt.end, func(t *testing.T) {
			id, a, b := onlineGame(t, s, `{"mode":"online"}`)
			path := "/api/games/" + id + "/"
			for range tt.moves {
				g := get(t, s, id)
				must[wire.Turn](t, mover(g, a, b).act(t, s, "POST", path+"moves", `{"move":"`+g.Legal[0]+`"}`), 200)
			}
			want := "*"
			switch tt.end {
			case "draw":
				must[wire.Game](t, a.act(t, s, "POST", path+"draw", `{"action":"offer"}`), 200)
				must[wire.Game](t, b.act(t, s, "POST", path+"draw", `{"action":"accept"}`), 200)
				want = "1/2-1/2"
			case "resign":
				must[wire.Game](t, a.act(t, s, "POST", path+"resign", ""), 200)
				want = []string{"0-1", "1-0"}[a.seat]
			case "abort":
				must[wire.Game](t, b.act(t, s, "POST", path+"abort", ""), 200)
			}
			rec := do(t, s, "GET", path+"record", nil)
			if rec.status != 200 {
				t.Fatalf("record: %s", rec)
			}
			parsed, err := notation.ParseRecord(string(rec.body))
			if err != nil {
				t.Fatalf("the record does not parse: %v\n%s", err, rec.body)
			}
			if parsed.Result != want || parsed.Tag(notation.TagTermination) != tt.how {
				t.Errorf("record of a game ended by %s: result %q, Termination %q; want %q and %q\n%s", tt.end, parsed.Result, parsed.Tag(notation.TagTermination), want, tt.how, rec.body)
			}
			if _, err := parsed.Game(); err != nil {
				t.Errorf("the record does not replay: %v\n%s", err, rec.body)
			}
		})
	}
}
