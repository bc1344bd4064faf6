package server

import (
	"context"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// TestMetrics: requests are counted by route and status, moves and the
// store's commits timed, refusals counted by limit, and the gauges (live
// games, WebSockets, searches) read; the WebSocket works through the
// counting.
func TestMetrics(t *testing.T) {
	s := newServer(t, Config{Limits: Limits{Creates: Rate{PerMinute: 1, Burst: 1}}})
	ts := httptest.NewServer(s)
	defer ts.Close()
	g := create(t, s, map[string]any{"mode": "local"})
	do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": g.Legal[0]})
	do(t, s, "POST", "/api/games", map[string]any{"mode": "local"}) // over the limit
	do(t, s, "GET", "/api/games/nosuchgame", nil)
	do(t, s, "GET", "/api/nothing", nil)
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/games/"+g.ID+"/ws", nil)
	if err != nil {
		t.Fatalf("a WebSocket through the metrics: %v", err)
	}
	defer c.CloseNow()
	if _, _, err := c.Read(ctx); err != nil {
		t.Fatalf("reading the WebSocket: %v", err)
	}

	rec := httptest.NewRecorder()
	s.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`oanquan_requests_total{code="201",route="create"} 1`,
		`oanquan_requests_total{code="429",route="create"} 1`,
		`oanquan_requests_total{code="200",route="move"} 1`,
		`oanquan_requests_total{code="404",route="get"} 1`,
		`oanquan_requests_total{code="404",route="unknown"} 1`,
		`oanquan_request_duration_seconds_count{route="move"} 1`,
		`oanquan_store_commit_duration_seconds_count 1`,
		`oanquan_refusals_total{limit="new game"} 1`,
		"oanquan_live_games 1",
		"oanquan_websockets 1",
		"oanquan_search_queued 0",
		"oanquan_search_busy_workers 0",
		"go_goroutines ",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the metrics lack %s", want)
		}
	}
	if strings.Contains(string(body), `oanquan_request_duration_seconds_count{route="ws"}`) {
		t.Error("a WebSocket's lifetime is counted as a request's latency")
	}
	if t.Failed() {
		t.Logf("metrics:\n%s", body)
	}
}

// TestMetricsBusyWorkers: a search running shows as a busy worker.
func TestMetricsBusyWorkers(t *testing.T) {
	gate := newGate()
	s := newServer(t, Config{Engine: gate, Workers: 1})
	create(t, s, map[string]any{"mode": "ai", "human": 1}) // the computer moves first
	call := gate.Next(t)
	defer func() { call.Reply <- call.Pos.LegalMoves(nil)[0] }()
	rec := httptest.NewRecorder()
	s.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if body := rec.Body.String(); !strings.Contains(body, "oanquan_search_busy_workers 1") {
		t.Errorf("with a search running, the metrics say:\n%s", grepLines(body, "oanquan_search"))
	}
}

// grepLines returns the lines of text that contain s.
func grepLines(text, s string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
