package e2e

import (
	"context"
	"math/rand/v2"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oanquan/internal/server"
	"oanquan/internal/store"
)

// TestServerRestart: a game against the computer on a server that keeps
// games in a SQLite file. The server stops and starts again on the same
// file and address in the middle of the game: the page goes on without
// reloading (it reconnects, and its seat's secret, kept in the browser,
// still acts for the game), and after a reload it is back in the same
// game with every move.
func TestServerRestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	serve := func(ln net.Listener) (stop func()) {
		st, err := store.OpenSQLite(context.Background(), db, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := server.New(server.Config{Store: st})
		hs := &http.Server{Handler: s}
		go hs.Serve(ln)
		return func() {
			hs.Close()
			s.Close()
			st.Close()
		}
	}
	stop := serve(ln)
	t.Setenv("E2E_URL", "http://"+addr)
	p := newPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.wait(ready, 20*time.Second)
	rng := rand.New(rand.NewPCG(7, 8))
	playByKeyboard(p, rng)
	p.wait(ready, 20*time.Second) // the computer has replied
	before := eval[int](p, movesShown)
	id := eval[string](p, `localStorage.getItem('oanquan.game')`)

	stop()
	p.wait(`document.documentElement.dataset.live === 'off'`, 10*time.Second)
	var ln2 net.Listener
	for i := 0; ; i++ {
		if ln2, err = net.Listen("tcp", addr); err == nil {
			break
		}
		if i == 50 {
			t.Fatalf("listening again on %s: %v", addr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	stop = serve(ln2)
	defer stop()
	p.wait(`document.documentElement.dataset.live === 'on'`, 20*time.Second)
	p.wait(ready, 20*time.Second)
	playByKeyboard(p, rng)
	p.wait(ready, 20*time.Second)
	if n := eval[int](p, movesShown); n < before+1 {
		t.Fatalf("after the restart %d moves shown, want more than %d", n, before)
	}

	p.do(chromedp.Reload())
	p.wait(ready, 20*time.Second)
	after := eval[int](p, movesShown)
	if got := eval[string](p, `localStorage.getItem('oanquan.game')`); got != id || after < before+1 {
		t.Fatalf("after a reload: game %s with %d moves, want game %s with more than %d", got, after, id, before)
	}
	playByKeyboard(p, rng)

	p.dropRefused()
}

// dropRefused forgets the console errors of connections refused while the
// server was down: expected when a test stops it, and nothing else is.
func (p *page) dropRefused() { p.dropErrors(refusedConnection) }

// forget forgets the console errors that contain text: expected by the
// test (a request it wants refused).
func (p *page) forget(text string) {
	p.dropErrors(func(msg string) bool { return strings.Contains(msg, text) })
}

// dropErrors forgets the console errors for which expected is true.
func (p *page) dropErrors(expected func(string) bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var kept []string
	for _, e := range p.errors {
		if !expected(e) {
			kept = append(kept, e)
		}
	}
	p.errors = kept
}

// refusedConnection reports whether a console error is a request or a
// WebSocket that could not reach the server.
func refusedConnection(msg string) bool {
	for _, s := range []string{"ERR_CONNECTION_REFUSED", "WebSocket connection", "Failed to fetch", "NetworkError", "ERR_EMPTY_RESPONSE", "net::ERR"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
