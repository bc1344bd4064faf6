package offline

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	. "oanquan/e2e/internal/browsertest"
)

// engineBroken is what the page says when the engine in the browser
// fails (offline/local.js; en.json's error.engine).
const engineBroken = "This browser could not play the game without the server: the part of the page that plays it did not load, or stopped. Reload the page to try again; the games kept here are not lost."

// workerKey finds the key the service worker keeps the engine's worker
// under (its path and hash), waiting until it is kept.
func workerKey(t *testing.T, p *Page) string {
	t.Helper()
	const find = `caches.open('oanquan').then((c) => c.keys()).then((ks) => (ks.find((r) => new URL(r.url).pathname === '/offline/engine-worker.js') || {}).url || '')`
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if key := Eval[string](p, find); key != "" {
			return key
		}
	}
	t.Fatal("the service worker did not keep the engine's worker")
	return ""
}

// keep has the service worker keep response (a JavaScript expression)
// under key, in place of the file it kept.
func keep(p *Page, key, response string) {
	p.T.Helper()
	Eval[bool](p, `caches.open('oanquan').then((c) => c.put(`+JSString(key)+`, `+response+`)).then(() => true)`)
}

// TestOfflineEngineBroken: a game kept in the browser is played by the
// engine there, in a worker. With the network cut, a game against the
// computer is begun in the browser; then the worker's file cannot be had
// (the service worker keeps a 404 in its place): the page reloaded asks
// the engine for its game, is refused at once and says so in the
// player's words, rather than wait for ever (and that the server cannot
// be reached, for the new game it tries then). A worker that loads but
// never answers (a script that says nothing, kept in its place) is given
// up the same way once it has said nothing for its time limit
// (offline/local.js SILENCE, 15 s).
func TestOfflineEngineBroken(t *testing.T) {
	t.Parallel() // waits more than it works: may run beside another such test (doc.go)
	p := NewPage(t, 390, 844, `{"mode":"ai","level":"easy","anim":"off","first":0}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	p.Wait(Controlled, 30*time.Second)
	p.Wait(Ready, 20*time.Second)
	key := workerKey(t, p)
	p.Offline(true)
	p.Do(
		chromedp.Click(chromedp.ID("new")),
		chromedp.WaitVisible(chromedp.ID("newgame")),
		chromedp.Click(chromedp.ID("newgame-start")),
	)
	p.Wait(`localStorage.getItem('oanquan.game').startsWith('local-') && `+LocalGame, 20*time.Second)
	p.Wait(Ready, 20*time.Second)

	keep(p, key, `new Response('gone', {status: 404, headers: {'Content-Type': 'text/plain'}})`)
	said := `document.getElementById('alert').hidden === false && document.getElementById('alert').textContent === ` + JSString(engineBroken)
	start := time.Now()
	p.Do(chromedp.Reload())
	p.Wait(said, 10*time.Second)
	t.Logf("the worker's file missing: said %v after the reload", time.Since(start).Round(time.Millisecond))
	p.Wait(`document.getElementById('status').textContent === 'The server cannot be reached. Trying again…'`, 10*time.Second)
	p.Screenshot(filepath.Join(ShotDir(t), "engine-broken-390x844.png"))
	SetLang(p, "fa")
	if got := Text(p, "alert"); got == engineBroken || strings.Contains(got, "error.") {
		t.Errorf("in Persian the alert reads %q", got)
	}
	AuditNew(p, "the engine broken, Persian phone")
	p.Screenshot(filepath.Join(ShotDir(t), "engine-broken-fa-390x844.png"))
	SetLang(p, "en")

	// A worker that loads and never answers.
	keep(p, key, `new Response('onmessage = () => {};', {headers: {'Content-Type': 'text/javascript'}})`)
	p.Do(chromedp.Reload())
	start = time.Now()
	p.Wait(said, 30*time.Second)
	if took := time.Since(start); took < 14*time.Second {
		t.Errorf("a silent engine was given up after %v, before its time limit of 15 s", took)
	} else {
		t.Logf("a silent worker: said after %v", took.Round(time.Millisecond))
	}
	p.ForgetUnreachable()
}
