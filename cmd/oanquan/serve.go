package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"oanquan/internal/server"
	"oanquan/internal/store"
)

// defaultAddr is where the game is served without --addr: this machine
// only.
const defaultAddr = "localhost:8080"

// maxOfflinePebbles is the largest table --endgames-offline may give the
// page: 10 pebbles is 10.3 MB (5.5 MB gzipped); 12 would be 43 MB, downloaded
// by phones and held twice in their memory (the worker's copy and the
// engine's).
const maxOfflinePebbles = 10

// shutdownTimeout bounds the wait for requests in flight at shutdown.
const shutdownTimeout = 5 * time.Second

// runServe serves the browser game until ctx is done (SIGINT, SIGTERM).
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("oanquan", flag.ContinueOnError)
	addr := fs.String("addr", defaultAddr, "HOST:PORT to serve on")
	db := fs.String("db", "", "where games are kept: a SQLite file path, memory (nothing kept), or a postgres:// URL (several servers); default: oanquan.db in $XDG_DATA_HOME/oanquan or ~/.local/share/oanquan")
	workers := fs.Int("workers", 0, "searches (the computer's moves, hints) run at once, one core each; 0: one per core")
	moveTime := fs.Duration("move-time", server.DefaultMoveTime, "the computer's time per move at Hard")
	maxLive := fs.Int("max-live", server.DefaultMaxLive, "games held in memory at once; the least recently used beyond are closed (they stay saved)")
	idle := fs.Duration("idle", server.DefaultIdleTimeout, "how long a game nobody plays or watches stays in memory")
	creates := fs.Float64("new-games-per-minute", server.DefaultLimits.Creates.PerMinute, "new games a client address may make a minute, on average (0: no limit)")
	createBurst := fs.Int("new-games-burst", server.DefaultLimits.Creates.Burst, "new games a client address may make at once")
	hints := fs.Float64("hints-per-minute", server.DefaultLimits.Hints.PerMinute, "hints a client address may ask for a minute, on average (0: no limit)")
	hintBurst := fs.Int("hints-burst", server.DefaultLimits.Hints.Burst, "hints a client address may ask for at once")
	reviews := fs.Float64("reviews-per-minute", server.DefaultLimits.Reviews.PerMinute, "positions of game reviews a client address may ask for a minute, on average (0: no limit)")
	reviewBurst := fs.Int("reviews-burst", server.DefaultLimits.Reviews.Burst, "positions of game reviews a client address may ask for at once")
	unknown := fs.Float64("unknown-games-per-minute", server.DefaultLimits.Unknown.PerMinute, "requests for games that do not exist a client address may make a minute, on average, before all its requests naming a game are refused (0: no limit)")
	unknownBurst := fs.Int("unknown-games-burst", server.DefaultLimits.Unknown.Burst, "requests for games that do not exist a client address may make at once")
	sockets := fs.Int("sockets-per-address", server.DefaultLimits.Sockets, "WebSockets a client address may have open at once (0: no limit)")
	maxSockets := fs.Int("max-sockets", server.DefaultMaxSockets, "WebSockets open at once in all; lowered to three quarters of the limit of open files")
	keepInvitations := fs.Duration("keep-invitations", server.DefaultRetention.Invitations, "how long an online game whose free seat nobody took, with no move, is kept (0: for ever)")
	keepUnfinished := fs.Duration("keep-unfinished", server.DefaultRetention.Unfinished, "how long a game not over is kept after its last change (0: for ever)")
	keepFinished := fs.Duration("keep-finished", server.DefaultRetention.Finished, "how long a game over is kept after it ended (0: for ever)")
	metricsAddr := fs.String("metrics-addr", "", "HOST:PORT to serve Prometheus metrics on, at /metrics (keep it private); default: none")
	behindTLS := fs.Bool("behind-tls", false, "the server is reached over HTTPS through a proxy that terminates TLS: session cookies are Secure")
	ipHeader := fs.String("client-ip-header", "", "behind a proxy: the header holding the client's address (X-Forwarded-For, X-Real-IP); never set it without one")
	tables := fs.String("endgames", "", "`DIR` of endgame tables (made by oanquan endgames build) for Hard, hints and reviews; the page's small table for offline play is built there if absent; none: no tables; default: the data directory ($XDG_DATA_HOME/oanquan or ~/.local/share/oanquan) when --db is the default SQLite file there, else none")
	offlineN := fs.Int("endgames-offline", server.OfflinePebbles, "pebbles of the small endgame table the page keeps for offline play, built in the --endgames directory in the background if absent; 0: none; at most 10")
	verbose := fs.Bool("verbose", false, "log every game change, not only requests that failed and games made")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q: run `oanquan help` for the commands", fs.Arg(0))
	}
	switch {
	case *workers < 0:
		return usagef("--workers %d: want 0 (one per core) or more", *workers)
	case *moveTime <= 0:
		return usagef("--move-time %v: want a positive duration such as 300ms", *moveTime)
	case *maxLive < 1:
		return usagef("--max-live %d: want 1 or more", *maxLive)
	case *creates < 0 || *hints < 0 || *reviews < 0 || *unknown < 0:
		return usagef("--new-games-per-minute, --hints-per-minute, --reviews-per-minute and --unknown-games-per-minute: want 0 (no limit) or more")
	case *keepInvitations < 0 || *keepUnfinished < 0 || *keepFinished < 0:
		return usagef("--keep-invitations, --keep-unfinished and --keep-finished: want 0 (for ever) or a duration such as 720h")
	case *sockets < 0 || *maxSockets < 1:
		return usagef("--sockets-per-address %d, --max-sockets %d: want 0 (no limit) or more, and 1 or more", *sockets, *maxSockets)
	case *offlineN < 0 || *offlineN > maxOfflinePebbles:
		return usagef("--endgames-offline %d: want 0 (none) to %d (larger tables are too large for a phone)", *offlineN, maxOfflinePebbles)
	case *createBurst < 1 || *hintBurst < 1 || *reviewBurst < 1 || *unknownBurst < 1:
		return usagef("--new-games-burst, --hints-burst, --reviews-burst and --unknown-games-burst: want 1 or more")
	}
	if os.Getenv("GOMAXPROCS") == "" {
		// One scheduler processor more than the search workers, so that
		// requests are served while every worker searches (match.NewPool).
		runtime.GOMAXPROCS(runtime.NumCPU() + 1)
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	st, where, err := store.Open(ctx, *db, log)
	if err != nil {
		return usagef("%v", err)
	}
	defer st.Close()
	full, ok := server.AsStore(st) // every store of package store is one
	if !ok {
		return fmt.Errorf("the store %s lacks a feature the server needs", where)
	}
	egDir, err := endgamesDir(fs, *tables, *db) // after the store, which makes the data directory
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	if *idle <= 0 {
		*idle = -1 // for ever
	}
	perMinute := func(v float64) float64 {
		if v == 0 {
			return math.Inf(1) // no limit
		}
		return v
	}
	forEver := func(d time.Duration) time.Duration {
		if d == 0 {
			return -1 // for ever
		}
		return d
	}
	socketCap := capSockets(*maxSockets, raiseFileLimit(), log)
	h := server.New(server.Config{
		Store:       full,
		Workers:     *workers,
		MoveTime:    *moveTime,
		MaxLive:     *maxLive,
		IdleTimeout: *idle,
		MaxSockets:  socketCap,
		Retention: server.Retention{
			Invitations: forEver(*keepInvitations),
			Unfinished:  forEver(*keepUnfinished),
			Finished:    forEver(*keepFinished),
		},
		Limits: server.Limits{
			Creates:        server.Rate{PerMinute: perMinute(*creates), Burst: *createBurst},
			Hints:          server.Rate{PerMinute: perMinute(*hints), Burst: *hintBurst},
			Reviews:        server.Rate{PerMinute: perMinute(*reviews), Burst: *reviewBurst},
			Unknown:        server.Rate{PerMinute: perMinute(*unknown), Burst: *unknownBurst},
			Sockets:        *sockets,
			ClientIPHeader: *ipHeader,
		},
		ID:       serverID(ln.Addr()),
		Log:      log,
		Endgames: server.Endgames{Dir: egDir, Offline: cmp.Or(*offlineN, -1)},
		Accounts: server.Accounts{BehindTLS: *behindTLS},
	})
	srv := newHTTPServer(h, log)
	if *metricsAddr != "" {
		stop, err := serveMetrics(*metricsAddr, h, log, stdout)
		if err != nil {
			h.Close()
			ln.Close()
			return err
		}
		defer stop()
	}
	fmt.Fprintf(stdout, "Ô Ăn Quan: games kept in %s\n", where)
	fmt.Fprintf(stdout, "Ô Ăn Quan: playing at %s (Ctrl-C to stop)\n", pageURL(ln.Addr()))
	return serveUntil(ctx, srv, ln, h)
}

