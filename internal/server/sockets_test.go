package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestSocketCaps: a client gets at most Limits.Sockets WebSockets open
// at once, the next refused 429 before the upgrade (an IPv6 client counts
// by its /64); the server at most MaxSockets in all, the next refused
// 503; a socket closed makes room again.
func TestSocketCaps(t *testing.T) {
	s := newServer(t, Config{
		Limits:     Limits{Creates: Rate{PerMinute: 1e6, Burst: 1000}, Sockets: 2, ClientIPHeader: "X-Real-IP"},
		MaxSockets: 3,
	})
	ts := httptest.NewServer(s)
	defer ts.Close()
	g := create(t, s, map[string]any{"mode": "local"})
	open := func(client string) (*websocket.Conn, int, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), guard)
		defer cancel()
		h := http.Header{"X-Real-IP": {client}}
		c, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/games/"+g.ID+"/ws", &websocket.DialOptions{HTTPHeader: h})
		if err == nil {
			t.Cleanup(func() { c.CloseNow() })
			return c, http.StatusSwitchingProtocols, ""
		}
		if resp == nil {
			t.Fatalf("dial: %v", err)
		}
		body, _ := io.ReadAll(resp.Body)
		return nil, resp.StatusCode, resp.Header.Get("Retry-After") + " " + string(body)
	}
	for _, c := range []string{"2001:db8:1:2::1", "2001:db8:1:2::ffff"} { // one /64
		if _, code, body := open(c); code != 101 {
			t.Fatalf("a WebSocket within the caps: %d %s", code, body)
		}
	}
	if _, code, body := open("2001:db8:1:2::7"); code != 429 || !strings.HasPrefix(body, "5 ") || !strings.Contains(body, `"rate_limited"`) {
		t.Errorf("a client's third WebSocket: %d %q, want 429 rate_limited with Retry-After 5", code, body)
	}
	third, code, body := open("192.0.2.1")
	if code != 101 {
		t.Fatalf("another client's WebSocket: %d %s", code, body)
	}
	if _, code, body := open("192.0.2.2"); code != 503 || !strings.HasPrefix(body, "5 ") || !strings.Contains(body, `"unavailable"`) {
		t.Errorf("a WebSocket beyond the server's cap: %d %q, want 503 unavailable with Retry-After 5", code, body)
	}
	third.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(guard)
	for {
		_, code, body := open("192.0.2.2")
		if code == 101 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a WebSocket after one closed: %d %s", code, body)
		}
		time.Sleep(10 * time.Millisecond) // the server notices the close
	}
}
