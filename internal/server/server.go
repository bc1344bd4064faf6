// Package server puts Ô Ăn Quan on the web: an http.Handler that serves
// the embedded page and the JSON API and WebSocket of docs/API.md, with
// live games from package match and saved ones in a store.Store.
//
//	srv := server.New(server.Config{})
//	defer srv.Close()
//	http.ListenAndServe("localhost:8080", srv)
//
// Every answer carries security headers (a Content-Security-Policy that
// allows only the page's own origin, nosniff, no framing); API answers
// are never cached, static files are revalidated by ETag. Request bodies
// are limited to 64 KiB, and cross-origin browser requests that change
// state are refused (http.CrossOriginProtection).
//
// The operations of the API are package api's, which the engine in the
// browser serves too: the server is their transport (routes from
// api.Routes, bodies, rate limits, the error answers) and their host
// (live games, the store, the seats' secrets, presence and leases).
//
// # Domains
//
// The server is the assembly of the back end's domains, each a package
// below it made with the narrow store it needs (an interface of the
// store's methods that every store has, checked by the compiler), as
// lila's modules: package lobby (seeks, quick pairing, the lobby's
// socket, the one place a pairing becomes a game), package players
// (blocks, reports, leaderboards), package accounts (sign-up, sign-in,
// sessions and their cookies, profiles, the ratings a rated game's end
// applies), package limits (rate limits, the WebSocket caps), package
// socket (the one WebSocket client, a small handler per kind), package
// ids, and package ops, the operators' side (retention, the store's
// health probe, the metrics). Still here, to be split out next as a
// game package: live games, seats, presence, the clocks' timekeeper,
// the game's socket handler (gameSocket), and what accounts and ops
// borrow of them (resigning a deleted account's rated games, the
// results of old games, which games are live: functions the server
// lends them). New domains go beside
// them: tournaments (an arena's pairings) pair through
// lobby.Lobby.PairedGame; puzzles beside players, with a store of their
// own; notifications as a package the lobby's and the game's sockets
// tell, served as one more kind over package socket. The server's own
// Store is the full set (Config.Store), so that wrapping a store cannot
// switch a feature off; only the notices between servers, the presence
// board and the write probe are optional.
//
// # Locks
//
// Every lock is taken with defer, in a method that does nothing else
// under it (the side effects after). When several are held at once they
// are taken in this order, never the other way round:
//
//  1. Server.mu: the live games and the LRU list. Held to make a game
//     live (which sets its presence, steps 2–4) or to choose one to
//     evict (asking its match whether it is idle); never across a store
//     call or other I/O.
//  2. liveGame.presenceMu: one presence update of a game at a time.
//  3. the match's own lock (match.Match, whose doc says what it guards):
//     its Commit (the store) and Sync's load run under it.
//  4. liveGame.mu: the game's seats, WebSockets and the other servers'
//     presence; taken under the match's lock by Sync's load (a seat
//     given elsewhere), never held while calling the match.
//
// The others are leaves, nothing taken under them, each held in a method
// of its own that does nothing else: presenceSync.mu (the queue of
// presence posts and reads), the rate limiter's, the WebSocket counts'
// (limits.Sockets), the review cache's, the lobby's (package lobby:
// Lobby.mu, its sockets, their holds and the seeks being read for a
// notice; sock.listMu, a lobby socket's next list) and players' (its
// leaderboards as last read). ops.Probe's lock is held across the
// store's health probe, and only by health checks.
//
// The WebSocket client itself (package socket) has no lock, nor do the
// accounts (package accounts: the hasher bounds its own work).
package server

import (
	"container/list"
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"oanquan/internal/accounts"
	"oanquan/internal/api"
	"oanquan/internal/limits"
	"oanquan/internal/lobby"
	"oanquan/internal/match"
	"oanquan/internal/ops"
	"oanquan/internal/players"
	"oanquan/internal/store"
	"oanquan/internal/store/memory"
	"oanquan/web"
)

