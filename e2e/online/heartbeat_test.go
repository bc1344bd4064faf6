package online

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	. "oanquan/e2e/internal/browsertest"
	"oanquan/internal/server"
)

// TestFrozenServerShown: a connection that dies with no word — the
// server stopped (SIGSTOP) keeps its sockets open and answers nothing,
// as a network that fails silently does, with no offline event in the
// browser — is shown at both boards as "reconnecting" within seconds,
// by the feed's own pings, and the boards come back when the server
// does. (Without the pings, the sockets stay open and the pages keep
// saying it is their turn and that the friend is here.)
func TestFrozenServerShown(t *testing.T) {
	srv := RealServer(t)
	a, b := FriendsOnline(t)
	a.Wait(OnlineReady+` && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	const trouble = `document.getElementById('status').classList.contains('trouble')`

	if err := srv.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	for _, p := range []*Page{a, b} {
		p.Wait(trouble, 8*time.Second)
	}
	t.Logf("both boards said they were reconnecting %v after the server froze", time.Since(stopped).Round(time.Millisecond))
	if got := Text(a, "status"); got != "Connection lost: reconnecting…" {
		t.Errorf("the creator's status while the server is frozen: %q", got)
	}

	if err := srv.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*Page{a, b} {
		p.Wait(`!(`+trouble+`)`, 20*time.Second)
	}
	a.Wait(OnlineReady, 10*time.Second)
	for _, p := range []*Page{a, b} {
		p.ForgetUnreachable()
	}
}

// TestFirstConnectionNotLost: a new online game whose first connections
// fail (the server refuses the game's WebSocket for a while) says that it
// is connecting, never that a connection was lost: no "Reconnecting" at
// the board, in who is here or in the live region, and no "Connected
// again" once it is up. A connection then lost (the network cut) is said
// lost, and back. (The page said "Connection lost: reconnecting…" from
// the first refusal.)
func TestFirstConnectionNotLost(t *testing.T) {
	var refuse atomic.Bool
	var refused atomic.Int32
	s := server.New(server.Config{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if refuse.Load() && strings.HasPrefix(r.URL.Path, "/api/games/") && strings.HasSuffix(r.URL.Path, "/ws") {
			refused.Add(1)
			http.Error(w, "not yet", http.StatusServiceUnavailable)
			return
		}
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		ts.Close()
		s.Close()
	})
	if ChromiumPath() != "" {
		t.Setenv("E2E_URL", ts.URL)
	}
	p := NewPage(t, 1200, 900, `{"mode":"online","first":0,"anim":"off"}`)
	p.Do(chromedp.Evaluate[chromedp.Void](`window.said = []; new MutationObserver(() => {
		for (const id of ['status', 'presence', 'announce']) { const s = document.getElementById(id)?.textContent; if (s && !window.said.includes(s)) window.said.push(s); }
	}).observe(document.body, {subtree: true, childList: true, characterData: true})`))
	refuse.Store(true)
	Click(p, "#new")
	p.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	Click(p, "#newgame-start")
	p.Wait(`document.getElementById('invite-link')?.value.includes('?game=')`, 10*time.Second)
	// The feed tries again after 0.5 s, 1 s, 2 s…: three refused.
	for deadline := time.Now().Add(10 * time.Second); refused.Load() < 3; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the page tried its game's WebSocket %d times in 10 s", refused.Load())
		}
	}
	if got := Text(p, "status"); got != "Connecting to the server…" {
		t.Errorf("before its first connection, the status says %q", got)
	}
	if got, want := Text(p, "presence"), "Connecting: until then this page cannot tell whether your friend is here."; got != want {
		t.Errorf("before its first connection, who is here says %q, want %q", got, want)
	}
	p.Screenshot(filepath.Join(ShotDir(t), "connecting-first.png"))
	refuse.Store(false)
	p.Wait(`document.documentElement.dataset.live === 'on' && document.getElementById('presence').textContent === 'Your friend has not opened the link yet.'`, 15*time.Second)
	time.Sleep(300 * time.Millisecond) // what the live region says comes 50 ms late
	said := Eval[[]string](p, `window.said`)
	for _, s := range said {
		if strings.Contains(s, "econnect") || strings.Contains(s, "Connection lost") || strings.Contains(s, "Connected again") {
			t.Errorf("before its first connection the page said %q", s)
		}
	}
	if !slices.Contains(said, "Connecting to the server…") {
		t.Errorf("the page never said it was connecting: %q", said)
	}

	p.Offline(true)
	p.Wait(`document.getElementById('status').textContent === 'Connection lost: reconnecting…' && window.said.includes('Connection lost: reconnecting…')`, 10*time.Second)
	if got, want := Text(p, "presence"), "Reconnecting: until then this page cannot tell whether your friend is here."; got != want {
		t.Errorf("a connection lost, who is here says %q, want %q", got, want)
	}
	p.Offline(false)
	p.Wait(`document.getElementById('presence').textContent === 'Your friend has not opened the link yet.' && window.said.includes('Connected again.')`, 15*time.Second)
	p.ForgetUnreachable()
}