// endgamesDir returns the directory of endgame tables serve uses. With
// --endgames not given, it is the data directory only when the games go
// to the default SQLite file (--db not given, or given as that file),
// which is in it; a server given --db elsewhere (memory, another file,
// PostgreSQL) uses no tables and leaves the user's home alone. "none" or
// "": no tables; else the directory given, which must exist.
func endgamesDir(fs *flag.FlagSet, dir, db string) (string, error) {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "endgames" })
	switch {
	case !given:
		def, err := store.DefaultPath()
		if err != nil || !sameFile(db, def) {
			return "", nil
		}
		if fi, err := os.Stat(filepath.Dir(def)); err != nil || !fi.IsDir() {
			return "", nil
		}
		return filepath.Dir(def), nil
	case dir == "" || dir == "none":
		return "", nil
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", usagef("--endgames %s: not a directory (want the directory of the tables, or none)", dir)
	}
	return dir, nil
}

// sameFile reports whether the --db value db names the SQLite file def:
// "" (the default), or a path to it.
func sameFile(db, def string) bool {
	if db == "" {
		return true
	}
	a, err := filepath.Abs(db)
	return err == nil && a == filepath.Clean(def)
}

// capSockets returns the cap on WebSockets open at once: want, lowered to
// three quarters of files, the limit of open files (0: unknown), so that
// the requests, the store and the listener always have descriptors left
// (a server out of them can accept nothing, not even a health check).
func capSockets(want int, files uint64, log *slog.Logger) int {
	if files == 0 || uint64(want) <= files/4*3 {
		return want
	}
	capped := int(files / 4 * 3)
	log.Warn("fewer WebSockets than --max-sockets: the limit of open files is low", "max_sockets", capped, "open_files", files)
	return max(capped, 1)
}

