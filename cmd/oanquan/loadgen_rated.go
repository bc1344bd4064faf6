package main

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"
)

// oanquan loadgen rated: many rated games at once, as strangers play
// them. It makes 2×--games accounts (POST /api/accounts, --per-address of
// them from each source address of --from: the sign-ups' limit is 3 an
// hour an address), then each player, arriving over --ramp, asks for
// quick pairing at --clock, rated (POST /api/pairing), holding its
// ticket on the lobby's WebSocket as the page does until it is paired.
// Each game is then played with random legal moves, each seat's from its
// player's own address and with its secret, at a steady pace (--rate
// moves a second over all the games), each player with the game's
// WebSocket open, to the end. At the end it checks, through the API and
// (with --check-db) in PostgreSQL, that every game that ended updated
// both players' ratings.

const (
	maxRatedGames = 5000
	// maxRatedSeconds bounds a rated run, its sign-ups included (2,000
	// password hashes take a minute or more of the server's 2 cores).
	maxRatedSeconds = 900
	pairTimeout     = 60 * time.Second // a ticket not paired by then is an error
	moveTries       = 5                // a move sent at most so many times, a second apart, after a transport error or a 5xx
	checksAtOnce    = 16
)

// ratedConfig is a rated run, as the flags give it.
type ratedConfig struct {
	base       *url.URL
	from       *sources
	games      int
	perAddress int
	clock      any
	clockText  string
	rate       float64
	ramp       time.Duration
	signups    int // sign-ups sent at once
	maxPlies   int // the side to move resigns at this ply
	sockets    bool
	pid        int
	checkDB    string
}

// ratedResult is the JSON line of a rated run. Durations in
// milliseconds, CPU in seconds.
type ratedResult struct {
	URL       string    `json:"url"`
	Games     int       `json:"games"`    // asked for
	Clock     string    `json:"clock"`    // as --clock gave it
	Rate      float64   `json:"rate"`     // moves a second asked for, over all games
	Accounts  int       `json:"accounts"` // made
	Addresses int       `json:"addresses"`
	SignupSec float64   `json:"signup_s"`
	SignupMs  quantiles `json:"signup_ms"`
	SignupCPU *float64  `json:"signup_server_cpu_s,omitempty"`
	// PairMs is each player's time from its ticket posted to knowing its
	// game (at once, or "paired" on the lobby's socket).
	PairMs      quantiles         `json:"pair_ms"`
	Paired      int64             `json:"paired"`      // games made by pairing
	HalfPaired  int64             `json:"half_paired"` // games only one of whose players learnt of
	AtOnce      int64             `json:"at_once"`     // the most games being played at one time
	Finished    int64             `json:"finished"`    // played to their end
	Abandoned   int64             `json:"abandoned"`   // left unplayed: a WebSocket or the state could not be had
	Resigned    int64             `json:"resigned"`    // of the finished, resigned at --max-plies
	Aborted     int64             `json:"aborted"`     // ended aborted (a first move past its limit), so unrated and not counted as finished
	RatedOver   int64             `json:"rated_over"`  // of those, ended with "ratings" in the state
	Moves       int64             `json:"moves"`
	MovesPerS   float64           `json:"moves_per_s"` // over the play's window
	MoveMs      quantiles         `json:"move_ms"`     // from when a move was due to its answer
	MeanPlies   float64           `json:"mean_plies"`
	PlaySec     float64           `json:"play_s"` // from the first pairing to the last game's end
	Errors      map[string]int64  `json:"errors"`
	FirstErrors map[string]string `json:"first_errors,omitempty"`
	// What the checks found: games whose GET /api/games/{id}/players
	// shows both ratings after the game, players whose rating in the
	// speed counts one game, and (with --check-db) the rows of
	// rating_history for the games and of ratings for the players with
	// one game.
	CheckedGames   int64    `json:"checked_games"`
	CheckedPlayers int64    `json:"checked_players"`
	DBHistoryRows  *int64   `json:"db_rating_history_rows,omitempty"`
	DBRatingsRows  *int64   `json:"db_ratings_rows,omitempty"`
	ClientCPU      float64  `json:"client_cpu_s"` // over the play
	ServerPID      int      `json:"server_pid,omitempty"`
	ServerCPU      *float64 `json:"server_cpu_s,omitempty"` // over the play
	ServerRSS      *float64 `json:"server_rss_mib,omitempty"`
	LoadStart      string   `json:"loadavg"`      // at the start
	LoadPlay       string   `json:"loadavg_play"` // when the pairing began
	LoadEnd        string   `json:"loadavg_end"`
	Interrupted    bool     `json:"interrupted,omitempty"`
}

