package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

func init() {
	commands["loadgen"] = command{
		usage: "[--url URL] [--games N] [--rate R] [--hard K] [--seconds S] [--warmup S] [--pid PID] [--fill N]",
		doc:   "drive a game server on this machine with concurrent games; one JSON line of figures",
		run:   runLoadgen,
	}
}

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
}

func runLoadgen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	rawURL := fs.String("url", "http://127.0.0.1:8080", "the server, on this machine only (127.0.0.0/8, ::1 or localhost)")
	games := fs.Int("games", 100, "two-player games played at once, each as fast as the server answers")
	rate := fs.Float64("rate", 0, "two-player moves a second in all, each game moving at its own steady pace (games/rate apart); 0: each game moves as soon as its last move is answered")
	hard := fs.Int("hard", 0, "games against the computer at Hard played at the same time")
	seconds := fs.Float64("seconds", 10, "how long to measure, after the warm-up (at most 600)")
	warmup := fs.Float64("warmup", 2, "seconds of load before measuring starts (at most 60)")
	pid := fs.Int("pid", 0, "the server's process id, to report its CPU time and resident memory (Linux /proc)")
	fill := fs.Int("fill", 0, fmt.Sprintf("games to save before the run, %d moves each (at most %d)", fillMoves, maxFill))
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
	cfg := loadConfig{
		base: base, games: *games, hard: *hard, rate: *rate, pid: *pid, fill: *fill,
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
	Rate        float64 `json:"rate,omitempty"` // the two-player moves a second asked for
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
	res := &loadResult{URL: l.cfg.base.String(), Games: l.cfg.games, Rate: l.cfg.rate, Hard: l.cfg.hard,
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
	for i := range l.cfg.games + l.cfg.hard {
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(i)))
		if i >= l.cfg.games {
			wg.Go(func() {
				for pctx.Err() == nil {
					l.playHard(pctx, rng)
				}
			})
			continue
		}
		p := newPacer(l.cfg.games, l.cfg.rate, rng)
		wg.Go(func() {
			for pctx.Err() == nil {
				l.playLocal(pctx, rng, p)
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

// The parts of the API's answers that the players read (docs/API.md).
type (
	gameState struct {
		ID     string   `json:"id"`
		Ply    int      `json:"ply"`
		ToMove int      `json:"toMove"`
		Legal  []string `json:"legal"`
		Over   bool     `json:"over"`
	}
	createdGame struct {
		gameState
		Secret string `json:"secret"`
	}
	turnAnswer struct {
		Ply   int       `json:"ply"`
		By    string    `json:"by"`
		State gameState `json:"state"`
	}
	wsMessage struct {
		Type string      `json:"type"`
		Turn *turnAnswer `json:"turn"`
	}
	healthAnswer struct {
		Live   int `json:"live"`
		Queued int `json:"queued"`
	}
)

// loadError is a request that failed: its kind, as counted (the status
// as text, "409", or "transport", "bad_answer", "ws", "reply_timeout"),
// and what was said about it.
type loadError struct{ kind, detail string }

// maxDetail bounds the text kept of an error answer.
const maxDetail = 300

// request sends one API request and decodes a 2xx answer into out. It
// returns nil if it got one.
func (l *loadgen) request(ctx context.Context, method, path, secret string, body, out any) *loadError {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			panic(err) // loadgen's own types always marshal
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, l.cfg.base.String()+path, rd)
	if err != nil {
		return &loadError{"transport", err.Error()}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return &loadError{"transport", err.Error()}
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		detail, _ := io.ReadAll(io.LimitReader(resp.Body, maxDetail))
		io.Copy(io.Discard, resp.Body) // so that the connection is kept
		return &loadError{strconv.Itoa(resp.StatusCode), method + " " + path + ": " + string(detail)}
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return &loadError{"bad_answer", err.Error()}
	}
	io.Copy(io.Discard, resp.Body)
	return nil
}

// create makes a new game with the settings of body.
func (l *loadgen) create(ctx context.Context, body any) (createdGame, bool) {
	var g createdGame
	if err := l.request(ctx, "POST", "/api/games", "", body, &g); err != nil {
		l.fail(ctx, err)
		return g, false
	}
	if l.inWindow(time.Now()) {
		l.started.Add(1)
	}
	return g, true
}

// move plays mv in game g at ply; the answer's time is when it was read.
func (l *loadgen) move(ctx context.Context, g createdGame, mv string, ply int) (turnAnswer, time.Time, bool) {
	var t turnAnswer
	err := l.request(ctx, "POST", "/api/games/"+g.ID+"/moves", g.Secret, map[string]any{"move": mv, "ply": ply}, &t)
	now := time.Now()
	if err != nil {
		l.fail(ctx, err)
	}
	return t, now, err == nil
}

func (l *loadgen) health(ctx context.Context) (healthAnswer, error) {
	var h healthAnswer
	if err := l.request(ctx, "GET", "/api/health", "", nil, &h); err != nil {
		return h, fmt.Errorf("GET /api/health: %s", err.detail)
	}
	return h, nil
}

var (
	localGame = map[string]any{"mode": "local"}
	hardGame  = map[string]any{"mode": "ai", "level": "hard", "human": 0}
)

// playLocal plays one two-player game with random legal moves, each when
// p says, to its end or the first error. A move's latency is from when it
// was due to its answer: a server that falls behind a pace is not let
// off the moves it delayed.
func (l *loadgen) playLocal(ctx context.Context, rng *rand.Rand, p *pacer) {
	g, ok := l.create(ctx, localGame)
	st := g.gameState
	for ok && !st.Over && len(st.Legal) > 0 {
		due, waited := p.wait(ctx)
		if !waited {
			return
		}
		var t turnAnswer
		var at time.Time
		if t, at, ok = l.move(ctx, g, st.Legal[rng.IntN(len(st.Legal))], st.Ply); ok {
			if l.inWindow(at) {
				l.moves.record(at.Sub(due))
			}
			st = t.State
		}
	}
}

// pacer says when one game's next move is due: at once, or at a steady
// pace whatever the answers' times. Not safe for concurrent use.
type pacer struct {
	every time.Duration // 0: at once
	next  time.Time
}

// newPacer paces one of games games moving rate times a second in all
// (0: as fast as answered), starting at a random point of its period so
// that the games do not move in step.
func newPacer(games int, rate float64, rng *rand.Rand) *pacer {
	if rate == 0 {
		return &pacer{}
	}
	every := time.Duration(float64(games) / rate * float64(time.Second))
	return &pacer{every: every, next: time.Now().Add(time.Duration(rng.Int64N(int64(every) + 1)))}
}

// wait waits until the next move is due and returns when that was; false
// if ctx ended first.
func (p *pacer) wait(ctx context.Context) (time.Time, bool) {
	if p.every == 0 {
		return time.Now(), ctx.Err() == nil
	}
	due := p.next
	p.next = due.Add(p.every)
	return due, sleepUntil(ctx, due)
}

// timedTurn is a computer's turn and when it arrived.
type timedTurn struct {
	turnAnswer
	at time.Time
}

// playHard plays one game against Hard, the human's move as soon as the
// computer's reply arrives on the game's WebSocket, and times each reply
// from the human's move answered to the computer's turn received.
func (l *loadgen) playHard(ctx context.Context, rng *rand.Rand) {
	g, ok := l.create(ctx, hardGame)
	if !ok {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	turns, err := l.computerTurns(ctx, g.ID)
	if err != nil {
		l.fail(ctx, &loadError{"ws", err.Error()})
		return
	}
	st := g.gameState
	for !st.Over && len(st.Legal) > 0 {
		t, answered, ok := l.move(ctx, g, st.Legal[rng.IntN(len(st.Legal))], st.Ply)
		if !ok {
			return
		}
		if l.inWindow(answered) {
			l.hardMvs.Add(1)
		}
		st = t.State
		for first := true; !st.Over && st.ToMove != 0; first = false {
			select {
			case ct, open := <-turns:
				if !open {
					l.fail(ctx, &loadError{"ws", "the WebSocket closed"})
					return
				}
				if first && l.inWindow(ct.at) {
					l.replies.record(max(ct.at.Sub(answered), 0))
				}
				st = ct.State
			case <-time.After(replyTimeout):
				l.fail(ctx, &loadError{"reply_timeout", fmt.Sprintf("no reply from the computer in %v", replyTimeout)})
				return
			case <-ctx.Done():
				return
			}
		}
	}
}

// computerTurns connects to game id's WebSocket and sends on the channel
// returned the computer's turns as they arrive, until ctx is done or the
// connection fails; then it closes the channel.
func (l *loadgen) computerTurns(ctx context.Context, id string) (<-chan timedTurn, error) {
	u := *l.cfg.base
	u.Scheme = strings.Replace(u.Scheme, "http", "ws", 1)
	u.Path = "/api/games/" + id + "/ws"
	c, _, err := websocket.Dial(ctx, u.String(), &websocket.DialOptions{HTTPClient: l.client})
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(1 << 20) // a turn carries the whole game's state
	out := make(chan timedTurn, 4)
	go func() {
		defer close(out)
		defer c.CloseNow()
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			at := time.Now()
			var m wsMessage
			if json.Unmarshal(data, &m) != nil || m.Type != "turn" || m.Turn == nil || m.Turn.By != "computer" {
				continue
			}
			select {
			case out <- timedTurn{*m.Turn, at}:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// fill makes n two-player games with fillMoves random moves each, a few
// at once, and returns how many it made.
func (l *loadgen) fill(ctx context.Context, n int) int64 {
	ctx, cancel := context.WithTimeout(ctx, maxFillTime)
	defer cancel()
	var next, made atomic.Int64
	var wg sync.WaitGroup
	for w := range min(n, fillWorkers) {
		rng := rand.New(rand.NewPCG(uint64(w), uint64(n)))
		wg.Go(func() {
			for ctx.Err() == nil && next.Add(1) <= int64(n) {
				g, ok := l.create(ctx, localGame)
				if !ok {
					continue
				}
				made.Add(1)
				st := g.gameState
				for range fillMoves {
					if st.Over || len(st.Legal) == 0 {
						break
					}
					t, _, ok := l.move(ctx, g, st.Legal[rng.IntN(len(st.Legal))], st.Ply)
					if !ok {
						break
					}
					st = t.State
				}
			}
		})
	}
	wg.Wait()
	return made.Load()
}

// latencies is a histogram of durations, safe for concurrent use. Its
// buckets are exact to the microsecond below 128 µs and 1/64 wide (1.6%)
// above: a run's memory does not grow with its length.
type latencies struct {
	buckets [histBuckets]atomic.Int64
	n       atomic.Int64
	maxNs   atomic.Int64
}

// histBuckets covers up to 2^40 µs (12 days): far beyond any timeout.
const histBuckets = 128 + 64*34

// bucketOf returns the bucket of us microseconds.
func bucketOf(us uint64) int {
	if us < 128 {
		return int(us)
	}
	shift := bits.Len64(us) - 7 // keep the top 7 bits: 64 to 127
	return min(128+(shift-1)*64+int(us>>shift)-64, histBuckets-1)
}

// bucketMid returns the middle of bucket i, in microseconds.
func bucketMid(i int) float64 {
	if i < 128 {
		return float64(i) + 0.5
	}
	shift := (i-128)/64 + 1
	low := uint64((i-128)%64+64) << shift
	return float64(low) + float64(uint64(1)<<shift)/2
}

func (h *latencies) record(d time.Duration) {
	h.buckets[bucketOf(uint64(d.Microseconds()))].Add(1)
	h.n.Add(1)
	for m := h.maxNs.Load(); int64(d) > m && !h.maxNs.CompareAndSwap(m, int64(d)); m = h.maxNs.Load() {
	}
}

func (h *latencies) count() int64 { return h.n.Load() }

// quantile returns the q-quantile in milliseconds (the middle of its
// bucket, never above the largest value recorded), or 0 for no values.
func (h *latencies) quantile(q float64) float64 {
	n := h.n.Load()
	if n == 0 {
		return 0
	}
	rank := max(int64(math.Ceil(q*float64(n))), 1)
	maxMs := float64(h.maxNs.Load()) / 1e6
	var seen int64
	for i := range h.buckets {
		if seen += h.buckets[i].Load(); seen >= rank {
			return min(bucketMid(i)/1e3, maxMs)
		}
	}
	return maxMs
}

func (h *latencies) quantiles() quantiles {
	return quantiles{P50: h.quantile(0.50), P90: h.quantile(0.90), P99: h.quantile(0.99),
		Max: float64(h.maxNs.Load()) / 1e6}
}

// selfCPU returns this process's CPU time so far, user and system, in
// seconds.
func selfCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// clockTicks is Linux's USER_HZ, the unit of the times in /proc/PID/stat:
// 100 on every architecture Go runs on.
const clockTicks = 100

// procCPU returns process pid's CPU time so far, user and system, in
// seconds, from /proc/PID/stat; 0 for pid 0.
func procCPU(pid int) (float64, error) {
	if pid == 0 {
		return 0, nil
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name, in parentheses, may hold spaces: count the
	// fields after its closing parenthesis (the third field on).
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, errors.New("/proc/PID/stat: unexpected format")
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("/proc/PID/stat: unexpected format")
	}
	utime, err1 := strconv.ParseFloat(f[11], 64) // field 14
	stime, err2 := strconv.ParseFloat(f[12], 64) // field 15
	if err1 != nil || err2 != nil {
		return 0, errors.New("/proc/PID/stat: unexpected format")
	}
	return (utime + stime) / clockTicks, nil
}

// procMemory returns the field (VmRSS, VmHWM) of /proc/PID/status in MiB.
func procMemory(pid int, field string) (float64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024, err
		}
	}
	return 0, fmt.Errorf("/proc/%d/status: no %s", pid, field)
}

// loadAverage returns the first three fields of /proc/loadavg, or "".
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	return strings.Join(f[:min(3, len(f))], " ")
}
