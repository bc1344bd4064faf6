package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"oanquan/internal/store/pgtest"
)

// serveForLoad runs the server (oanquan with no subcommand, as an
// operator would) in this process on a loopback port, with args after
// its address, until t ends, and returns its URL.
func serveForLoad(t *testing.T, args ...string) string {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	out := make(lineWriter, 2)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"--addr", "127.0.0.1:0", "--endgames", "none"}, args...), out, io.Discard)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	for {
		select {
		case line := <-out:
			if u := regexp.MustCompile(`http://[^ ]+/`).FindString(line); u != "" {
				return strings.TrimSuffix(u, "/")
			}
		case err := <-done:
			t.Fatalf("the server stopped before serving: %v", err)
		}
	}
}

// loadgenJSON runs oanquan loadgen with args and decodes its one JSON
// line into out, refusing fields out does not have.
func loadgenJSON(t *testing.T, out any, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*guard)
	defer cancel()
	var stdout bytes.Buffer
	if err := run(ctx, append([]string{"loadgen"}, args...), &stdout, io.Discard); err != nil {
		t.Fatalf("loadgen %q: %v", args, err)
	}
	if n := strings.Count(stdout.String(), "\n"); n != 1 {
		t.Fatalf("output has %d lines, want one JSON line:\n%s", n, stdout.String())
	}
	dec := json.NewDecoder(&stdout)
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		t.Fatalf("decoding the output: %v", err)
	}
}

// TestLoadgenLobby runs oanquan loadgen lobby small against the real
// server, on a SQLite file and on PostgreSQL, whose WebSockets per
// address are capped at 5: 20 lobby sockets come from 4 source addresses
// (a run from one address would have 15 refused), and each of the 3
// seeks posted and cancelled reaches every socket twice.
func TestLoadgenLobby(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			url := filepath.Join(t.TempDir(), "lobby.db")
			if db == "postgres" {
				url = pgtest.Start(t)
			}
			u := serveForLoad(t, "--db", url, "--sockets-per-address", "5")
			var res lobbyResult
			loadgenJSON(t, &res, "lobby", "--url", u, "--sockets", "20", "--per-address", "5", "--changes", "3",
				"--pause", "0", "--from", "127.3.0.0/24", "--pid", strconv.Itoa(os.Getpid()))
			if res.Connected != 20 || res.Addresses != 4 || res.Changes != 3 || len(res.Errors) != 0 {
				t.Fatalf("connected %d from %d addresses, %d changes, errors %v %v; want 20 from 4, 3 changes, no errors",
					res.Connected, res.Addresses, res.Changes, res.Errors, res.FirstErrors)
			}
			if res.Delivered != 20*6 || res.Missed != 0 {
				t.Errorf("delivered %d, missed %d; want 120 (20 sockets × 6 changes), none missed", res.Delivered, res.Missed)
			}
			for name, q := range map[string]quantiles{"deliver_ms": res.DeliverMs, "all_ms": res.AllMs, "request_ms": res.RequestMs} {
				if !(0 < q.P50 && q.P50 <= q.P90 && q.P90 <= q.P99 && q.P99 <= q.Max) {
					t.Errorf("%s = %+v, want 0 < p50 <= p90 <= p99 <= max", name, q)
				}
			}
			// A socket has a change only after its request was sent: the
			// slowest socket of a change is no faster than the request.
			if res.AllMs.Max < res.DeliverMs.Max || res.ServerCPU == nil || res.LoadStart == "" || res.LoadEnd == "" {
				t.Errorf("all_ms max %v < deliver_ms max %v, server CPU %v, load %q/%q",
					res.AllMs.Max, res.DeliverMs.Max, res.ServerCPU, res.LoadStart, res.LoadEnd)
			}
		})
	}
}

// TestLoadgenLobbyNotEmpty: a lobby with a seek open already cannot be
// timed (a change is seen as the list becoming non-empty or empty), and
// is refused rather than measured wrong.
func TestLoadgenLobbyNotEmpty(t *testing.T) {
	u := serveForLoad(t, "--db", "memory")
	resp, err := http.Post(u+"/api/seeks", "application/json", strings.NewReader(`{"clock":{"initial":180,"increment":2}}`))
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("posting a seek: %v %v", resp, err)
	}
	resp.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	var out bytes.Buffer
	err = run(ctx, []string{"loadgen", "lobby", "--url", u, "--sockets", "2", "--changes", "1", "--from", "127.3.1.0/24"}, &out, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "1 open seeks") || out.Len() != 0 {
		t.Errorf("loadgen lobby on a lobby with a seek = %v, output %q; want a refusal saying so", err, out.String())
	}
}

