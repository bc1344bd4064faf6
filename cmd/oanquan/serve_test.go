package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"oanquan/internal/server"
)

// guard bounds every wait so that a broken test fails instead of hanging;
// no test depends on its length.
const guard = 30 * time.Second

func TestServeUsage(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	for _, args := range [][]string{{"--port", "80"}, {"--addr", "localhost:0", "extra"}, {"--db", "mysql://x"}, {"--db", t.TempDir()}, {"--workers", "-1"}, {"--move-time", "0s"}, {"--max-live", "0"}, {"--max-sockets", "0"}, {"--sockets-per-address", "-1"}, {"--unknown-games-burst", "0"}, {"--keep-finished", "-1h"}, {"--endgames", "/no/such/dir"}, {"--endgames-offline", "13"}, {"--endgames-offline", "-1"}} {
		var out bytes.Buffer
		err := run(context.Background(), args, &out, io.Discard)
		var ue *usageError
		if !errors.As(err, &ue) || out.Len() != 0 {
			t.Errorf("run %q = %v with output %q, want a usage error and no output", args, err, out.String())
		}
	}
	stopped, stop := context.WithCancel(context.Background())
	stop() // served, it would stop at once
	if err := run(stopped, []string{"--addr", "127.0.0.1:0", "--db", "memory", "--endgames-offline", "11"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "--endgames-offline 11") {
		t.Errorf("--endgames-offline 11 (a table too large for a phone): %v, want a usage error naming the flag", err)
	}
	if err := run(context.Background(), []string{"--addr", "no-such-host.invalid:1"}, io.Discard, io.Discard); err == nil {
		t.Error("serving on an address that cannot be listened on: no error")
	}
}

// lineWriter passes each write to a channel.
type lineWriter chan string

func (w lineWriter) Write(p []byte) (int, error) {
	w <- string(p)
	return len(p), nil
}

// TestServe runs the program with no subcommand: it prints where it keeps
// games (by default a SQLite file in the user's data directory) and where
// it serves, serves the page, the API and the WebSocket, and on the
// context's end stops, closing the WebSocket with "going away".
func TestServe(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(lineWriter, 2)
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--addr", "127.0.0.1:0"}, out, io.Discard) }()
	var where, line string
	for _, l := range []*string{&where, &line} {
		select {
		case *l = <-out:
		case err := <-done:
			t.Fatalf("run returned %v before serving", err)
		}
	}
	if db := filepath.Join(data, "oanquan", "oanquan.db"); !strings.Contains(where, db) {
		t.Errorf("first line %q, want it to say the games are kept in %s", where, db)
	}
	url := regexp.MustCompile(`http://[^ ]+/`).FindString(line)
	if url == "" {
		t.Fatalf("no address in %q", line)
	}

	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "<html") || resp.Header.Get("Content-Security-Policy") == "" {
		t.Fatalf("GET %s: %s %q", url, resp.Status, page)
	}
	resp, err = http.Post(url+"api/games", "application/json", strings.NewReader(`{"mode":"local"}`))
	if err != nil {
		t.Fatal(err)
	}
	var g struct{ ID string }
	json.NewDecoder(resp.Body).Decode(&g)
	resp.Body.Close()
	if resp.StatusCode != 201 || g.ID == "" {
		t.Fatalf("POST /api/games: %s", resp.Status)
	}
	rctx, rcancel := context.WithTimeout(context.Background(), guard)
	defer rcancel()
	c, _, err := websocket.Dial(rctx, "ws"+strings.TrimPrefix(url, "http")+"api/games/"+g.ID+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if _, msg, err := c.Read(rctx); err != nil || !strings.Contains(string(msg), `"type":"state"`) {
		t.Fatalf("first message %s, %v; want the state", msg, err)
	}

	// The client reads on, as a browser does, to answer the server's
	// close message.
	closed := make(chan error, 1)
	go func() {
		_, _, err := c.Read(rctx)
		closed <- err
	}()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run after cancel = %v, want nil", err)
	}
	if err := <-closed; websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Errorf("WebSocket after shutdown: %v, want closed with StatusGoingAway", err)
	}
	if _, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")); err == nil {
		t.Error("still listening after shutdown")
	}
}

