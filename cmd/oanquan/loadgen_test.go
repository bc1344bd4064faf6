package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"oanquan/internal/match/matchtest"
	"oanquan/internal/server"
	"oanquan/internal/store/memory"
)

// TestLoadgen runs the load generator for about a second against a server
// in this process, on a memory store, with a computer that answers at
// once, and checks that its figures add up. It times nothing: the
// figures only have to be consistent.
func TestLoadgen(t *testing.T) {
	ts := httptest.NewServer(newLoadTestServer(t)) // on 127.0.0.1
	t.Cleanup(ts.Close)

	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	var out, errOut bytes.Buffer
	args := []string{"loadgen", "--url", ts.URL, "--games", "4", "--hard", "2", "--fill", "5",
		"--warmup", "0.2", "--seconds", "0.8", "--pid", strconv.Itoa(os.Getpid())}
	if err := run(ctx, args, &out, &errOut); err != nil {
		t.Fatalf("run %q: %v", args, err)
	}
	if n := strings.Count(out.String(), "\n"); n != 1 {
		t.Fatalf("output has %d lines, want one JSON line:\n%s", n, out.String())
	}
	if !strings.HasPrefix(errOut.String(), "loadgen: 4 games: ") {
		t.Errorf("stderr = %q, want the one-line summary", errOut.String())
	}
	var res loadResult
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("decoding the output: %v", err)
	}
	if res.Games != 4 || res.Hard != 2 || res.Filled != 5 || res.Seconds <= 0 || res.Interrupted {
		t.Errorf("games %d, hard %d, filled %d, seconds %v, interrupted %v; want 4, 2, 5, > 0, false",
			res.Games, res.Hard, res.Filled, res.Seconds, res.Interrupted)
	}
	if res.Moves <= 0 || res.Replies <= 0 || res.HardMoves <= 0 {
		t.Errorf("moves %d, replies %d, hard moves %d: want some of each", res.Moves, res.Replies, res.HardMoves)
	}
	if len(res.Errors) != 0 {
		t.Errorf("errors = %v, want none", res.Errors)
	}
	if got, want := res.MovesPerSec, float64(res.Moves)/res.Seconds; math.Abs(got-want) > 1e-6*want {
		t.Errorf("moves_per_s = %v, want moves/seconds = %v", got, want)
	}
	checkOrdered := func(name string, q quantiles) {
		t.Helper()
		if !(0 < q.P50 && q.P50 <= q.P90 && q.P90 <= q.P99 && q.P99 <= q.Max) {
			t.Errorf("%s = %+v, want 0 < p50 <= p90 <= p99 <= max", name, q)
		}
	}
	checkOrdered("move_ms", res.MoveMs)
	if res.ReplyMs == nil {
		t.Fatal("no reply_ms with --hard")
	}
	checkOrdered("reply_ms", *res.ReplyMs)
	// VmHWM is not compared with the VmRSS seen: Linux updates it
	// lazily, when memory is unmapped.
	if res.ServerPID != os.Getpid() || res.ServerCPU == nil || res.ServerRSS == nil || res.ServerHWM == nil {
		t.Fatalf("server figures: pid %d, CPU %v, RSS %v, HWM %v; want this process's",
			res.ServerPID, res.ServerCPU, res.ServerRSS, res.ServerHWM)
	}
	if *res.ServerCPU < 0 || *res.ServerRSS <= 0 || *res.ServerHWM <= 0 {
		t.Errorf("server CPU %v s, RSS %v MiB, HWM %v MiB: want >= 0, > 0, > 0", *res.ServerCPU, *res.ServerRSS, *res.ServerHWM)
	}
	if res.ClientCPU <= 0 || res.Live < 1 {
		t.Errorf("client CPU %v s, live %d: want > 0 and >= 1", res.ClientCPU, res.Live)
	}
}

