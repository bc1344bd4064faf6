package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Bounds of a load run: load goes to this machine only, and stops by
// itself.
const (
	maxLoadSeconds = 600
	maxWarmup      = 60
	maxLoadGames   = 10000
	maxFill        = 1000000
	maxFillTime    = 30 * time.Minute
)

const (
	fillWorkers    = 32                     // games --fill makes at once
	fillMoves      = 4                      // moves played in each game --fill makes
	requestTimeout = 30 * time.Second       // one request, before it counts as an error
	replyTimeout   = 60 * time.Second       // the computer's reply, before it counts as an error
	errorPause     = 20 * time.Millisecond  // after an error, so that a dead server is not hammered
	rssEvery       = 250 * time.Millisecond // how often the server's RSS is read
)

// loadConfig is a load run, as the flags give it.
type loadConfig struct {
	base            *url.URL // the server, on a loopback address
	games, hard     int      // two-player games, and games against Hard, at once
	warmup, seconds time.Duration
	rate            float64 // two-player moves a second in all, spread over the games; 0: as fast as answered
	pid             int     // the server's process, to read its CPU time and memory; 0: none
	fill            int     // games to make (and play a few moves in) before the run
	// clock makes the two-player games online ones with this clock (the
	// JSON of "clock"), joined by a second player; nil: local games.
	// "none" is online games without a clock, to compare.
	clock     any
	clockText string // --clock as given
}

// runLoadgen is `oanquan loadgen`: it checks the flags, refusing any
// server but this machine's, runs the load and prints its figures.
// `oanquan loadgen lobby` and `oanquan loadgen rated` are the lobby's
// and rated games' runs (loadgen_lobby.go, loadgen_rated.go).
func runLoadgen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "lobby":
			return runLoadgenLobby(ctx, args[1:], stdout, stderr)
		case "rated":
			return runLoadgenRated(ctx, args[1:], stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	rawURL := fs.String("url", "http://127.0.0.1:8080", "the server, on this machine only (127.0.0.0/8, ::1 or localhost)")
	games := fs.Int("games", 100, "two-player games played at once, each as fast as the server answers")
	rate := fs.Float64("rate", 0, "two-player moves a second in all, each game moving at its own steady pace (games/rate apart); 0: each game moves as soon as its last move is answered")
	hard := fs.Int("hard", 0, "games against the computer at Hard played at the same time")
	seconds := fs.Float64("seconds", 10, "how long to measure, after the warm-up (at most 600)")
	warmup := fs.Float64("warmup", 2, "seconds of load before measuring starts (at most 60)")
	pid := fs.Int("pid", 0, "the server's process id, to report its CPU time and resident memory (Linux /proc)")
	fill := fs.Int("fill", 0, fmt.Sprintf("games to save before the run, %d moves each (at most %d)", fillMoves, maxFill))
	clock := fs.String("clock", "", `play the two-player games online, joined, with this clock: "180+2" (seconds + increment), "3d" (days per move), or "none" (online without a clock); "": local games`)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 0:
		return usagef("loadgen: unexpected argument %q", fs.Arg(0))
	case *games < 0 || *hard < 0 || *games+*hard == 0 || *games+*hard > maxLoadGames:
		return usagef("loadgen: --games %d --hard %d: want 1 to %d games in all", *games, *hard, maxLoadGames)
	case !(*seconds > 0 && *seconds <= maxLoadSeconds):
		return usagef("loadgen: --seconds %v: want more than 0 and at most %d", *seconds, maxLoadSeconds)
	case !(*warmup >= 0 && *warmup <= maxWarmup):
		return usagef("loadgen: --warmup %v: want 0 to %d", *warmup, maxWarmup)
	case *fill < 0 || *fill > maxFill:
		return usagef("loadgen: --fill %d: want 0 to %d", *fill, maxFill)
	case !(*rate >= 0 && *rate <= 1e6):
		return usagef("loadgen: --rate %v: want 0 (as fast as answered) to 1000000", *rate)
	case *pid < 0:
		return usagef("loadgen: --pid %d: want a process id", *pid)
	}
	base, err := loopbackURL(*rawURL)
	if err != nil {
		return usagef("loadgen: %v", err)
	}
	if *pid != 0 {
		if _, err := procCPU(*pid); err != nil {
			return usagef("loadgen: --pid %d: %v", *pid, err)
		}
	}
	clockSetting, err := parseClockFlag(*clock)
	if err != nil {
		return usagef("loadgen: --clock %q: %v", *clock, err)
	}
	cfg := loadConfig{
		base: base, games: *games, hard: *hard, rate: *rate, pid: *pid, fill: *fill, clock: clockSetting, clockText: *clock,
		warmup:  time.Duration(*warmup * float64(time.Second)),
		seconds: time.Duration(*seconds * float64(time.Second)),
	}
	res, err := newLoadgen(cfg).run(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintln(stderr, res.summary())
	return json.NewEncoder(stdout).Encode(res)
}

