package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// controlled is true once the service worker has kept the page's files
// and serves the page.
const controlled = `navigator.serviceWorker.controller !== null`

// offline cuts the page's network (DevTools' network emulation, the
// service worker's requests included), or restores it.
func (p *page) offline(off bool) {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		on := true
		_, err := cdp.Call(ctx, tg, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			EmulateOfflineServiceWorker: &on,
			MatchedNetworkConditions:    []*network.Conditions{{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}},
		})
		if err != nil {
			return err
		}
		_, err = cdp.Call(ctx, tg, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	}))
}

// forgetUnreachable drops the console errors of requests and WebSockets
// that could not reach the server: expected while offline.
func (p *page) forgetUnreachable() {
	p.mu.Lock()
	defer p.mu.Unlock()
	var kept []string
	for _, e := range p.errors {
		if !refusedConnection(e) && !strings.Contains(e, "ERR_INTERNET_DISCONNECTED") {
			kept = append(kept, e)
		}
	}
	p.errors = kept
}

// localGame is true when the page shows a game played in the browser:
// one kept in the browser (offline/local.js).
const localGame = `(localStorage.getItem('oanquan.local') || '').includes('"' + localStorage.getItem('oanquan.game') + '"') && document.querySelectorAll('#game-board .cell').length === 12`

// TestOfflineGames: the page is loaded once online and a game against
// Easy begun on the server; then, with the network cut, the page reloads
// from the service worker, carries on that game with the engine in the
// browser to its end, and plays a whole two-player game, kept across a
// reload.
func TestOfflineGames(t *testing.T) {
	p := newPage(t, 390, 844, `{"mode":"ai","level":"easy","anim":"off","first":0}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	p.wait(controlled, 30*time.Second)
	p.wait(ready, 20*time.Second)
	rng := rand.New(rand.NewPCG(12, 1))
	playByClicks(p, rng) // on the server
	online := eval[string](p, `localStorage.getItem('oanquan.game')`)
	moves := eval[string](p, `document.getElementById('moves').textContent`)
	p.offline(true)
	p.do(chromedp.Reload())
	p.wait(localGame, 20*time.Second)
	p.wait(ready, 30*time.Second)
	if id := eval[string](p, `localStorage.getItem('oanquan.game')`); id != online {
		t.Errorf("offline, game %s; want the server's %s carried on", id, online)
	}
	if got := eval[string](p, `document.getElementById('moves').textContent`); got != moves {
		t.Errorf("offline, the moves are %q; want the server's %q", got, moves)
	}

	// Against Easy, by clicks, to the end.
	for i := 0; !p.over(); i++ {
		if i == 200 {
			t.Fatal("no end after 200 moves")
		}
		playByClicks(p, rng)
	}
	checkLocalEnd(p, "ai")

	// Two players, from the new-game dialog; a reload in the middle.
	p.do(
		chromedp.Click(chromedp.ID("result-new")),
		chromedp.WaitVisible(chromedp.ID("newgame")),
		chromedp.Click(chromedp.CSS(`#newgame input[name=mode][value=local]`)),
		chromedp.Click(chromedp.ID("newgame-start")),
	)
	p.wait(`JSON.parse(localStorage.getItem('oanquan.settings')).mode === 'local' && localStorage.getItem('oanquan.game').startsWith('local-') && document.querySelectorAll('#moves .mv:not(.none)').length === 0 && `+localGame, 20*time.Second)
	p.wait(ready, 20*time.Second)
	for range 6 {
		playByClicks(p, rng)
	}
	before := eval[string](p, `document.getElementById('moves').textContent`)
	id := eval[string](p, `localStorage.getItem('oanquan.game')`)
	p.do(chromedp.Reload())
	p.wait(localGame, 20*time.Second)
	p.wait(ready, 20*time.Second)
	if got := eval[string](p, `localStorage.getItem('oanquan.game')`); got != id {
		t.Fatalf("after a reload, game %s, want %s", got, id)
	}
	if got := eval[string](p, `document.getElementById('moves').textContent`); got != before {
		t.Fatalf("after a reload the moves are %q, want %q", got, before)
	}
	for i := 0; !p.over(); i++ {
		if i == 400 {
			t.Fatal("no end after 400 moves")
		}
		playByClicks(p, rng)
	}
	checkLocalEnd(p, "local")
	p.forgetUnreachable()
}

// checkLocalEnd checks the final count of the game played in the browser
// against the engine's own state of it.
func checkLocalEnd(p *page, mode string) {
	p.t.Helper()
	st := eval[map[string]any](p, `(async () => { const m = await import('/offline/local.js'); return m.call('GET', '/api/games/' + localStorage.getItem('oanquan.game')); })()`)
	if st["over"] != true || st["mode"] != mode {
		p.t.Fatalf("the engine's state: over %v, mode %v; want a finished %s game", st["over"], st["mode"], mode)
	}
	p.t.Logf("%s game: %d moves, the end %v, totals %v", mode, len(st["moves"].([]any)), st["end"], st["result"])
	totals := eval[[]string](p, `[...document.querySelectorAll('#tallies .term.total b')].map(b => b.textContent)`)
	players := st["result"].(map[string]any)["players"].([]any)
	for i, tl := range players {
		if want := fmt.Sprint(tl.(map[string]any)["total"]); len(totals) != 2 || totals[i] != want {
			p.t.Errorf("player %d: totals shown %v, the engine says %s", i, totals, want)
		}
	}
}
