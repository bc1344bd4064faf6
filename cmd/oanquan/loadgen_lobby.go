package main

import (
	"context"
	"encoding/base32"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// oanquan loadgen lobby: how long a change of the lobby (a seek posted,
// a seek cancelled) takes to reach every connected lobby page. It opens
// --sockets lobby WebSockets (GET /api/lobby/ws), --per-address of them
// from each source address of --from, waits for each one's first list,
// then --changes times posts a casual seek and cancels it, from poster
// addresses of their own, timing from each request's sending until every
// socket has been sent a list that shows it.

const (
	maxLobbySockets = 20000
	maxLobbyChanges = 1000
	dialsAtOnce     = 50               // WebSockets being opened at once
	changeTimeout   = 30 * time.Second // a change that has not reached every socket by then counts the others as missed
	postsPerAddress = 10               // seeks a poster address posts (the default burst of Limits.Seeks)
)

// lobbyConfig is a lobby run, as the flags give it.
type lobbyConfig struct {
	base       *url.URL
	from       *sources
	sockets    int
	perAddress int
	changes    int
	pause      time.Duration
	clock      any // the seeks' clock, as POST /api/seeks takes it
	pid        int
	signedIn   bool // each socket signs up an account of its own first
}

// lobbyResult is the JSON line of a lobby run. Durations in
// milliseconds, CPU in seconds.
type lobbyResult struct {
	URL        string  `json:"url"`
	Sockets    int     `json:"sockets"`             // lobby WebSockets asked for
	Connected  int     `json:"connected"`           // opened and sent their first list
	Addresses  int     `json:"addresses"`           // source addresses they came from
	ConnectSec float64 `json:"connect_s"`           // to open them all and have every first list
	Changes    int     `json:"changes"`             // seeks posted and cancelled: two changes each
	SignedIn   int     `json:"signed_in,omitempty"` // sockets signed in to an account each (--signed-in)
	SignupSec  float64 `json:"signup_s,omitempty"`
	// DeliverMs is every socket's time from the change's request sent to
	// its list showing the change, over all changes; AllMs each change's
	// slowest socket (the time until every socket had it); RequestMs the
	// post's or cancel's own answer.
	DeliverMs   quantiles         `json:"deliver_ms"`
	AllMs       quantiles         `json:"all_ms"`
	RequestMs   quantiles         `json:"request_ms"`
	Delivered   int64             `json:"delivered"` // lists that showed a change, counted once a socket and change
	Missed      int64             `json:"missed"`    // sockets a change did not reach within 30 s (or that closed)
	Errors      map[string]int64  `json:"errors"`
	FirstErrors map[string]string `json:"first_errors,omitempty"`
	Seconds     float64           `json:"seconds"` // the changes' window
	ClientCPU   float64           `json:"client_cpu_s"`
	ServerPID   int               `json:"server_pid,omitempty"`
	ServerCPU   *float64          `json:"server_cpu_s,omitempty"` // over the changes' window
	ServerRSS   *float64          `json:"server_rss_mib,omitempty"`
	LoadStart   string            `json:"loadavg"`     // /proc/loadavg at the start
	LoadEnd     string            `json:"loadavg_end"` // and at the end
	Interrupted bool              `json:"interrupted,omitempty"`
}

// runLoadgenLobby is `oanquan loadgen lobby`.
func runLoadgenLobby(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen lobby", flag.ContinueOnError)
	rawURL := fs.String("url", "http://127.0.0.1:8080", "the server, on this machine only")
	sockets := fs.Int("sockets", 1000, fmt.Sprintf("lobby WebSockets to open (at most %d)", maxLobbySockets))
	perAddress := fs.Int("per-address", 100, "lobby WebSockets from each source address (the server's --sockets-per-address, 100 by default, is never exceeded)")
	from := fs.String("from", "127.1.0.0/16", "the source addresses, a prefix within 127.0.0.0/8 (Linux answers on all of them)")
	changes := fs.Int("changes", 20, fmt.Sprintf("seeks to post and cancel, one after the other: two changes each (at most %d)", maxLobbyChanges))
	pause := fs.Float64("pause", 0.2, "seconds between a change reaching every socket and the next")
	clock := fs.String("clock", "180+2", `the seeks' clock: "180+2" or "3d"`)
	pid := fs.Int("pid", 0, "the server's process id, for its CPU time and memory")
	signedIn := fs.Bool("signed-in", false, "each socket is a page signed in to an account of its own, made first (then --per-address at most 3: the sign-ups' limit)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 0:
		return usagef("loadgen lobby: unexpected argument %q", fs.Arg(0))
	case *signedIn && *perAddress > 3:
		return usagef("loadgen lobby: --signed-in with --per-address %d: the server makes 3 accounts an hour an address; give --per-address 3", *perAddress)
	case *sockets < 1 || *sockets > maxLobbySockets:
		return usagef("loadgen lobby: --sockets %d: want 1 to %d", *sockets, maxLobbySockets)
	case *perAddress < 1:
		return usagef("loadgen lobby: --per-address %d: want at least 1", *perAddress)
	case *changes < 1 || *changes > maxLobbyChanges:
		return usagef("loadgen lobby: --changes %d: want 1 to %d", *changes, maxLobbyChanges)
	case !(*pause >= 0 && *pause <= 60):
		return usagef("loadgen lobby: --pause %v: want 0 to 60 seconds", *pause)
	case *pid < 0:
		return usagef("loadgen lobby: --pid %d: want a process id", *pid)
	}
	base, err := loopbackURL(*rawURL)
	if err != nil {
		return usagef("loadgen lobby: %v", err)
	}
	src, err := parseSources(*from)
	if err != nil {
		return usagef("loadgen lobby: %v", err)
	}
	need := (*sockets+*perAddress-1) / *perAddress + (*changes+postsPerAddress-1)/postsPerAddress
	if _, err := src.addr(need - 1); err != nil {
		return usagef("loadgen lobby: %v", err)
	}
	c, err := parseClockFlag(*clock)
	if err != nil || c == nil || c == "none" {
		return usagef("loadgen lobby: --clock %q: want \"180+2\" or \"3d\"", *clock)
	}
	if *pid != 0 {
		if _, err := procCPU(*pid); err != nil {
			return usagef("loadgen lobby: --pid %d: %v", *pid, err)
		}
	}
	cfg := lobbyConfig{base: base, from: src, sockets: *sockets, perAddress: *perAddress, changes: *changes,
		pause: time.Duration(*pause * float64(time.Second)), clock: c, pid: *pid, signedIn: *signedIn}
	ctx, cancel := context.WithTimeout(ctx, maxLoadSeconds*time.Second)
	defer cancel()
	res, err := runLobby(ctx, cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "loadgen lobby: %d sockets from %d addresses, %d changes: to every socket p50 %.1f ms, p99 %.1f ms, max %.1f ms; %d missed, %d errors; server CPU %s\n",
		res.Connected, res.Addresses, 2*res.Changes, res.AllMs.P50, res.AllMs.P99, res.AllMs.Max, res.Missed, countAll(res.Errors), cpuText(res.ServerCPU))
	return json.NewEncoder(stdout).Encode(res)
}

// countAll sums counts.
func countAll(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// cpuText says a CPU time that may be unknown.
func cpuText(s *float64) string {
	if s == nil {
		return "not read (no --pid)"
	}
	return fmt.Sprintf("%.2f s", *s)
}

// lobbyChange is one change being timed: the lobby's list becomes
// non-empty (a seek posted) or empty (cancelled).
type lobbyChange struct {
	seq      int
	nonEmpty bool
	t0       time.Time
	pending  int // sockets yet to show it
	slowest  time.Duration
	done     chan struct{}
}

// lobbyWatch is the sockets' shared view of the change being timed.
type lobbyWatch struct {
	mu      sync.Mutex
	cur     *lobbyChange
	deliver latencies
	missed  atomic.Int64
	alive   int // sockets open
}

// lobbySocketState is what one socket's reader knows.
type lobbySocketState struct {
	handled int // the last change it showed
	first   chan struct{}
}

// observe notes a list of n seeks received at t by socket s.
func (w *lobbyWatch) observe(s *lobbySocketState, n int, t time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	c := w.cur
	if c == nil || s.handled == c.seq || (n > 0) != c.nonEmpty {
		return
	}
	s.handled = c.seq
	d := t.Sub(c.t0)
	w.deliver.record(d)
	c.slowest = max(c.slowest, d)
	if c.pending--; c.pending == 0 {
		close(c.done)
	}
}

// closed notes that socket s closed: the change being timed, and every
// later one, no longer waits for it.
func (w *lobbyWatch) closed(s *lobbySocketState) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.alive--
	if c := w.cur; c != nil && s.handled != c.seq {
		s.handled = c.seq
		w.missed.Add(1)
		if c.pending--; c.pending == 0 {
			close(c.done)
		}
	}
}

// begin starts timing a change whose request is about to be sent.
func (w *lobbyWatch) begin(seq int, nonEmpty bool) *lobbyChange {
	w.mu.Lock()
	defer w.mu.Unlock()
	c := &lobbyChange{seq: seq, nonEmpty: nonEmpty, t0: time.Now(), pending: w.alive, done: make(chan struct{})}
	if c.pending == 0 {
		close(c.done)
	}
	w.cur = c
	return c
}

// finish ends the change being timed, counting the sockets it has not
// reached as missed, and returns its slowest socket's time.
func (w *lobbyWatch) finish(c *lobbyChange) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.missed.Add(int64(c.pending))
	w.cur = nil
	return c.slowest
}

