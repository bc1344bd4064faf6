package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"oanquan/internal/wire"
)

// wsClient is a real WebSocket client of a test server.
type wsClient struct {
	t testing.TB
	c *websocket.Conn
}

func dial(t testing.TB, ts *httptest.Server, id string) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/games/"+id+"/ws", nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return &wsClient{t, c}
}

// next reads one message, refusing fields the test types do not know.
func (w *wsClient) next() wire.Message {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	typ, data, err := w.c.Read(ctx)
	if err != nil {
		w.t.Fatalf("read: %v", err)
	}
	if typ != websocket.MessageText {
		w.t.Errorf("message type %v, want text", typ)
	}
	var m wire.Message
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		w.t.Fatalf("decoding %s: %v", data, err)
	}
	return m
}

func (w *wsClient) want(typ string) wire.Message {
	w.t.Helper()
	m := w.next()
	if m.Type != typ {
		w.t.Fatalf("message %+v, want a %s", m, typ)
	}
	return m
}

// TestWebSocket follows a game against the computer on the WebSocket:
// the state on connecting, the human's turn, thinking, the computer's
// turn, and states after undo and a level change.
func TestWebSocket(t *testing.T) {
	gt := newGate()
	s := newServer(t, Config{Engine: gt})
	ts := httptest.NewServer(s)
	defer ts.Close()
	g := create(t, s, nil)
	ws := dial(t, ts, g.ID)
	if m := ws.want("state"); m.State == nil || m.State.ID != g.ID || m.State.Ply != 0 || m.Turn != nil || m.Thinking != nil {
		t.Fatalf("first message %+v, want the state alone", m)
	}

	do(t, s, "POST", "/api/games/"+g.ID+"/moves", `{"move":"7R"}`)
	m := ws.want("turn")
	if tn := m.Turn; tn.By != "human" || tn.Move != "7R" || tn.Ply != 0 || len(tn.Events) == 0 || !tn.State.Thinking {
		t.Errorf("turn %+v, want the human's 7R with the computer thinking", tn)
	}
	if m := ws.want("thinking"); m.Thinking == nil || !*m.Thinking {
		t.Errorf("thinking message %+v, want thinking: true", m)
	}
	c := gt.Release(t)
	m = ws.want("turn")
	reply := c.Pos.LegalMoves(nil)[0].String()
	if tn := m.Turn; tn.By != "computer" || tn.Move != reply || tn.Player != 1 || tn.Ply != 1 || tn.State.Thinking || len(tn.State.Legal) == 0 {
		t.Errorf("turn %+v, want the computer's %s", tn, reply)
	}

	// A second client connecting now gets the state at once.
	ws2 := dial(t, ts, g.ID)
	if m := ws2.want("state"); len(m.State.Moves) != 2 {
		t.Errorf("second client's state %+v, want two moves", m.State)
	}

	do(t, s, "PUT", "/api/games/"+g.ID+"/level", `{"level":"hard"}`)
	if m := ws.want("state"); m.State.Level != "hard" {
		t.Errorf("state %+v, want level hard", m.State)
	}
	do(t, s, "POST", "/api/games/"+g.ID+"/undo", nil)
	if m := ws.want("state"); len(m.State.Moves) != 0 {
		t.Errorf("state after undo %+v, want no moves", m.State)
	}
	ws2.want("state") // the level
	ws2.want("state") // the undo
}

