package e2e

import (
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestFrozenServerShown: a connection that dies with no word — the
// server stopped (SIGSTOP) keeps its sockets open and answers nothing,
// as a network that fails silently does, with no offline event in the
// browser — is shown at both boards as "reconnecting" within seconds,
// by the feed's own pings, and the boards come back when the server
// does. (Without the pings, the sockets stay open and the pages keep
// saying it is their turn and that the friend is here.)
func TestFrozenServerShown(t *testing.T) {
	srv := realServer(t)
	a := newPage(t, 1200, 900, `{"mode":"online","first":0,"anim":"off"}`)
	click(a, "#new")
	a.wait(`document.getElementById('newgame').open`, 5*time.Second)
	click(a, "#newgame-start")
	a.wait(`document.getElementById('invite-link')?.value.includes('?game=')`, 10*time.Second)
	link := eval[string](a, `document.getElementById('invite-link').value`)
	b := newPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b.do(chromedp.Navigate(link))
	b.wait(`document.getElementById('online')?.hidden === false && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	a.wait(onlineReady+` && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	const trouble = `document.getElementById('status').classList.contains('trouble')`

	if err := srv.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	for _, p := range []*page{a, b} {
		p.wait(trouble, 8*time.Second)
	}
	t.Logf("both boards said they were reconnecting %v after the server froze", time.Since(stopped).Round(time.Millisecond))
	if got := text(a, "status"); got != "Connection lost: reconnecting…" {
		t.Errorf("the creator's status while the server is frozen: %q", got)
	}

	if err := srv.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*page{a, b} {
		p.wait(`!(`+trouble+`)`, 20*time.Second)
	}
	a.wait(onlineReady, 10*time.Second)
	for _, p := range []*page{a, b} {
		p.forgetUnreachable()
	}
}
