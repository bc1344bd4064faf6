package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"oanquan/internal/server"
)

// defaultAddr is where the game is served without --addr: this machine
// only.
const defaultAddr = "localhost:8080"

// shutdownTimeout bounds the wait for requests in flight at shutdown.
const shutdownTimeout = 5 * time.Second

// runServe serves the browser game until ctx is done (SIGINT, SIGTERM).
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("oanquan", flag.ContinueOnError)
	addr := fs.String("addr", defaultAddr, "HOST:PORT to serve on")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q: run `oanquan help` for the commands", fs.Arg(0))
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	h := server.New(server.Config{Log: log})
	srv := newHTTPServer(h, log)
	fmt.Fprintf(stdout, "Ô Ăn Quan: playing at %s (Ctrl-C to stop)\n", pageURL(ln.Addr()))
	return serveUntil(ctx, srv, ln, h)
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