// runLoadgenRated is `oanquan loadgen rated`.
func runLoadgenRated(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen rated", flag.ContinueOnError)
	rawURL := fs.String("url", "http://127.0.0.1:8080", "the server, on this machine only")
	games := fs.Int("games", 1000, fmt.Sprintf("rated games, between 2× as many new accounts (at most %d)", maxRatedGames))
	perAddress := fs.Int("per-address", 3, "accounts made from each source address (the server allows 3 an hour an address)")
	from := fs.String("from", "127.2.0.0/16", "the source addresses, a prefix within 127.0.0.0/8 (Linux answers on all of them)")
	clock := fs.String("clock", "180+2", `the games' clock: "180+2" (seconds + increment) or "3d"`)
	rate := fs.Float64("rate", 200, "moves a second over all the games, each game at a steady pace (games/rate apart; keep it under the increment)")
	ramp := fs.Float64("ramp", 30, "seconds over which the players ask for pairing")
	signups := fs.Int("signups", 8, "sign-ups sent at once")
	maxPlies := fs.Int("max-plies", 60, "the side to move resigns a game that reaches this many moves (random games average about 35), so that a run ends in time")
	sockets := fs.Bool("sockets", true, "each player holds its game's WebSocket open, as the page does")
	pid := fs.Int("pid", 0, "the server's process id, for its CPU time and memory")
	checkDB := fs.String("check-db", "", "the server's PostgreSQL database (postgres://…, on this machine), to check the ratings there at the end")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 0:
		return usagef("loadgen rated: unexpected argument %q", fs.Arg(0))
	case *games < 1 || *games > maxRatedGames:
		return usagef("loadgen rated: --games %d: want 1 to %d", *games, maxRatedGames)
	case *perAddress < 1:
		return usagef("loadgen rated: --per-address %d: want at least 1", *perAddress)
	case !(*rate > 0 && *rate <= 1e5):
		return usagef("loadgen rated: --rate %v: want more than 0 and at most 100000", *rate)
	case !(*ramp >= 0 && *ramp <= maxWarmup):
		return usagef("loadgen rated: --ramp %v: want 0 to %d", *ramp, maxWarmup)
	case *signups < 1 || *signups > 256:
		return usagef("loadgen rated: --signups %d: want 1 to 256", *signups)
	case *maxPlies < 1:
		return usagef("loadgen rated: --max-plies %d: want at least 1", *maxPlies)
	case *pid < 0:
		return usagef("loadgen rated: --pid %d: want a process id", *pid)
	}
	base, err := loopbackURL(*rawURL)
	if err != nil {
		return usagef("loadgen rated: %v", err)
	}
	src, err := parseSources(*from)
	if err != nil {
		return usagef("loadgen rated: %v", err)
	}
	if _, err := src.addr((2**games+*perAddress-1) / *perAddress - 1); err != nil {
		return usagef("loadgen rated: %v", err)
	}
	c, err := parseClockFlag(*clock)
	if err != nil || c == nil || c == "none" {
		return usagef("loadgen rated: --clock %q: want \"180+2\" or \"3d\" (a rated game has a clock)", *clock)
	}
	if *checkDB != "" {
		if err := loopbackDB(*checkDB); err != nil {
			return usagef("loadgen rated: --check-db: %v", err)
		}
	}
	if *pid != 0 {
		if _, err := procCPU(*pid); err != nil {
			return usagef("loadgen rated: --pid %d: %v", *pid, err)
		}
	}
	cfg := ratedConfig{base: base, from: src, games: *games, perAddress: *perAddress, clock: c, clockText: *clock, rate: *rate,
		ramp: time.Duration(*ramp * float64(time.Second)), signups: *signups, maxPlies: *maxPlies, sockets: *sockets, pid: *pid, checkDB: *checkDB}
	ctx, cancel := context.WithTimeout(ctx, maxRatedSeconds*time.Second)
	defer cancel()
	res, err := newRatedRun(cfg).run(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "loadgen rated: %d accounts in %.0f s; %d games paired, %d at once, %d finished, %d rated; %d moves, p50 %.2f ms, p99 %.2f ms; %d errors; ratings checked: %d games, %d players; server CPU %s\n",
		res.Accounts, res.SignupSec, res.Paired, res.AtOnce, res.Finished, res.RatedOver, res.Moves, res.MoveMs.P50, res.MoveMs.P99,
		countAll(res.Errors), res.CheckedGames, res.CheckedPlayers, cpuText(res.ServerCPU))
	return json.NewEncoder(stdout).Encode(res)
}

