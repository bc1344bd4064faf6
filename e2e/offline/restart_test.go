package offline

import (
	"context"
	"math/rand/v2"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	. "oanquan/e2e/internal/browsertest"
	"oanquan/internal/server"
	"oanquan/internal/store/sqlite"
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
		st, err := sqlite.Open(context.Background(), db, nil)
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
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Wait(Ready, 20*time.Second)
	rng := rand.New(rand.NewPCG(7, 8))
	PlayByKeyboard(p, rng)
	p.Wait(Ready, 20*time.Second) // the computer has replied
	before := Eval[int](p, MovesShown)
	id := Eval[string](p, `localStorage.getItem('oanquan.game')`)

	stop()
	p.Wait(`document.documentElement.dataset.live === 'off'`, 10*time.Second)
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
	p.Wait(`document.documentElement.dataset.live === 'on'`, 20*time.Second)
	p.Wait(Ready, 20*time.Second)
	PlayByKeyboard(p, rng)
	p.Wait(Ready, 20*time.Second)
	if n := Eval[int](p, MovesShown); n < before+1 {
		t.Fatalf("after the restart %d moves shown, want more than %d", n, before)
	}

	p.Do(chromedp.Reload())
	p.Wait(Ready, 20*time.Second)
	after := Eval[int](p, MovesShown)
	if got := Eval[string](p, `localStorage.getItem('oanquan.game')`); got != id || after < before+1 {
		t.Fatalf("after a reload: game %s with %d moves, want game %s with more than %d", got, after, id, before)
	}
	PlayByKeyboard(p, rng)

	p.DropRefused()
}