// Config is what a Server is made with. The zero Config serves the
// embedded page, keeps games in memory and plays with package ai.
type Config struct {
	Store  Store        // saved games; nil: in memory. The server does not close it.
	Assets fs.FS        // the static files; nil: web.FS()
	Engine match.Engine // the computer player; nil: package ai
	// Workers is how many searches (the computer's moves, hints) run at
	// once, each on one core; 0: one per core.
	Workers int
	// MoveTime is the computer's time per move; 0: DefaultMoveTime, and
	// negative: each level's own default. HintTime bounds a hints
	// request; 0: match.DefaultHintTime.
	MoveTime, HintTime time.Duration
	// ReviewTime is the search time per position of a game review; 0:
	// ai.ReviewMoveTime.
	ReviewTime time.Duration
	// IdleTimeout is how long a live game nobody watches or plays stays
	// in memory; it stays in the store. 0: DefaultIdleTimeout; negative:
	// for ever.
	IdleTimeout time.Duration
	// MaxLive is how many games may be live in memory at once; beyond
	// it the least recently used are closed (they stay saved). 0:
	// DefaultMaxLive.
	MaxLive int
	// Limits are the per-client rate limits; the zero value is
	// DefaultLimits.
	Limits Limits
	// Retention is how long saved games are kept; the zero value is
	// DefaultRetention.
	Retention Retention
	// MaxSockets is how many WebSockets may be open at once, from all
	// clients; beyond it the next is refused (503) before the upgrade.
	// Keep it below the process's limit of open files, with room for
	// the requests and the store. 0: DefaultMaxSockets.
	MaxSockets int
	// ID names this server to the others sharing its store (for the
	// leases on games against the computer, and its posts of who is
	// connected to it): each server its own, and the same one again
	// when it restarts, so that it takes up its leases at once and
	// takes down the posts of its previous run; "": a random name.
	ID  string
	Log *slog.Logger // the server's own faults and events; nil: discarded
	// Endgames are the endgame tables the server's searches read and the
	// one it serves to the page for offline play; the zero value: none.
	Endgames Endgames
	// Clocks is how clocked games are timed (clock.go); the zero value
	// is the defaults.
	Clocks Clocks
	// Accounts are how players' accounts are kept (package accounts); the
	// zero value: the defaults, cookies Secure only over TLS.
	Accounts Accounts
}

// The defaults of Config.
const (
	DefaultIdleTimeout = time.Hour
	DefaultMaxLive     = 5000
	// DefaultMoveTime is the computer's time per move at Hard (Easy and
	// Medium search a few plies and take far less): docs/SERVER.md says
	// how it was chosen (Hard at 300 ms plays as well as at 1 s).
	DefaultMoveTime = 300 * time.Millisecond
)

// leaseTTL is how long a server holds a game against the computer before
// another may play the computer's moves in it.
const leaseTTL = 30 * time.Second

// Server is the game server, an http.Handler. Create one with New and
// Close it when done. It is safe for concurrent use.
type Server struct {
	cfg    Config
	store  Store
	log    *slog.Logger
	pool   *match.Pool
	limits *limits.Limiter
	// socketCaps counts the WebSockets open, by client and in all.
	socketCaps *limits.Sockets
	metrics    *ops.Metrics // its Prometheus metrics (package ops)
	handler    http.Handler
	assets     map[string]*asset // static files by path ("/js/app.js")
	ctx        context.Context   // canceled by Close: WebSockets end
	stop       context.CancelFunc
	sockets    sync.WaitGroup // the WebSocket handlers, which Close waits for
	bg         sync.WaitGroup // the server's own goroutines
	// wsPing and wsWrite are wsPingInterval and wsWriteTimeout; tests
	// shorten them.
	wsPing, wsWrite time.Duration
	// phraseGap is phraseGap; tests shorten it.
	phraseGap time.Duration
	// presence shares the presence of online games with the other
	// servers; nil if the store has no board.
	presence *presenceSync
	reviews  *reviewCache // the moves reviewed lately
	probe    *ops.Probe   // the store's health, probed now and then (package ops)
	// endgames are the endgame tables (endgames.go).
	endgames *endgameTables
	// players keeps blocks, reports and the leaderboards (package
	// players).
	players *players.Players
	started time.Time // when New ran: clocks charge no time before it
	// accounts keeps players' accounts, sessions, profiles and ratings
	// (package accounts).
	accounts *accounts.Accounts
	// lobby is the lobby: seeks, quick pairing, its WebSockets (package
	// lobby).
	lobby *lobby.Lobby

	mu     sync.Mutex
	live   map[string]*liveGame
	lru    *list.List // of *liveGame, the most recently used first
	closed bool
}