func TestWebSocketUnknownGame(t *testing.T) {
	s := newServer(t, Config{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	_, resp, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/games/nope/ws", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("dial of an unknown game: %v, %v; want a 404", err, resp)
	}
}

// TestWebSocketPlainGet: the WebSocket's path asked for as a page.
func TestWebSocketPlainGet(t *testing.T) {
	s := newServer(t, Config{})
	g := create(t, s, nil)
	wantError(t, do(t, s, "GET", "/api/games/"+g.ID+"/ws", nil), 400, "bad_request")
}

// TestWebSocketCrossOrigin: a page of another site cannot follow a game.
func TestWebSocketCrossOrigin(t *testing.T) {
	s := newServer(t, Config{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	g := create(t, s, nil)
	h := http.Header{"Origin": {"http://evil.example"}}
	_, resp, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/games/"+g.ID+"/ws",
		&websocket.DialOptions{HTTPHeader: h})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin dial: %v, %v; want a 403", err, resp)
	}
}

// TestCloseEndsWebSockets: closing the server stops the computer and
// closes the WebSockets with "going away".
func TestCloseEndsWebSockets(t *testing.T) {
	gt := newGate()
	s := New(Config{Engine: gt})
	ts := httptest.NewServer(s)
	defer ts.Close()
	g := create(t, s, map[string]any{"human": 1})
	c := <-gt.Calls
	ws := dial(t, ts, g.ID)
	ws.want("state")
	// The client reads on, as a browser does, to answer the server's
	// close message.
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	closed := make(chan error, 1)
	go func() {
		_, _, err := ws.c.Read(ctx)
		closed <- err
	}()
	s.Close()
	<-c.Ctx.Done()
	err := <-closed
	if st := websocket.CloseStatus(err); st != websocket.StatusGoingAway {
		t.Errorf("read after Close: %v, want a close with StatusGoingAway", err)
	}
	wantError(t, do(t, s, "GET", "/api/games/"+g.ID, nil), 503, "unavailable")
	wantError(t, do(t, s, "POST", "/api/games", nil), 503, "unavailable")
	if errors.Is(err, context.DeadlineExceeded) {
		t.Error("the WebSocket stayed open")
	}
}

// TestAgainstEasy plays a whole game against package ai at Easy through
// the API, following the computer's moves on the WebSocket.
func TestAgainstEasy(t *testing.T) {
	s := New(Config{}) // the real engine
	t.Cleanup(s.Close) // after the client's cleanup: the client leaves first
	ts := httptest.NewServer(s)
	defer ts.Close()
	g := create(t, s, map[string]any{"level": "easy"})
	ws := dial(t, ts, g.ID)
	computer := 0
	for i := 0; ; i++ {
		var st *wire.Game
		switch m := ws.next(); m.Type {
		case "state":
			st = m.State
		case "turn":
			st = &m.Turn.State
			if m.Turn.By == "computer" {
				computer++
			}
		}
		if st == nil {
			continue
		}
		if st.Over {
			r := st.Result
			if r == nil || r.Players[0].Total+r.Players[1].Total > 70 {
				t.Fatalf("final state %+v", st)
			}
			t.Logf("%d moves, %d by the computer; %d-%d", len(st.Moves), computer, r.Players[0].Total, r.Players[1].Total)
			break
		}
		if st.ToMove == 0 && !st.Thinking {
			r := do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": st.Legal[i%len(st.Legal)], "ply": st.Ply})
			must[wire.Turn](t, r, 200)
		}
	}
	if computer == 0 {
		t.Error("the computer never moved")
	}
}

// TestSlowWebSocketDropped: a client that stops reading is dropped, with
// 1013 (try again later), while the game goes on; it can reconnect.
func TestSlowWebSocketDropped(t *testing.T) {
	s := newServer(t, Config{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	g := create(t, s, map[string]any{"mode": "local"})
	slow := dial(t, ts, g.ID) // reads nothing until the end
	m := s.live[g.ID].m
	// Change the level until the server gives up on the client: once the
	// connection's buffers are full, its updates queue up in the match.
	for i := 0; !m.Idle(); i++ {
		if i == 1_000_000 {
			t.Fatal("the slow client was never dropped")
		}
		r := do(t, s, "PUT", "/api/games/"+g.ID+"/level", map[string]any{"level": []string{"easy", "hard"}[i%2]})
		if r.status != 200 {
			t.Fatalf("level change while a client lags: %s", r)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	var err error
	for err == nil {
		_, _, err = slow.c.Read(ctx)
	}
	if st := websocket.CloseStatus(err); st != websocket.StatusTryAgainLater {
		t.Errorf("the slow client's connection ended with %v, want StatusTryAgainLater", err)
	}
	again := dial(t, ts, g.ID)
	if m := again.want("state"); m.State.ID != g.ID {
		t.Errorf("reconnecting: %+v", m)
	}
}

// TestSeenPly: the WebSocket's seen=N is a ply or nothing (-1): bad
// values are ignored, never refused.
func TestSeenPly(t *testing.T) {
	for q, want := range map[string]int{"": -1, "?seen=0": 0, "?seen=17": 17, "?seen=-3": -1, "?seen=x": -1, "?seen=99999999999999999999": -1, "?seen=4&seen=5": 4} {
		r := httptest.NewRequest("GET", "/api/games/x/ws"+q, nil)
		if got := seenPly(r); got != want {
			t.Errorf("%q: seen %d, want %d", q, got, want)
		}
	}
}

// TestWebSocketPing: a client's {"type":"ping"} is answered with
// {"type":"pong"} on the same connection, each time (the page's own
// check that its connection works), and pings sent at once get at
// least one answer.
func TestWebSocketPing(t *testing.T) {
	s := newServer(t, Config{Engine: newGate()})
	ts := httptest.NewServer(s)
	defer ts.Close()
	g := create(t, s, nil)
	ws := dial(t, ts, g.ID)
	ws.want("state")
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), guard)
		err := ws.c.Write(ctx, websocket.MessageText, []byte(`{"type":"ping"}`))
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		ws.want("pong")
	}
	do(t, s, "POST", "/api/games/"+g.ID+"/moves", `{"move":"7R"}`)
	if m := ws.want("turn"); m.Turn == nil || m.Turn.Move != "7R" {
		t.Errorf("after the pings, %+v; want the turn 7R", m)
	}
}