// loopbackDB refuses a database URL whose host is not this machine's.
func loopbackDB(raw string) error {
	cfg, err := pgx.ParseConfig(raw)
	if err != nil {
		return fmt.Errorf("not a PostgreSQL URL")
	}
	if ip := net.ParseIP(cfg.Host); !strings.HasPrefix(cfg.Host, "/") && !strings.EqualFold(cfg.Host, "localhost") && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%s is not this machine", cfg.Host)
	}
	return nil
}

// ratedPlayer is one account and what became of it.
type ratedPlayer struct {
	name, password string
	client         *http.Client
	made           bool
	// Its game, once paired: id, seat and the seat's secret.
	game   string
	seat   int
	secret string
	posted time.Time
}

// ratedGame is a game being paired: its two players, by seat.
type ratedGame struct {
	id      string
	players [2]*ratedPlayer
}

// ratedRun is one rated run.
type ratedRun struct {
	cfg  ratedConfig
	errs *errorCounts

	players []*ratedPlayer

	mu       sync.Mutex
	pending  map[string]*ratedGame // games one of whose players knows of it
	finished []*ratedGame

	signup, pair, moves                    latencies
	paired, live, atOnce, ratedOver, plies atomic.Int64
	abandoned, resigned, aborted           atomic.Int64 // games left unfinished; games resigned at maxPlies
	playing                                sync.WaitGroup
	lastEnd                                atomic.Int64 // unix ns of the last game's end
}

func newRatedRun(cfg ratedConfig) *ratedRun {
	return &ratedRun{cfg: cfg, errs: newErrorCounts(), pending: map[string]*ratedGame{}}
}

// fail counts e unless the run is ending.
func (r *ratedRun) fail(ctx context.Context, e *loadError) {
	if ctx.Err() == nil {
		r.errs.add(e)
	}
}