// New returns a server for cfg. It starts the computer thinking in the
// saved games that wait for its move.
func New(cfg Config) *Server {
	s := &Server{
		cfg:   cfg,
		store: cfg.Store,
		log:   cfg.Log,
		live:  make(map[string]*liveGame),
		lru:   list.New(),

		reviews:   newReviewCache(reviewCacheSize),
		wsPing:    wsPingInterval,
		wsWrite:   wsWriteTimeout,
		phraseGap: phraseGap,
		probe:     ops.NewProbe(unavailable),
		started:   time.Now(),
	}
	if s.store == nil {
		s.store = memory.New()
	}
	embedded := s.cfg.Assets == nil
	if embedded {
		s.cfg.Assets = web.FS()
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.cfg.MaxLive <= 0 {
		s.cfg.MaxLive = DefaultMaxLive
	}
	switch {
	case s.cfg.MoveTime == 0:
		s.cfg.MoveTime = DefaultMoveTime
	case s.cfg.MoveTime < 0:
		s.cfg.MoveTime = 0
	}
	if s.cfg.ID == "" {
		s.cfg.ID = newID()
	}
	s.limits = limits.New(s.cfg.Limits.OrDefault(), s.store)
	if s.cfg.MaxSockets <= 0 {
		s.cfg.MaxSockets = DefaultMaxSockets
	}
	s.socketCaps = limits.NewSockets(s.limits.Config().Sockets, s.cfg.MaxSockets)
	s.presence = newPresenceSync(s.store)
	s.endgames = openEndgames(s.cfg.Endgames, s.log)
	s.pool = match.NewPool(s.cfg.Workers, s.endgames.engine(s.cfg.Engine))
	s.metrics = newMetrics(s)
	s.ctx, s.stop = context.WithCancel(context.Background())
	s.lobby = lobby.New(lobby.Config{Store: s.store, Games: lobbyGames{s}, Limits: s.limits, Log: s.log, Context: s.ctx})
	s.players = players.New(s.store, s.log, s.lobby.Changed)
	s.accounts = s.newAccounts()
	if embedded {
		s.assets = embeddedAssets()
	} else {
		s.assets = loadAssets(s.cfg.Assets)
	}
	s.handler = s.routes()
	if s.cfg.IdleTimeout == 0 {
		s.cfg.IdleTimeout = DefaultIdleTimeout
	}
	if s.cfg.IdleTimeout > 0 {
		s.goBackground(func() { s.janitor(s.cfg.IdleTimeout) })
	}
	s.goBackground(s.resumeLoop)
	s.goBackground(func() { s.endgames.prepareOffline(s.ctx) })
	s.goBackground(s.retentionLoop)
	s.goBackground(s.sessionsLoop)
	s.goBackground(s.sweepLoop)
	s.goBackground(s.lobby.Run)
	if n, ok := s.store.(store.Notifier); ok {
		// Listening before New returns: no change made after it is missed.
		notices := n.Changes(s.ctx)
		s.goBackground(func() { s.follow(notices) })
	}
	if s.presence != nil {
		s.goBackground(s.presenceLoop)
	}
	return s
}

// goBackground runs f in a goroutine that Close waits for.
func (s *Server) goBackground(f func()) {
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		f()
	}()
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// Close stops every computer search and ends every WebSocket, telling
// its client that the server is going away, and waits for them; it gives
// up its leases on the games waiting for the computer, so that another
// server sharing the store takes them up at once, and takes down its
// posts of who is connected to it. Requests after Close about a game
// answer 503. Close is idempotent. It does not close the store.
func (s *Server) Close() {
	live := s.closeLive()
	s.stop()
	var waiting []string
	for id, g := range live {
		g.m.Close()
		if st := g.m.State(); st.ComputerToMove() {
			waiting = append(waiting, id)
		}
	}
	s.sockets.Wait()
	s.bg.Wait()
	s.pool.Close()
	s.endgames.close()
	s.releaseLeases(waiting)
	s.closePresence()
}

// closeLive marks the server closed and takes out every live game.
func (s *Server) closeLive() map[string]*liveGame {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	live := s.live
	s.live = make(map[string]*liveGame)
	s.lru.Init()
	return live
}

// releaseTimeout bounds the giving up of leases at Close.
const releaseTimeout = 2 * time.Second

// releaseLeases gives up this server's leases on the games ids.
func (s *Server) releaseLeases(ids []string) {
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	for _, id := range ids {
		if err := s.store.Release(ctx, id, s.cfg.ID); err != nil {
			s.log.Warn("giving up a game's lease", "id", id, "err", err)
			return // the others will run out by themselves
		}
	}
}

// routes builds the handler: the API (package api's table of routes),
// the WebSocket and the static files, behind the security headers and
// the cross-origin check.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	own := map[string]func(http.ResponseWriter, *http.Request) error{
		"ws":      s.websocket,
		"health":  s.health,
		"ready":   s.health,
		"live":    s.liveness,
		"qr":      s.qrCode,
		"lobby":   s.lobbySocket,
		"records": s.playerRecords,
	}
	for _, rt := range api.Routes {
		h := own[rt.Name]
		if rt.Op != nil {
			h = s.serve(rt.Op)
		}
		if h == nil {
			panic("server: no handler for the route " + rt.Name)
		}
		s.handle(mux, rt, h)
	}
	mux.Handle("/api/", s.instrument("unknown", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, api.NoSuchAPI(r.Method, r.URL.Path))
	})))
	for _, pattern := range pageRoutes {
		mux.Handle(pattern, s.instrument("page", s.page()))
	}
	mux.Handle("/", s.instrument("static", s.static()))

	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, api.Fail(api.ErrForbidden, "cross-origin %s requests are refused", api.Short(r.Method)))
	}))
	return securityHeaders(cop.Handler(mux))
}

