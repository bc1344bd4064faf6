package online

import (
	"syscall"
	"testing"
	"time"

	. "oanquan/e2e/internal/browsertest"
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