// run makes the accounts, pairs the players, plays the games and checks
// the ratings.
func (r *ratedRun) run(ctx context.Context) (*ratedResult, error) {
	cfg := r.cfg
	res := &ratedResult{URL: cfg.base.String(), Games: cfg.games, Clock: cfg.clockText, Rate: cfg.rate, ServerPID: cfg.pid, LoadStart: loadAverage()}
	defer cfg.from.closeIdle()
	probe, err := cfg.from.client(0, false)
	if err != nil {
		return nil, err
	}
	var h healthAnswer
	if e := apiCall(ctx, probe, cfg.base, "GET", "/api/health", "", nil, &h); e != nil {
		return nil, fmt.Errorf("loadgen rated: no game server at %s: %s", cfg.base, e.detail)
	}

	// The accounts: names of this run's own (a random tag), so that runs
	// on one database do not collide.
	tag := strings.ToLower(base32.StdEncoding.EncodeToString(randomBytes(5)))[:6]
	n := 2 * cfg.games
	r.players = make([]*ratedPlayer, n)
	for i := range n {
		client, err := cfg.from.client(i/cfg.perAddress, true)
		if err != nil {
			return nil, err
		}
		r.players[i] = &ratedPlayer{name: fmt.Sprintf("lg%s-%d", tag, i), password: base32.StdEncoding.EncodeToString(randomBytes(10)), client: client}
	}
	res.Addresses = (n + cfg.perAddress - 1) / cfg.perAddress
	cpu := startCPU(cfg.pid)
	t0 := time.Now()
	work := make(chan *ratedPlayer)
	var wg sync.WaitGroup
	for range cfg.signups {
		wg.Go(func() {
			for p := range work {
				t := time.Now()
				e := apiCall(ctx, p.client, cfg.base, "POST", "/api/accounts", "", map[string]string{"username": p.name, "password": p.password}, nil)
				if e != nil {
					r.fail(ctx, e)
					continue
				}
				r.signup.record(time.Since(t))
				p.made = true
			}
		})
	}
	for _, p := range r.players {
		if ctx.Err() != nil {
			break
		}
		work <- p
	}
	close(work)
	wg.Wait()
	res.SignupSec, res.SignupMs, res.SignupCPU = time.Since(t0).Seconds(), r.signup.quantiles(), cpu.stop()
	res.Accounts = int(r.signup.count())

	// The pairing and the games.
	res.LoadPlay = loadAverage()
	cpu = startCPU(cfg.pid)
	var rss float64
	played, rssDone := make(chan struct{}), make(chan struct{})
	go func() { // the server's memory, sampled until the games are over
		defer close(rssDone)
		for cfg.pid != 0 {
			if m, err := procMemory(cfg.pid, "VmRSS"); err == nil {
				rss = max(rss, m)
			}
			select {
			case <-played:
				return
			case <-ctx.Done():
				return
			case <-time.After(rssEvery):
			}
		}
	}()
	t0 = time.Now()
	var pairing sync.WaitGroup
	for i, p := range r.players {
		if !p.made {
			continue
		}
		at := t0.Add(cfg.ramp * time.Duration(i) / time.Duration(n))
		pairing.Go(func() {
			if sleepUntil(ctx, at) {
				r.pairUp(ctx, p)
			}
		})
	}
	pairing.Wait()
	r.playing.Wait()
	close(played)
	<-rssDone
	res.PlaySec = time.Since(t0).Seconds()
	if end := r.lastEnd.Load(); end != 0 {
		res.PlaySec = time.Unix(0, end).Sub(t0).Seconds()
	}
	res.ServerCPU = cpu.stop()
	res.ClientCPU = cpu.Self
	if rss > 0 {
		res.ServerRSS = &rss
	}
	res.Interrupted = ctx.Err() != nil
	res.PairMs, res.Paired, res.AtOnce = r.pair.quantiles(), r.paired.Load(), r.atOnce.Load()
	r.mu.Lock()
	res.HalfPaired = int64(len(r.pending))
	r.mu.Unlock()
	res.Finished, res.RatedOver, res.Abandoned, res.Resigned, res.Aborted = int64(len(r.finished)), r.ratedOver.Load(), r.abandoned.Load(), r.resigned.Load(), r.aborted.Load()
	res.Moves, res.MoveMs = r.moves.count(), r.moves.quantiles()
	if res.PlaySec > 0 {
		res.MovesPerS = float64(res.Moves) / res.PlaySec
	}
	if res.Finished > 0 {
		res.MeanPlies = float64(r.plies.Load()) / float64(res.Finished)
	}

	// The checks, after the play: through the API, then in the database.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
	defer cancel()
	res.CheckedGames, res.CheckedPlayers = r.checkAPI(cctx)
	if cfg.checkDB != "" {
		h, rt, err := r.checkDB(cctx)
		if err != nil {
			r.errs.add(&loadError{"check_db", err.Error()})
		} else {
			res.DBHistoryRows, res.DBRatingsRows = &h, &rt
		}
	}
	res.Errors, res.FirstErrors = r.errs.snapshot()
	res.LoadEnd = loadAverage()
	return res, nil
}