// pageRoutes are the addresses, beside "/", at which the server answers
// the page itself (assets.go, page): a player's profile and the
// leaderboards. Other methods on them are refused as on any static file.
var pageRoutes = []string{"GET /@/{name}", "GET /leaderboard", "GET /leaderboard/{speed}"}

// handle serves method on pattern with h, whose error is the answer.
// Any other method on the pattern's first route is answered with a JSON
// 405 (the mux would answer in plain text).
func (s *Server) handle(mux *http.ServeMux, rt api.Route, h func(http.ResponseWriter, *http.Request) error) {
	mux.Handle(rt.Method+" "+rt.Pattern, s.instrument(rt.Name, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})))
	if allowed := api.Allowed(rt.Pattern); allowed[0] == rt.Method {
		mux.Handle(rt.Pattern, s.instrument(rt.Name, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			s.writeError(w, r, api.NotAllowed(r.Method, allowed))
		})))
	}
}

// contentSecurityPolicy allows the page to load only from its own
// origin. Images may also be data: URLs (the page's empty favicon). The
// page must therefore have no inline scripts, inline style attributes or
// style elements; setting element.style from a script is fine. Scripts
// may compile WebAssembly ('wasm-unsafe-eval', not 'unsafe-eval'): the
// engine in the browser (docs/OFFLINE.md). Its worker, the service
// worker and the manifest come from the page's origin, which default-src
// allows. A <base> may point only within the origin: the page served at
// /@/{name} and /leaderboard/{speed} may say <base href="/"> so that its
// relative references load from the root.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; object-src 'none'; " +
	"base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// securityHeaders sets the headers every answer carries.
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", contentSecurityPolicy)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Cross-Origin-Opener-Policy", "same-origin")
		hd.Set("Cross-Origin-Resource-Policy", "same-origin")
		if strings.HasPrefix(r.URL.Path, "/api/") {
			hd.Set("Cache-Control", "no-store")
		}
		h.ServeHTTP(w, r)
	})
}