// TestLoadgenRunsRefuse: the lobby's and rated runs refuse bad flags,
// and load or checks anywhere but this machine.
func TestLoadgenRunsRefuse(t *testing.T) {
	for _, args := range [][]string{
		{"lobby", "--url", "http://192.0.2.1:8080"},
		{"lobby", "--from", "10.0.0.0/8"},
		{"lobby", "--from", "127.0.0.1"},
		{"lobby", "--from", "::1/128"},
		{"lobby", "--sockets", "0"},
		{"lobby", "--sockets", "300", "--per-address", "1", "--from", "127.5.5.0/24"}, // 300 addresses needed, 254 there
		{"lobby", "--changes", "0"},
		{"lobby", "--clock", "none"},
		{"lobby", "extra"},
		{"rated", "--url", "http://example.com"},
		{"rated", "--games", "0"},
		{"rated", "--rate", "0"},
		{"rated", "--clock", "none"},
		{"rated", "--clock", ""},
		{"rated", "--ramp", "61"},
		{"rated", "--from", "127.6.0.0/30"},
		{"rated", "--check-db", "postgres://postgres@192.0.2.1:5432/x"},
		{"rated", "--check-db", "mysql://x"},
	} {
		var out bytes.Buffer
		err := run(context.Background(), append([]string{"loadgen"}, args...), &out, io.Discard)
		var ue *usageError
		if !errors.As(err, &ue) || out.Len() != 0 {
			t.Errorf("loadgen %q = %v with output %q, want a usage error and no output", args, err, out.String())
		}
	}
}

// TestSources checks the source addresses handed out: in order, never
// one ending in .0 or .255, and no more than the prefix holds.
func TestSources(t *testing.T) {
	s, err := parseSources("127.1.0.0/16")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range map[int]string{0: "127.1.0.1", 253: "127.1.0.254", 254: "127.1.1.1", 508: "127.1.2.1", 254*256 - 1: "127.1.255.254"} {
		if a, err := s.addr(i); err != nil || a.String() != want {
			t.Errorf("addr(%d) = %v, %v; want %s", i, a, err, want)
		}
	}
	if a, err := s.addr(254 * 256); err == nil {
		t.Errorf("addr(%d) = %v, want an error: the /16 has no more", 254*256, a)
	}
	small, err := parseSources("127.7.7.0/30")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"127.7.7.1", "127.7.7.2"} {
		if a, err := small.addr(i); err != nil || a.String() != want {
			t.Errorf("/30: addr(%d) = %v, %v; want %s", i, a, err, want)
		}
	}
	if a, err := small.addr(2); err == nil {
		t.Errorf("/30: addr(2) = %v, want an error", a)
	}
	// A client of an address connects from it.
	seen := make(chan string, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen <- r.RemoteAddr }))
	defer ts.Close()
	c, err := s.client(254, false)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := <-seen; !strings.HasPrefix(got, "127.1.1.1:") {
		t.Errorf("the server saw %s, want 127.1.1.1", got)
	}
}

// TestLoadgenLobbySignedIn: with --signed-in each lobby socket is a page
// signed in to an account of its own, made first from its address (3 an
// address, the sign-ups' limit, which the server keeps at its default);
// every change still reaches every socket.
func TestLoadgenLobbySignedIn(t *testing.T) {
	u := serveForLoad(t, "--db", pgtest.Start(t))
	var res lobbyResult
	loadgenJSON(t, &res, "lobby", "--url", u, "--sockets", "7", "--per-address", "3", "--changes", "2",
		"--pause", "0", "--from", "127.3.2.0/24", "--signed-in")
	if res.SignedIn != 7 || res.Connected != 7 || res.Addresses != 3 || res.Delivered != 7*4 || res.Missed != 0 || len(res.Errors) != 0 {
		t.Errorf("signed in %d, connected %d from %d addresses, delivered %d, missed %d, errors %v %v; want 7, 7 from 3, 28, 0, none",
			res.SignedIn, res.Connected, res.Addresses, res.Delivered, res.Missed, res.Errors, res.FirstErrors)
	}
	var out bytes.Buffer
	err := run(context.Background(), []string{"loadgen", "lobby", "--url", u, "--signed-in", "--per-address", "4"}, &out, io.Discard)
	var ue *usageError
	if !errors.As(err, &ue) {
		t.Errorf("--signed-in --per-address 4 = %v, want a usage error (3 sign-ups an address)", err)
	}
}