// randomBytes returns n random bytes.
func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

// ticketAnswer is the part of POST /api/pairing's answer loadgen reads.
type ticketAnswer struct {
	ID     string `json:"id"`
	Secret string `json:"secret"`
	Game   *struct {
		ID string `json:"id"`
	} `json:"game"`
	Seat *int `json:"seat"`
}

// lobbyMessage is the part of a lobby socket's message loadgen reads.
type lobbyMessage struct {
	Type   string `json:"type"`
	Seek   string `json:"seek"`
	Game   string `json:"game"`
	Seat   int    `json:"seat"`
	Secret string `json:"secret"`
}

// pairUp asks for quick pairing for p, and waits on the lobby's socket
// until it is paired, as the page does.
func (r *ratedRun) pairUp(ctx context.Context, p *ratedPlayer) {
	p.posted = time.Now()
	var t ticketAnswer
	if e := apiCall(ctx, p.client, r.cfg.base, "POST", "/api/pairing", "", map[string]any{"clock": r.cfg.clock, "rated": true}, &t); e != nil {
		r.fail(ctx, e)
		return
	}
	if t.Game != nil && t.Seat != nil {
		r.joined(ctx, p, t.Game.ID, *t.Seat, t.Secret)
		return
	}
	c, err := dialWS(ctx, p.client, r.cfg.base, "/api/lobby/ws")
	if err != nil {
		r.fail(ctx, &loadError{"ws_dial", "lobby: " + err.Error()})
		return
	}
	defer c.CloseNow()
	wctx, cancel := context.WithTimeout(ctx, pairTimeout)
	defer cancel()
	hold, _ := json.Marshal(map[string]string{"type": "hold", "seek": t.ID, "secret": t.Secret})
	if err := c.Write(wctx, websocket.MessageText, hold); err != nil {
		r.fail(ctx, &loadError{"ws", "lobby hold: " + err.Error()})
		return
	}
	for {
		_, data, err := c.Read(wctx)
		if err != nil {
			r.fail(ctx, &loadError{"pair_timeout", fmt.Sprintf("ticket %s not paired: %v", t.ID, err)})
			return
		}
		var m lobbyMessage
		if json.Unmarshal(data, &m) != nil || m.Seek != t.ID {
			continue
		}
		switch m.Type {
		case "paired":
			c.Close(websocket.StatusNormalClosure, "")
			r.joined(ctx, p, m.Game, m.Seat, m.Secret)
			return
		case "gone", "error":
			r.fail(ctx, &loadError{"ticket_" + m.Type, string(data)})
			return
		}
	}
}

// joined notes that p knows its game; the second of a game's players to
// know starts its play.
func (r *ratedRun) joined(ctx context.Context, p *ratedPlayer, game string, seat int, secret string) {
	r.pair.record(time.Since(p.posted))
	if seat != 0 && seat != 1 {
		r.fail(ctx, &loadError{"bad_answer", fmt.Sprintf("game %s: seat %d", game, seat)})
		return
	}
	p.game, p.seat, p.secret = game, seat, secret
	r.mu.Lock()
	g := r.pending[game]
	if g == nil {
		g = &ratedGame{id: game}
		r.pending[game] = g
	}
	if g.players[seat] != nil {
		r.mu.Unlock()
		r.fail(ctx, &loadError{"bad_answer", fmt.Sprintf("game %s: seat %d given twice", game, seat)})
		return
	}
	g.players[seat] = p
	both := g.players[1-seat] != nil
	if both {
		delete(r.pending, game)
		r.playing.Add(1)
	}
	r.mu.Unlock()
	if both {
		r.paired.Add(1)
		go func() {
			defer r.playing.Done()
			r.play(ctx, g)
		}()
	}
}