// loopbackURL parses raw, the server's URL, and refuses it unless its
// host is a loopback address: this machine's rules allow load on nothing
// else. Host names other than localhost are refused even if they
// resolve to a loopback address; the dialer checks every address it
// connects to as well (loopbackDialer).
func loopbackURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--url %q: want http://HOST:PORT on this machine", raw)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); !strings.EqualFold(host, "localhost") && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("--url %q: %s is not a loopback address (127.0.0.0/8, ::1, localhost); "+
			"load may only be sent to this machine", raw, host)
	}
	u.Path, u.RawQuery, u.Fragment = "", "", ""
	return u, nil
}

// loopbackDialer connects only to loopback addresses, whatever a name
// resolved to.
var loopbackDialer = &net.Dialer{
	Timeout: 5 * time.Second,
	Control: func(network, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
			return fmt.Errorf("loadgen: refusing to connect to %s: not a loopback address", address)
		}
		return nil
	},
}

// newLoadClient returns a client for conns connections at once to one
// host (the default keeps 2 idle, and would open and close connections
// all the time), that never follows a redirect.
func newLoadClient(conns int) *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			DialContext:         loopbackDialer.DialContext,
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			IdleConnTimeout:     time.Minute,
			DisableCompression:  true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// loadgen is one load run. Its counters are safe for concurrent use by
// the players' goroutines.
type loadgen struct {
	cfg    loadConfig
	client *http.Client
	// The measured window: what is answered in [start, end) counts.
	// Both are set before any player starts.
	start, end time.Time

	moves   latencies // two-player moves answered in the window
	replies latencies // the computer's replies arrived in the window
	started atomic.Int64
	hardMvs atomic.Int64 // human moves answered in games against Hard, in the window

	mu       sync.Mutex
	errors   map[string]int64  // by kind (loadError)
	examples map[string]string // the first error of each kind
}

// newLoadgen returns a run of cfg, with a client for all its games.
func newLoadgen(cfg loadConfig) *loadgen {
	return &loadgen{
		cfg:      cfg,
		client:   newLoadClient(cfg.games + cfg.hard + fillWorkers),
		errors:   make(map[string]int64),
		examples: make(map[string]string),
	}
}

// loadResult is the JSON line loadgen prints. Durations are in
// milliseconds, CPU times in seconds, memory in MiB.
type loadResult struct {
	URL         string  `json:"url"`
	Games       int     `json:"games"`
	Clock       string  `json:"clock,omitempty"` // the two-player games' clock, as --clock gave it
	Rate        float64 `json:"rate,omitempty"`  // the two-player moves a second asked for
	Hard        int     `json:"hard"`
	Warmup      float64 `json:"warmup_s"`
	Seconds     float64 `json:"seconds"` // measured; less than asked if interrupted
	Interrupted bool    `json:"interrupted,omitempty"`
	Filled      int64   `json:"filled,omitempty"`
	FillSeconds float64 `json:"fill_s,omitempty"`

	Moves        int64             `json:"moves"` // two-player moves answered
	MovesPerSec  float64           `json:"moves_per_s"`
	MoveMs       quantiles         `json:"move_ms"`
	GamesStarted int64             `json:"games_started"`
	HardMoves    int64             `json:"hard_moves,omitempty"` // the human's moves against Hard
	Replies      int64             `json:"replies,omitempty"`    // the computer's replies timed
	ReplyMs      *quantiles        `json:"reply_ms,omitempty"`
	Errors       map[string]int64  `json:"errors"`                 // over the whole run, fill and warm-up included
	FirstErrors  map[string]string `json:"first_errors,omitempty"` // the first of each kind, as said

	ClientCPU   float64  `json:"client_cpu_s"` // this process, user + system, in the window
	ServerPID   int      `json:"server_pid,omitempty"`
	ServerCPU   *float64 `json:"server_cpu_s,omitempty"`   // user + system, in the window
	ServerRSS   *float64 `json:"server_rss_mib,omitempty"` // the most seen in the window (VmRSS)
	ServerHWM   *float64 `json:"server_hwm_mib,omitempty"` // VmHWM at the end: the peak as Linux last noted it
	Live        int      `json:"live"`                     // live games, from /api/health at the end
	LoadAverage string   `json:"loadavg"`                  // /proc/loadavg at the start
}