// TestWebSocketOutlivesTimeouts: the server's read and write timeouts
// must not end a WebSocket. With timeouts of a nanosecond every plain
// answer fails, yet the WebSocket still carries messages.
func TestWebSocketOutlivesTimeouts(t *testing.T) {
	h := server.New(server.Config{})
	defer h.Close()
	srv := newHTTPServer(h, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if srv.ReadHeaderTimeout == 0 || srv.ReadTimeout == 0 || srv.WriteTimeout == 0 || srv.IdleTimeout == 0 {
		t.Errorf("timeouts %+v: want all set", srv)
	}
	srv.ReadTimeout, srv.WriteTimeout = time.Nanosecond, time.Nanosecond
	ts := httptest.NewUnstartedServer(h)
	ts.Config = srv
	ts.Start()
	defer ts.Close()

	// Requests go to the handler directly: over the network they fail.
	if resp, err := http.Get(ts.URL + "/"); err == nil {
		resp.Body.Close()
		t.Fatalf("GET / with a 1ns write timeout succeeded: the test cannot tell")
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("POST", "/api/games", strings.NewReader(`{"mode":"local"}`)))
	var g struct{ ID, Secret string }
	json.NewDecoder(w.Body).Decode(&g)

	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/games/"+g.ID+"/ws", nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer c.CloseNow()
	if _, msg, err := c.Read(ctx); err != nil || !strings.Contains(string(msg), `"type":"state"`) {
		t.Fatalf("first message %s, %v; want the state", msg, err)
	}
	move := httptest.NewRequest("POST", "/api/games/"+g.ID+"/moves", strings.NewReader(`{"move":"7R"}`))
	move.Header.Set("Authorization", "Bearer "+g.Secret)
	h.ServeHTTP(httptest.NewRecorder(), move)
	if _, msg, err := c.Read(ctx); err != nil || !strings.Contains(string(msg), `"type":"turn"`) {
		t.Fatalf("message after a move: %s, %v; want the turn", msg, err)
	}
}

// TestCapSockets: the cap on WebSockets stays below the limit of open
// files, with a quarter left for the rest, and says so.
func TestCapSockets(t *testing.T) {
	var logged bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logged, nil))
	for _, tt := range []struct {
		want  int
		files uint64
		cap   int
	}{{10000, 0, 10000}, {10000, 1 << 20, 10000}, {10000, 1024, 768}, {100, 1024, 100}} {
		if got := capSockets(tt.want, tt.files, log); got != tt.cap {
			t.Errorf("capSockets(%d, %d) = %d, want %d", tt.want, tt.files, got, tt.cap)
		}
	}
	if n := strings.Count(logged.String(), "limit of open files is low"); n != 1 {
		t.Errorf("warned %d times, want once:\n%s", n, logged.String())
	}
}

// TestServeMetrics: --metrics-addr serves the server's metrics at
// /metrics on an address of their own, and nothing else there.
func TestServeMetrics(t *testing.T) {
	h := server.New(server.Config{})
	defer h.Close()
	var out bytes.Buffer
	stop, err := serveMetrics("127.0.0.1:0", h, slog.New(slog.DiscardHandler), &out)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	addr := regexp.MustCompile(`http://(\S+)/metrics`).FindStringSubmatch(out.String())
	if addr == nil {
		t.Fatalf("serveMetrics printed %q, want the address", out.String())
	}
	c := http.Client{Timeout: guard}
	resp, err := c.Get("http://" + addr[1] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "oanquan_live_games 0") {
		t.Errorf("/metrics: %d\n%.300s", resp.StatusCode, body)
	}
	if resp, err := c.Get("http://" + addr[1] + "/api/health"); err != nil || resp.StatusCode != 404 {
		t.Errorf("the API on the metrics address: %v, %v; want 404", resp, err)
	}
}