// ratedState is the part of GameState a rated game's player reads.
type ratedState struct {
	ID      string          `json:"id"`
	Ply     int             `json:"ply"`
	ToMove  int             `json:"toMove"`
	Legal   []string        `json:"legal"`
	Over    bool            `json:"over"`
	Rated   bool            `json:"rated"`
	End     string          `json:"end"`
	Ratings json.RawMessage `json:"ratings"`
}

// play plays game g to its end, at its pace.
func (r *ratedRun) play(ctx context.Context, g *ratedGame) {
	for n := r.live.Add(1); ; {
		m := r.atOnce.Load()
		if n <= m || r.atOnce.CompareAndSwap(m, n) {
			break
		}
	}
	defer func() {
		r.live.Add(-1)
		r.lastEnd.Store(time.Now().UnixNano())
	}()
	rng := mrand.New(mrand.NewPCG(mrand.Uint64(), mrand.Uint64()))
	if r.cfg.sockets {
		for _, p := range g.players {
			c, err := dialWS(ctx, p.client, r.cfg.base, "/api/games/"+g.id+"/ws")
			if err != nil {
				r.fail(ctx, &loadError{"ws_dial", "game: " + err.Error()})
				r.abandoned.Add(1)
				return
			}
			hello, _ := json.Marshal(map[string]string{"type": "hello", "secret": p.secret})
			if err := c.Write(ctx, websocket.MessageText, hello); err != nil {
				r.fail(ctx, &loadError{"ws", "game hello: " + err.Error()})
			}
			go func() { // the page reads every message; loadgen drops them
				for {
					if _, _, err := c.Read(ctx); err != nil {
						return
					}
				}
			}()
			defer c.Close(websocket.StatusNormalClosure, "")
		}
	}
	var st ratedState
	if e := apiCall(ctx, g.players[0].client, r.cfg.base, "GET", "/api/games/"+g.id, "", nil, &st); e != nil {
		r.fail(ctx, e)
		r.abandoned.Add(1)
		return
	}
	if !st.Rated {
		r.fail(ctx, &loadError{"not_rated", "game " + g.id + " was made casual"})
	}
	pace := newPacer(r.cfg.games, r.cfg.rate, rng)
	for !st.Over {
		due, ok := pace.wait(ctx)
		if !ok {
			return
		}
		if st.ToMove != 0 && st.ToMove != 1 || len(st.Legal) == 0 {
			r.fail(ctx, &loadError{"bad_answer", fmt.Sprintf("game %s at ply %d: to move %d, %d legal moves", g.id, st.Ply, st.ToMove, len(st.Legal))})
			return
		}
		p := g.players[st.ToMove]
		if st.Ply >= r.cfg.maxPlies { // a game this long is resigned
			if e := apiCall(ctx, p.client, r.cfg.base, "POST", "/api/games/"+g.id+"/resign", p.secret, nil, &st); e != nil {
				r.fail(ctx, e)
				return
			}
			r.resigned.Add(1)
			break
		}
		var turn struct {
			State ratedState `json:"state"`
		}
		body := map[string]any{"move": st.Legal[rng.IntN(len(st.Legal))], "ply": st.Ply}
		var e *loadError
		for try := 1; ; try++ {
			// A move sent again for its ply is answered with its turn, as
			// the page's resend counts on.
			if e = apiCall(ctx, p.client, r.cfg.base, "POST", "/api/games/"+g.id+"/moves", p.secret, body, &turn); e == nil {
				break
			}
			r.fail(ctx, e) // each failure counts, even if the move is played at the next try
			if !retryable(e) || try == moveTries || !sleepUntil(ctx, time.Now().Add(time.Second)) {
				break
			}
		}
		if e != nil {
			// Refused (409 time_over, conflict…) or not answered: go on
			// from the game as it stands, as the page does.
			if re := apiCall(ctx, p.client, r.cfg.base, "GET", "/api/games/"+g.id, "", nil, &st); re != nil {
				r.fail(ctx, re)
				r.abandoned.Add(1)
				return
			}
			continue
		}
		r.moves.record(time.Since(due))
		st = turn.State
	}
	if st.End == "abort" { // a first move too late (a server too slow): unrated, as it should be
		r.aborted.Add(1)
		return
	}
	r.plies.Add(int64(st.Ply))
	if len(st.Ratings) > 0 && string(st.Ratings) != "null" {
		r.ratedOver.Add(1)
	}
	r.mu.Lock()
	r.finished = append(r.finished, g)
	r.mu.Unlock()
}