// quantiles summarise latencies, in milliseconds.
type quantiles struct {
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// summary is the result in one line for people.
func (r *loadResult) summary() string {
	var errs int64
	for _, n := range r.Errors {
		errs += n
	}
	s := fmt.Sprintf("loadgen: %d games: %.0f moves/s, p50 %.2f ms, p99 %.2f ms, max %.1f ms; %d errors; client CPU %.1f s in %.1f s",
		r.Games, r.MovesPerSec, r.MoveMs.P50, r.MoveMs.P99, r.MoveMs.Max, errs, r.ClientCPU, r.Seconds)
	if r.ReplyMs != nil {
		s += fmt.Sprintf("; %d Hard: reply p50 %.0f ms, p99 %.0f ms", r.Hard, r.ReplyMs.P50, r.ReplyMs.P99)
	}
	if r.ServerRSS != nil {
		s += fmt.Sprintf("; server CPU %.1f s, RSS %.0f MiB", *r.ServerCPU, *r.ServerRSS)
	}
	return s
}

// run fills the store if asked, then plays for the warm-up and the
// measured window, and returns the figures. It stops early, with the
// figures so far, when ctx is done.
func (l *loadgen) run(ctx context.Context) (*loadResult, error) {
	if _, err := l.health(ctx); err != nil {
		return nil, fmt.Errorf("loadgen: no game server at %s: %v", l.cfg.base, err)
	}
	res := &loadResult{URL: l.cfg.base.String(), Games: l.cfg.games, Rate: l.cfg.rate, Hard: l.cfg.hard, Clock: l.cfg.clockText,
		Warmup: l.cfg.warmup.Seconds(), ServerPID: l.cfg.pid, LoadAverage: loadAverage()}
	if l.cfg.fill > 0 {
		t0 := time.Now()
		res.Filled = l.fill(ctx, l.cfg.fill)
		res.FillSeconds = time.Since(t0).Seconds()
	}
	l.start = time.Now().Add(l.cfg.warmup)
	l.end = l.start.Add(l.cfg.seconds)
	pctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	// The games start spread over the first half of the warm-up, so that
	// a thousand new connections do not all arrive at once.
	n := l.cfg.games + l.cfg.hard
	t0 := time.Now()
	for i := range n {
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(i)))
		startAt := t0.Add(l.cfg.warmup / 2 * time.Duration(i) / time.Duration(n))
		wg.Go(func() {
			sleepUntil(pctx, startAt)
			play := func() { l.playHard(pctx, rng) }
			if i < l.cfg.games {
				p := newPacer(l.cfg.games, l.cfg.rate, rng) // paced from its start
				play = func() { l.playLocal(pctx, rng, p) }
			}
			for pctx.Err() == nil {
				play()
			}
		})
	}
	l.measure(ctx, res)
	stop()
	wg.Wait()
	l.client.CloseIdleConnections()
	l.results(res)
	if h, err := l.health(context.Background()); err == nil {
		res.Live = h.Live
	}
	return res, nil
}

// measure waits for the window, reading the CPU times and the server's
// memory at its start and end, and sampling the memory within it.
func (l *loadgen) measure(ctx context.Context, res *loadResult) {
	if !sleepUntil(ctx, l.start) {
		res.Interrupted = true
		return
	}
	cpu0 := selfCPU()
	srv0, _ := procCPU(l.cfg.pid)
	rss := 0.0
	tick := time.NewTicker(rssEvery)
	defer tick.Stop()
	for done := false; !done; {
		if l.cfg.pid != 0 {
			if m, err := procMemory(l.cfg.pid, "VmRSS"); err == nil {
				rss = max(rss, m)
			}
		}
		select {
		case <-ctx.Done():
			res.Interrupted, done = true, true
		case <-time.After(time.Until(l.end)):
			done = true
		case <-tick.C:
		}
	}
	res.Seconds = min(time.Since(l.start), l.end.Sub(l.start)).Seconds()
	res.ClientCPU = selfCPU() - cpu0
	if l.cfg.pid != 0 {
		srv1, err := procCPU(l.cfg.pid)
		hwm, err2 := procMemory(l.cfg.pid, "VmHWM")
		if err == nil && err2 == nil {
			cpu := srv1 - srv0
			res.ServerCPU, res.ServerRSS, res.ServerHWM = &cpu, &rss, &hwm
		}
	}
}

// results fills in the counts and latencies of the window.
func (l *loadgen) results(res *loadResult) {
	res.Moves = l.moves.count()
	if res.Seconds > 0 {
		res.MovesPerSec = float64(res.Moves) / res.Seconds
	}
	res.MoveMs = l.moves.quantiles()
	res.GamesStarted = l.started.Load()
	if l.cfg.hard > 0 {
		res.HardMoves = l.hardMvs.Load()
		res.Replies = l.replies.count()
		q := l.replies.quantiles()
		res.ReplyMs = &q
	}
	l.mu.Lock()
	res.Errors, res.FirstErrors = l.errors, l.examples
	l.mu.Unlock()
}

// sleepUntil waits until t, and reports false if ctx ended first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// inWindow reports whether something that happened at t counts.
func (l *loadgen) inWindow(t time.Time) bool { return !t.Before(l.start) && t.Before(l.end) }

// fail counts an error, keeping the first of each kind (unless the run
// is ending, which cancels the requests in flight), and pauses a little.
func (l *loadgen) fail(ctx context.Context, e *loadError) {
	if ctx.Err() != nil {
		return
	}
	l.mu.Lock()
	l.errors[e.kind]++
	if _, ok := l.examples[e.kind]; !ok {
		l.examples[e.kind] = oneLine(e.detail)
	}
	l.mu.Unlock()
	sleepUntil(ctx, time.Now().Add(errorPause))
}