// serveMetrics serves h's metrics at /metrics on addr, on a server of
// their own (the monitoring reaches it; the public must not), until stop
// is called.
func serveMetrics(addr string, h *server.Server, log *slog.Logger, stdout io.Writer) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h.MetricsHandler())
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		WriteTimeout:      30 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	go srv.Serve(ln)
	fmt.Fprintf(stdout, "Ô Ăn Quan: metrics at http://%s/metrics\n", ln.Addr())
	return func() { srv.Close() }, nil
}

// serverID names this server to the others sharing its store: the host's
// name and the address it listens on. The same server started again has
// the same name, so it takes up at once the games against the computer
// it held (their leases are its own), instead of waiting for the leases
// to run out.
func serverID(a net.Addr) string {
	host, err := os.Hostname()
	if err != nil {
		host = "localhost"
	}
	return host + " " + a.String()
}

// newHTTPServer wraps h with the timeouts and limits of a server facing
// browsers. The read and write timeouts are for requests; the game
// server clears them on a connection that becomes a WebSocket.
func newHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// serveUntil serves on ln until ctx is done, then lets the requests in
// flight finish and closes the game server (its searches and
// WebSockets).
func serveUntil(ctx context.Context, srv *http.Server, ln net.Listener, h *server.Server) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		h.Close()
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	h.Close()
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}

// pageURL is the address to open in a browser: a listener on every
// interface is reached at localhost.
func pageURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String() + "/"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}