// retryable reports whether a request that failed so may be sent again.
func retryable(e *loadError) bool { return e.kind == "transport" || strings.HasPrefix(e.kind, "5") }

// checkAPI asks the server, for every game played to its end, for its
// players' ratings before and after it, and for each of its players the
// rating of the game's speed: it returns the games whose two players'
// ratings show the game, and the players whose rating counts one game.
func (r *ratedRun) checkAPI(ctx context.Context) (games, players int64) {
	r.mu.Lock()
	finished := append([]*ratedGame(nil), r.finished...)
	r.mu.Unlock()
	var wg sync.WaitGroup
	next := atomic.Int64{}
	var ng, np atomic.Int64
	for range checksAtOnce {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(finished)) && ctx.Err() == nil; i = next.Add(1) - 1 {
				g := finished[i]
				var gp struct {
					Rated   string `json:"rated"`
					Players []struct {
						Username *string         `json:"username"`
						After    json.RawMessage `json:"after"`
					} `json:"players"`
				}
				if e := apiCall(ctx, g.players[0].client, r.cfg.base, "GET", "/api/games/"+g.id+"/players", "", nil, &gp); e != nil {
					r.errs.add(e)
					continue
				}
				ok := gp.Rated != "" && len(gp.Players) == 2
				for seat, sp := range gp.Players {
					ok = ok && sp.Username != nil && *sp.Username == g.players[seat].name && len(sp.After) > 0 && string(sp.After) != "null"
				}
				if !ok {
					r.errs.add(&loadError{"ratings_not_updated", fmt.Sprintf("game %s: players %+v", g.id, gp)})
				} else {
					ng.Add(1)
				}
				for _, p := range g.players {
					var pl struct {
						Ratings map[string]struct {
							Games int `json:"games"`
						} `json:"ratings"`
					}
					if e := apiCall(ctx, p.client, r.cfg.base, "GET", "/api/players/"+p.name, "", nil, &pl); e != nil {
						r.errs.add(e)
						continue
					}
					if rt, ok := pl.Ratings[gp.Rated]; ok && rt.Games == 1 {
						np.Add(1)
					} else {
						r.errs.add(&loadError{"rating_not_counted", fmt.Sprintf("player %s: ratings %+v, want one %q game", p.name, pl.Ratings, gp.Rated)})
					}
				}
			}
		})
	}
	wg.Wait()
	return ng.Load(), np.Load()
}

// checkDB counts, in the server's PostgreSQL database, the rows of
// rating_history for the games played to their end (two each) and the
// rows of ratings of their players that count one game.
func (r *ratedRun) checkDB(ctx context.Context) (history, ratings int64, err error) {
	conn, err := pgx.Connect(ctx, r.cfg.checkDB)
	if err != nil {
		return 0, 0, fmt.Errorf("connecting to --check-db: %v", err)
	}
	defer conn.Close(context.Background())
	r.mu.Lock()
	var ids, names []string
	for _, g := range r.finished {
		ids = append(ids, g.id)
		for _, p := range g.players {
			names = append(names, p.name)
		}
	}
	r.mu.Unlock()
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM rating_history WHERE game = ANY($1)`, ids).Scan(&history); err != nil {
		return 0, 0, fmt.Errorf("counting rating_history: %v", err)
	}
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM ratings r JOIN accounts a ON a.id = r.account
		WHERE a.username = ANY($1) AND r.games = 1 AND r.rd < 350`, names).Scan(&ratings); err != nil {
		return 0, 0, fmt.Errorf("counting ratings: %v", err)
	}
	return history, ratings, nil
}
