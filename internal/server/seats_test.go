package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"oanquan/internal/api"
	"oanquan/internal/match/matchtest"
	"oanquan/internal/store/memory"
	"oanquan/internal/wire"
)

// TestStrangerRefused: without the secret of a seat, or with another
// game's, every request that acts for a player is refused with 403 and
// changes nothing; reading the game needs no secret.
func TestStrangerRefused(t *testing.T) {
	s := newServer(t, Config{})
	g := create(t, s, map[string]any{"mode": "local"})
	must[wire.Turn](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", `{"move":"7R"}`), 200)
	g = get(t, s, g.ID)
	other := create(t, s, map[string]any{"mode": "local"})
	otherSecret, _ := secrets.Load(other.ID)
	acting := []struct{ method, path, body string }{
		{"POST", "/moves", `{"move":"1L"}`},
		{"POST", "/undo", ``},
		{"PUT", "/level", `{"level":"hard"}`},
		{"GET", "/hints", ``},
	}
	for _, auth := range []string{"", "Bearer ", "Bearer wrong-secret-of-the-right-length", "Bearer " + otherSecret.(string), "Basic " + otherSecret.(string)} {
		for _, a := range acting {
			var body *strings.Reader
			if a.body != "" {
				body = strings.NewReader(a.body)
			} else {
				body = strings.NewReader("")
			}
			req := httptest.NewRequest(a.method, "/api/games/"+g.ID+a.path, body)
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			wantError(t, response{w.Code, w.Header(), w.Body.Bytes()}, http.StatusForbidden, "not_your_seat")
		}
	}
	unchanged(t, s, g)
	for _, path := range []string{"", "/record"} {
		req := httptest.NewRequest("GET", "/api/games/"+g.ID+path, nil)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code != 200 {
			t.Errorf("GET %s without a secret: %d, want 200", path, w.Code)
		}
	}
}

// TestSeatsSaved: the store keeps a hash of the secret, never the secret,
// and a server started again on the store knows the seats.
func TestSeatsSaved(t *testing.T) {
	st := memory.New()
	s := newServer(t, Config{Store: st})
	g := create(t, s, map[string]any{"human": 1})
	secret, _ := secrets.Load(g.ID)
	saved, err := st.Get(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Seats[0] != nil || len(saved.Seats[1]) < 16 || strings.Contains(string(saved.Seats[1]), secret.(string)) {
		t.Errorf("saved seats %x, want seat 1 alone, as a hash", saved.Seats)
	}
	s.Close()
	s2 := newServer(t, Config{Store: st})
	if r := do(t, s2, "GET", "/api/games/"+g.ID+"/hints", nil); r.status == http.StatusForbidden {
		t.Errorf("after a restart, the creator is refused: %s", r)
	}
}

// TestRateLimited: past its allowance, a client gets 429 with
// Retry-After; another client does not.
func TestRateLimited(t *testing.T) {
	s := newServer(t, Config{Limits: Limits{Creates: Rate{PerMinute: 1, Burst: 2}, Hints: Rate{PerMinute: 1, Burst: 1}}})
	post := func(addr string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/api/games", nil)
		req.RemoteAddr = addr
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w
	}
	for range 2 {
		if w := post("192.0.2.1:1000"); w.Code != 201 {
			t.Fatalf("create within the burst: %d", w.Code)
		}
	}
	w := post("192.0.2.1:1001") // the same address, another port
	wantError(t, response{w.Code, w.Header(), w.Body.Bytes()}, 429, "rate_limited")
	if ra, err := strconv.Atoi(w.Header().Get("Retry-After")); err != nil || ra < 1 || ra > 60 {
		t.Errorf("Retry-After %q, want 1 to 60 seconds", w.Header().Get("Retry-After"))
	}
	w = post("192.0.2.2:1000")
	if w.Code != 201 {
		t.Fatalf("another address: %d, want 201", w.Code)
	}
	c := decodeAs[api.Created](t, response{w.Code, w.Header(), w.Body.Bytes()})
	hints := func() int {
		req := httptest.NewRequest("GET", "/api/games/"+c.ID+"/hints", nil)
		req.RemoteAddr = "192.0.2.2:1000"
		req.Header.Set("Authorization", "Bearer "+c.Secret)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w.Code
	}
	if a, b := hints(), hints(); a != 200 || b != 429 {
		t.Errorf("two hints with a burst of one: %d, %d; want 200, 429", a, b)
	}
}

// TestMaxLive: beyond MaxLive live games, the least recently used is
// closed, stays saved and comes back when asked for.
func TestMaxLive(t *testing.T) {
	st := memory.New()
	s := newServer(t, Config{Store: st, MaxLive: 3})
	var ids []string
	for range 5 {
		g := create(t, s, map[string]any{"mode": "local"})
		ids = append(ids, g.ID)
		get(t, s, ids[0]) // the first stays in use
	}
	s.mu.Lock()
	n, first, second := len(s.live), s.live[ids[0]] != nil, s.live[ids[1]] != nil
	s.mu.Unlock()
	if n != 3 || !first || second {
		t.Errorf("%d live games, the first live: %v, the second: %v; want 3, the first kept, the second closed", n, first, second)
	}
	must[wire.Turn](t, do(t, s, "POST", "/api/games/"+ids[1]+"/moves", `{"move":"7R"}`), 200)
}

// TestResumeWaiting: a server started on a store holding a game that waits
// for the computer has it move, without anyone asking.
func TestResumeWaiting(t *testing.T) {
	st := memory.New()
	s := newServer(t, Config{Store: st, Engine: matchtest.NewGate()}) // thinks for ever
	g := create(t, s, nil)
	must[wire.Turn](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", `{"move":"7R"}`), 200)
	s.Close()
	saved, _ := st.Get(context.Background(), g.ID)
	if !saved.Waiting {
		t.Fatalf("saved %+v: not waiting for the computer", saved)
	}
	s2 := newServer(t, Config{Store: st})
	deadline := time.Now().Add(guard)
	for {
		saved, _ = st.Get(context.Background(), g.ID)
		if len(saved.Moves) == 2 && !saved.Waiting {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("saved %+v: the computer did not move after the restart", saved)
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = s2
}

// TestStalledBody: a body that does not arrive in time gets a 408 that
// says nothing of the connection.
func TestStalledBody(t *testing.T) {
	s := newServer(t, Config{})
	ts := httptest.NewUnstartedServer(s)
	ts.Config.ReadTimeout = 300 * time.Millisecond
	ts.Start()
	defer ts.Close()
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(guard))
	c.Write([]byte("POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"mode\":"))
	buf := make([]byte, 4096)
	n, _ := c.Read(buf)
	answer := string(buf[:n])
	if !strings.HasPrefix(answer, "HTTP/1.1 408") || !strings.Contains(answer, `"code":"timeout"`) {
		t.Errorf("stalled body answered %q, want 408 timeout", answer)
	}
	host, _, _ := net.SplitHostPort(ts.Listener.Addr().String())
	if strings.Contains(answer, host) || strings.Contains(answer, "tcp") {
		t.Errorf("the answer shows the connection: %q", answer)
	}
}

// TestLongInputNotEchoed: an error about a long value quotes only its
// start.
func TestLongInputNotEchoed(t *testing.T) {
	s := newServer(t, Config{})
	long := strings.Repeat("x", 5000)
	for _, body := range []string{`{"mode":"` + long + `"}`, `{"level":"` + long + `"}`, `{"position":"` + long + `"}`, `{"variants":["` + long + `"]}`, `{"` + long + `":1}`} {
		r := do(t, s, "POST", "/api/games", body)
		if r.status != 400 || len(r.body) > 400 {
			t.Errorf("%.30s…: %d, %d bytes; want 400 and a short message", body, r.status, len(r.body))
		}
	}
	if r := do(t, s, "GET", "/api/games/"+strings.Repeat("a", 60), nil); r.status != 404 || strings.Contains(string(r.body), strings.Repeat("a", 30)) {
		t.Errorf("long id: %s", r)
	}
}

// TestWebSocketNotReading: a client that never reads is closed with 1013
// and a close frame once it stops answering pings.
func TestWebSocketNotReading(t *testing.T) {
	s := newServer(t, Config{})
	s.wsPing, s.wsWrite = 50*time.Millisecond, 100*time.Millisecond
	ts := httptest.NewServer(s)
	defer ts.Close()
	g := create(t, s, map[string]any{"mode": "local"})
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/games/"+g.ID+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	time.Sleep(500 * time.Millisecond) // not reading: pings go unanswered
	for {
		_, _, err := c.Read(ctx)
		if err == nil {
			continue // the messages sent before
		}
		if st := websocket.CloseStatus(err); st != websocket.StatusTryAgainLater {
			t.Errorf("closed with %v (%v), want 1013", st, err)
		}
		if errors.Is(err, context.DeadlineExceeded) {
			t.Error("no close frame")
		}
		return
	}
}

// TestCloseReleasesLeases: a server that stops gives up its leases on the
// games waiting for the computer, so that another server takes them up at
// once rather than when the leases run out.
func TestCloseReleasesLeases(t *testing.T) {
	st := memory.New()
	gate := matchtest.NewGate() // thinks until released: never, here
	s := newServer(t, Config{Store: st, ID: "a", Engine: gate})
	g := create(t, s, nil)
	must[wire.Turn](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", `{"move":"7R"}`), 200)
	gate.Next(t) // the search has begun: server a holds the lease
	ctx := context.Background()
	if ok, _ := st.Lease(ctx, g.ID, "b", time.Minute); ok {
		t.Fatal("another server took the lease while a searched")
	}
	s.Close()
	if ok, err := st.Lease(ctx, g.ID, "b", time.Minute); !ok || err != nil {
		t.Errorf("after server a closed, another could not take the lease: %v, %v", ok, err)
	}
}