// TestLoadgenRate checks that paced games never move faster than asked:
// with --rate R, at most R·S moves (and one more per game) are answered in
// S seconds, however fast the server is.
func TestLoadgenRate(t *testing.T) {
	ts := httptest.NewServer(newLoadTestServer(t))
	t.Cleanup(ts.Close)
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	var out bytes.Buffer
	args := []string{"loadgen", "--url", ts.URL, "--games", "4", "--rate", "200", "--warmup", "0", "--seconds", "0.5"}
	if err := run(ctx, args, &out, io.Discard); err != nil {
		t.Fatalf("run %q: %v", args, err)
	}
	var res loadResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("decoding the output: %v", err)
	}
	if most := int64(200*res.Seconds) + 4; res.Moves <= 0 || res.Moves > most || res.Rate != 200 || len(res.Errors) != 0 {
		t.Errorf("rate %v, %d moves in %v s, errors %v; want rate 200, 1 to %d moves, no errors",
			res.Rate, res.Moves, res.Seconds, res.Errors, most)
	}
}

// TestLoadgenClock: with --clock the two-player games are online games
// with that clock, each joined by a second player, both of whom move.
func TestLoadgenClock(t *testing.T) {
	ts := httptest.NewServer(newLoadTestServer(t))
	t.Cleanup(ts.Close)
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	for _, clock := range []string{"180+2", "3d", "none"} {
		var out bytes.Buffer
		args := []string{"loadgen", "--url", ts.URL, "--games", "3", "--clock", clock, "--warmup", "0.1", "--seconds", "0.5"}
		if err := run(ctx, args, &out, io.Discard); err != nil {
			t.Fatalf("run %q: %v", args, err)
		}
		var res loadResult
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("decoding the output: %v", err)
		}
		if res.Moves < 6 || len(res.Errors) != 0 || res.Clock != clock {
			t.Errorf("--clock %s: %d moves, errors %v, clock %q; want moves of both seats, no errors", clock, res.Moves, res.Errors, res.Clock)
		}
	}
	if err := run(ctx, []string{"loadgen", "--url", ts.URL, "--clock", "3m"}, io.Discard, io.Discard); err == nil {
		t.Error("--clock 3m was taken")
	}
}

// newLoadTestServer returns a game server on a memory store whose computer
// answers at once, with no rate limits.
func newLoadTestServer(t *testing.T) *server.Server {
	srv := server.New(server.Config{
		Store:  memory.New(),
		Engine: matchtest.First{},
		Limits: server.Limits{
			Creates: server.Rate{PerMinute: math.Inf(1), Burst: 1},
			Hints:   server.Rate{PerMinute: math.Inf(1), Burst: 1},
		},
	})
	t.Cleanup(srv.Close)
	return srv
}

// TestLoadgenRefuses checks that load goes to loopback addresses only, and
// that a run is bounded.
func TestLoadgenRefuses(t *testing.T) {
	for _, args := range [][]string{
		{"--url", "http://example.com:8080"},
		{"--url", "http://10.0.0.1:8080"},
		{"--url", "http://0.0.0.0:8080"},
		{"--url", "http://127.0.0.1.nip.io:8080"},
		{"--url", "http://[2001:db8::1]:8080"},
		{"--url", "ftp://127.0.0.1/"},
		{"--url", "127.0.0.1:8080"},
		{"--seconds", "601"},
		{"--seconds", "0"},
		{"--warmup", "-1"},
		{"--games", "0"},
		{"--games", "10001"},
		{"--fill", "1000001"},
		{"--rate", "-1"},
		{"extra"},
	} {
		var out bytes.Buffer
		err := run(context.Background(), append([]string{"loadgen"}, args...), &out, io.Discard)
		var ue *usageError
		if !errors.As(err, &ue) || out.Len() != 0 {
			t.Errorf("loadgen %q = %v with output %q, want a usage error and no output", args, err, out.String())
		}
		if args[0] == "--url" && strings.HasPrefix(args[1], "http://") && err != nil &&
			!strings.Contains(err.Error(), "not a loopback address") {
			t.Errorf("loadgen %q = %v, want it to say that only loopback addresses are allowed", args, err)
		}
	}
}