// seekList is the part of a lobby message that the sockets read.
type seekList struct {
	Type  string            `json:"type"`
	Seeks []json.RawMessage `json:"seeks"`
}

// runLobby opens the sockets, makes the changes and returns the figures.
func runLobby(ctx context.Context, cfg lobbyConfig) (*lobbyResult, error) {
	errs := newErrorCounts()
	probe, err := cfg.from.client(0, true)
	if err != nil {
		return nil, err
	}
	defer cfg.from.closeIdle()
	var open struct {
		Seeks []json.RawMessage `json:"seeks"`
	}
	if e := apiCall(ctx, probe, cfg.base, "GET", "/api/seeks", "", nil, &open); e != nil {
		return nil, fmt.Errorf("loadgen lobby: no lobby at %s: %s", cfg.base, e.detail)
	}
	if len(open.Seeks) != 0 {
		return nil, fmt.Errorf("loadgen lobby: the lobby at %s has %d open seeks: measure on a server whose lobby is empty", cfg.base, len(open.Seeks))
	}
	res := &lobbyResult{URL: cfg.base.String(), Sockets: cfg.sockets, ServerPID: cfg.pid, LoadStart: loadAverage()}
	w := &lobbyWatch{}
	sctx, stopSockets := context.WithCancel(ctx)
	var readers sync.WaitGroup
	defer func() {
		stopSockets()
		readers.Wait()
	}()

	// With --signed-in, an account for each socket first, a few sign-ups
	// at once (each is a password hash of the server's).
	clients := make([]*http.Client, cfg.sockets)
	for i := range clients {
		if clients[i], err = cfg.from.client(i/cfg.perAddress, cfg.signedIn); err != nil {
			return nil, err
		}
	}
	if cfg.signedIn {
		t0 := time.Now()
		tag := strings.ToLower(base32.StdEncoding.EncodeToString(randomBytes(5)))[:6]
		var made atomic.Int64
		next := atomic.Int64{}
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for i := next.Add(1) - 1; i < int64(cfg.sockets) && ctx.Err() == nil; i = next.Add(1) - 1 {
					body := map[string]string{"username": fmt.Sprintf("lb%s-%d", tag, i), "password": base32.StdEncoding.EncodeToString(randomBytes(10))}
					if e := apiCall(ctx, clients[i], cfg.base, "POST", "/api/accounts", "", body, nil); e != nil {
						errs.add(e)
						continue
					}
					made.Add(1)
				}
			})
		}
		wg.Wait()
		res.SignedIn, res.SignupSec = int(made.Load()), time.Since(t0).Seconds()
	}

	// Open the sockets, dialsAtOnce at a time, each reading until the run
	// ends.
	t0 := time.Now()
	states := make([]*lobbySocketState, cfg.sockets)
	slots := make(chan struct{}, dialsAtOnce)
	var dials sync.WaitGroup
	var connected atomic.Int64
	for i := range cfg.sockets {
		slots <- struct{}{}
		dials.Go(func() {
			defer func() { <-slots }()
			c, err := dialWS(sctx, clients[i], cfg.base, "/api/lobby/ws")
			if err != nil {
				if sctx.Err() == nil {
					errs.add(&loadError{"ws_dial", err.Error()})
				}
				return
			}
			s := &lobbySocketState{first: make(chan struct{})}
			states[i] = s
			connected.Add(1)
			w.mu.Lock()
			w.alive++
			w.mu.Unlock()
			readers.Go(func() {
				defer c.CloseNow()
				gotFirst := false
				for {
					_, data, err := c.Read(sctx)
					if err != nil {
						if sctx.Err() == nil {
							errs.add(&loadError{"ws_closed", err.Error()})
						}
						w.closed(s)
						if !gotFirst {
							close(s.first)
						}
						return
					}
					at := time.Now()
					var m seekList
					if json.Unmarshal(data, &m) != nil || m.Type != "seeks" {
						continue
					}
					if !gotFirst {
						gotFirst = true
						close(s.first)
					}
					w.observe(s, len(m.Seeks), at)
				}
			})
		})
	}
	dials.Wait()
	for _, s := range states {
		if s == nil {
			continue
		}
		select {
		case <-s.first:
		case <-time.After(changeTimeout):
		case <-ctx.Done():
		}
	}
	res.Connected = int(connected.Load())
	res.Addresses = (cfg.sockets + cfg.perAddress - 1) / cfg.perAddress
	res.ConnectSec = time.Since(t0).Seconds()
	if ctx.Err() != nil {
		res.Interrupted = true
	}

	// The changes: a seek posted from a poster address of its own (a
	// new one every postsPerAddress seeks), then cancelled.
	var all, reqs latencies
	cpu := startCPU(cfg.pid)
	start := time.Now()
	var rss float64
	firstPoster := res.Addresses
	for i := 0; i < cfg.changes && ctx.Err() == nil; i++ {
		poster, err := cfg.from.client(firstPoster+i/postsPerAddress, true)
		if err != nil {
			return nil, err
		}
		var seek struct{ ID, Secret string }
		both := true
		for step, nonEmpty := range []bool{true, false} {
			c := w.begin(2*i+step+1, nonEmpty)
			var e *loadError
			if nonEmpty {
				e = apiCall(ctx, poster, cfg.base, "POST", "/api/seeks", "", map[string]any{"clock": cfg.clock, "rated": false}, &seek)
			} else {
				e = apiCall(ctx, poster, cfg.base, "DELETE", "/api/seeks/"+seek.ID, seek.Secret, nil, nil)
			}
			reqs.record(time.Since(c.t0))
			if e != nil {
				errs.add(e)
				w.finish(c)
				both = false
				if nonEmpty {
					break // nothing to cancel
				}
				continue
			}
			select {
			case <-c.done:
			case <-time.After(changeTimeout):
			case <-ctx.Done():
			}
			all.record(w.finish(c))
			if cfg.pid != 0 {
				if m, err := procMemory(cfg.pid, "VmRSS"); err == nil {
					rss = max(rss, m)
				}
			}
			sleepUntil(ctx, time.Now().Add(cfg.pause))
		}
		if both {
			res.Changes++
		}
	}
	res.Seconds = time.Since(start).Seconds()
	res.ServerCPU = cpu.stop()
	res.ClientCPU = cpu.Self
	if cfg.pid != 0 && rss > 0 {
		res.ServerRSS = &rss
	}
	if ctx.Err() != nil {
		res.Interrupted = true
	}
	res.DeliverMs, res.AllMs, res.RequestMs = w.deliver.quantiles(), all.quantiles(), reqs.quantiles()
	res.Delivered, res.Missed = w.deliver.count(), w.missed.Load()
	res.Errors, res.FirstErrors = errs.snapshot()
	res.LoadEnd = loadAverage()
	return res, nil
}