func TestLoopbackURL(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"http://127.1.2.3:80/some/path?q=1", "http://127.1.2.3:80"},
		{"http://[::1]:9000/", "http://[::1]:9000"},
		{"http://localhost:8080", "http://localhost:8080"},
		{"https://LOCALHOST", "https://LOCALHOST"},
	} {
		u, err := loopbackURL(tc.in)
		if err != nil || u.String() != tc.want {
			t.Errorf("loopbackURL(%q) = %v, %v; want %s", tc.in, u, err, tc.want)
		}
	}
}

// TestLoopbackDialer checks the second guard: whatever a name resolves
// to, only loopback addresses are dialed.
func TestLoopbackDialer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	c, err := loopbackDialer.DialContext(ctx, "tcp", "192.0.2.1:80") // TEST-NET-1: never reached
	if err == nil {
		c.Close()
		t.Fatal("dialing 192.0.2.1 succeeded, want a refusal")
	}
	if !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("dialing 192.0.2.1: %v, want a refusal before connecting", err)
	}
}

// TestLatencies checks the histogram's quantiles against values whose
// quantiles are known, to its resolution (1/64).
func TestLatencies(t *testing.T) {
	var h latencies
	for i := 1; i <= 1000; i++ {
		h.record(time.Duration(i) * time.Millisecond)
	}
	for _, tc := range []struct {
		q    float64
		want float64
	}{{0.5, 500}, {0.9, 900}, {0.99, 990}, {1, 1000}} {
		if got := h.quantile(tc.q); math.Abs(got-tc.want) > tc.want/64 {
			t.Errorf("quantile(%v) = %v ms, want %v ms within 1/64", tc.q, got, tc.want)
		}
	}
	if q := h.quantiles(); q.Max != 1000 || h.count() != 1000 {
		t.Errorf("max %v ms, count %d; want 1000 and 1000", q.Max, h.count())
	}
	var small latencies
	small.record(3 * time.Microsecond)
	if got := small.quantile(0.5); got != 0.003 {
		t.Errorf("one value of 3 µs: median %v ms, want 0.003 (never above the max)", got)
	}
	for us := uint64(0); us < 1<<40; us = us*2 + 1 {
		if i := bucketOf(us); bucketMid(i) < float64(us)*0.98 || bucketMid(i) > float64(us)*1.02+1 {
			t.Errorf("bucketOf(%d) = %d, whose middle is %v", us, i, bucketMid(i))
		}
	}
}

// TestLoadgenErrors runs the load generator against a server that makes
// games but refuses every move: the errors are counted by status, the
// first is kept as said, and no move is counted.
func TestLoadgenErrors(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/health", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"ok":true,"live":0,"queued":0}`)
	})
	mux.HandleFunc("POST /api/games", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"id":"g1","ply":0,"toMove":0,"legal":["7R"],"over":false,"secret":"s"}`)
	})
	mux.HandleFunc("POST /api/games/g1/moves", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"code":"internal","message":"internal server error"}}`, http.StatusInternalServerError)
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	var out bytes.Buffer
	args := []string{"loadgen", "--url", ts.URL, "--games", "2", "--warmup", "0", "--seconds", "0.2"}
	if err := run(ctx, args, &out, io.Discard); err != nil {
		t.Fatalf("run %q: %v", args, err)
	}
	var res loadResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("decoding the output: %v", err)
	}
	if res.Moves != 0 || res.Errors["500"] == 0 || len(res.Errors) != 1 {
		t.Errorf("moves %d, errors %v; want 0 moves and only 500s", res.Moves, res.Errors)
	}
	if got := res.FirstErrors["500"]; !strings.Contains(got, "POST /api/games/g1/moves") || !strings.Contains(got, "internal server error") {
		t.Errorf("first 500 = %q, want the request and the answer's message", got)
	}
}
