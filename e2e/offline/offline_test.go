package offline

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"oanquan/ai"
	. "oanquan/e2e/internal/browsertest"
	"oanquan/internal/server"
	"oanquan/internal/store/memory"
	"oanquan/rules"
	"oanquan/web"
)

// TestOfflineGames: the page is loaded once online and a game against
// Easy begun on the server; then, on a phone with the network cut, the
// page carries on that game with the engine in the browser, reloads from
// the service worker, plays the game on to its end and shows it again
// after a reload, shows how to play, plays a whole two-player game (a
// hint, an undo, a reload in the middle) and a whole game against Medium
// and against Hard.
func TestOfflineGames(t *testing.T) {
	p := NewPage(t, 390, 844, `{"mode":"ai","level":"easy","anim":"off","first":0}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	p.Wait(Controlled, 30*time.Second)
	p.Wait(Ready, 20*time.Second)
	rng := rand.New(rand.NewPCG(12, 1))
	PlayByClicks(p, rng) // on the server
	online := Eval[string](p, `localStorage.getItem('oanquan.game')`)
	p.Offline(true)
	PlayByClicks(p, rng) // the server out of reach: the page carries on
	if n := Eval[int](p, MovesShown); n != 4 {
		t.Fatalf("%d moves shown after a move offline, want 4 (the computer replied)", n)
	}
	moves := Eval[string](p, `document.getElementById('moves').textContent`)
	start := time.Now()
	p.Do(chromedp.Reload())
	p.Wait(LocalGame, 20*time.Second)
	p.Wait(Ready, 30*time.Second)
	t.Logf("offline, from the reload to the game ready to play (page from the service worker, engine started, game replayed): %v", time.Since(start).Round(time.Millisecond))
	if id := Eval[string](p, `localStorage.getItem('oanquan.game')`); id != online {
		t.Errorf("offline, game %s; want the server's %s carried on", id, online)
	}
	if got := Eval[string](p, `document.getElementById('moves').textContent`); got != moves {
		t.Errorf("offline, the moves are %q; want the server's %q", got, moves)
	}
	start = time.Now()
	PlayByClicks(p, rng)
	t.Logf("the first move after it, with the computer's reply: %v", time.Since(start).Round(time.Millisecond))

	// Against Easy, by clicks, to the end.
	for i := 0; !p.Over(); i++ {
		if i == 200 {
			t.Fatal("no end after 200 moves")
		}
		PlayByClicks(p, rng)
	}
	checkLocalEnd(p, "ai")

	// The finished game, reviewed after a reload: the same count, and
	// its positions to go back through.
	const totalsShown = `[...document.querySelectorAll('#tallies .term.total b')].map(b => b.textContent).join(' ')`
	totals := Eval[string](p, totalsShown)
	p.Do(chromedp.Reload())
	p.Wait(`document.getElementById('result').open`, 20*time.Second)
	if got := Eval[string](p, totalsShown); got != totals {
		t.Errorf("after a reload the final count is %q, want %q", got, totals)
	}
	p.Do(chromedp.Click(chromedp.ID("result-close")), chromedp.KeyEvent(kb.ArrowLeft))
	p.Wait(`!document.getElementById('replay-bar').hidden`, 5*time.Second)
	// And its review, by the engine in the browser.
	p.Do(chromedp.Click(chromedp.ID("replay-review")))
	// Each position is searched by the engine in the browser, one after
	// another: on a busy machine that takes a while.
	p.Wait(`document.getElementById('review-status')?.textContent === 'Review done.' && document.querySelector('#review-graph .score') !== null`, 150*time.Second)
	Click(p, "#review-close")

	// How to play, offline.
	p.Do(chromedp.Evaluate[chromedp.Void](`location.hash = '#howto'`))
	p.Wait(`document.querySelector('#howto-body .board.mini') !== null`, 10*time.Second)
	p.Do(chromedp.Evaluate[chromedp.Void](`location.hash = ''`))
	p.Wait(`!document.getElementById('game-view').hidden`, 5*time.Second)

	// Two players, from the new-game dialog; a hint, an undo, and a
	// reload in the middle.
	p.Do(
		chromedp.Click(chromedp.ID("new")),
		chromedp.WaitVisible(chromedp.ID("newgame")),
		chromedp.Click(chromedp.CSS(`#newgame input[name=mode][value=local]`)),
		chromedp.Click(chromedp.ID("newgame-start")),
	)
	p.Wait(`JSON.parse(localStorage.getItem('oanquan.settings')).mode === 'local' && localStorage.getItem('oanquan.game').startsWith('local-') && document.querySelectorAll('#moves .mv:not(.none)').length === 0 && `+LocalGame, 20*time.Second)
	p.Wait(Ready, 20*time.Second)
	for range 6 {
		PlayByClicks(p, rng)
	}
	p.Do(chromedp.Click(chromedp.ID("hint")))
	p.Wait(`document.querySelector('#game-board .cell.selected') !== null`, 10*time.Second)
	p.Do(chromedp.Click(chromedp.ID("undo")))
	p.Wait(MovesShown+` === 5`, 10*time.Second)
	before := Eval[string](p, `document.getElementById('moves').textContent`)
	id := Eval[string](p, `localStorage.getItem('oanquan.game')`)
	p.Do(chromedp.Reload())
	p.Wait(LocalGame, 20*time.Second)
	p.Wait(Ready, 20*time.Second)
	if got := Eval[string](p, `localStorage.getItem('oanquan.game')`); got != id {
		t.Fatalf("after a reload, game %s, want %s", got, id)
	}
	if got := Eval[string](p, `document.getElementById('moves').textContent`); got != before {
		t.Fatalf("after a reload the moves are %q, want %q", got, before)
	}
	for i := 0; !p.Over(); i++ {
		if i == 400 {
			t.Fatal("no end after 400 moves")
		}
		PlayByClicks(p, rng)
	}
	checkLocalEnd(p, "local")

	// Medium and Hard, each a whole game.
	for _, level := range []string{"medium", "hard"} {
		p.Do(
			chromedp.Click(chromedp.ID("result-new")),
			chromedp.WaitVisible(chromedp.ID("newgame")),
			chromedp.Click(chromedp.CSS(`#newgame input[name=mode][value=ai]`)),
			chromedp.Click(chromedp.CSS(`#newgame input[name=level][value=`+level+`]`)),
			chromedp.Click(chromedp.ID("newgame-start")),
		)
		p.Wait(`document.querySelectorAll('#moves .mv:not(.none)').length === 0 && document.getElementById('level').value === '`+level+`' && `+LocalGame, 20*time.Second)
		// The computer searches in the worker: the page's thread should
		// have no task as long as its search (Hard's takes about 200 ms).
		p.Do(chromedp.Evaluate[chromedp.Void](`window.longest = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longest = Math.max(window.longest, e.duration); }).observe({ type: 'longtask' })`))
		for i := 0; !p.Over(); i++ {
			if i == 200 {
				t.Fatal("no end after 200 moves")
			}
			PlayByClicks(p, rng)
		}
		checkLocalEnd(p, "ai")
		// A measurement, not a check: on a busy machine any task may
		// last long.
		t.Logf("%s: the longest task of the page's thread took %.0f ms", level, Eval[float64](p, `window.longest`))
	}
	p.ForgetUnreachable()
}

// TestOfflineInvitation: a friend's link opened with the network cut
// keeps its address, starts no game in the browser and says that the
// game opens once the server can be reached; when the network is back,
// the page takes the free seat.
func TestOfflineInvitation(t *testing.T) {
	p := NewPage(t, 390, 844, `{"mode":"ai","level":"easy","anim":"off","first":0}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	p.Wait(Controlled, 30*time.Second)
	var game struct {
		ID string `json:"id"`
	}
	APICall(t, p.Base, "POST", "/api/games", "", `{"mode":"online","first":0}`, &game)
	kept := Eval[string](p, `localStorage.getItem('oanquan.local') || ''`)
	p.Offline(true)
	p.Do(chromedp.Navigate(p.Base + "/?game=" + game.ID))
	p.Wait(`document.getElementById('status').textContent.startsWith('The server cannot be reached: this game is kept there')`, 20*time.Second)
	p.Screenshot(filepath.Join(ShotDir(t), "offline-invitation-390x844.png"))
	if got := Eval[string](p, `location.search`); got != "?game="+game.ID {
		t.Errorf("offline, the address became %q", got)
	}
	if got := Eval[string](p, `localStorage.getItem('oanquan.local') || ''`); got != kept {
		t.Errorf("offline, a friend's link started a game in the browser: %s", got)
	}
	taken := func() [2]bool {
		var st struct {
			Presence struct {
				Taken [2]bool `json:"taken"`
			} `json:"presence"`
		}
		APICall(t, p.Base, "GET", "/api/games/"+game.ID, "", "", &st)
		return st.Presence.Taken
	}
	if got := taken(); got != [2]bool{true, false} {
		t.Errorf("offline, seats taken %v, want the creator's alone", got)
	}
	p.Offline(false)
	p.Wait(`document.documentElement.dataset.live === 'on' && localStorage.getItem('oanquan.game') === '`+game.ID+`' && JSON.parse(localStorage.getItem('oanquan.secrets') || '{}')['`+game.ID+`'] !== undefined`, 20*time.Second)
	if got := taken(); got != [2]bool{true, true} {
		t.Errorf("back online, seats taken %v, want both", got)
	}
	p.ForgetUnreachable()
}

// checkLocalEnd checks the final count of the game played in the browser
// against the engine's own state of it.
func checkLocalEnd(p *Page, mode string) {
	p.T.Helper()
	st := Eval[map[string]any](p, `(async () => { const m = await import('/offline/local.js'); return m.call('GET', '/api/games/' + localStorage.getItem('oanquan.game')); })()`)
	if st["over"] != true || st["mode"] != mode {
		p.T.Fatalf("the engine's state: over %v, mode %v; want a finished %s game", st["over"], st["mode"], mode)
	}
	p.T.Logf("%s %s game: %d moves, the end %v, totals %v", mode, st["level"], len(st["moves"].([]any)), st["end"], st["result"])
	totals := Eval[[]string](p, `[...document.querySelectorAll('#tallies .term.total b')].map(b => b.textContent)`)
	players := st["result"].(map[string]any)["players"].([]any)
	for i, tl := range players {
		if want := fmt.Sprint(tl.(map[string]any)["total"]); len(totals) != 2 || totals[i] != want {
			p.T.Errorf("player %d: totals shown %v, the engine says %s", i, totals, want)
		}
	}
}

// measureEngine starts the engine in a worker of its own, as local.js
// does, and measures: how long until it answers (the wasm fetched from
// the service worker's cache, compiled and started), a first move against
// Easy with its reply, and Hard's searches from the start in 300 ms and
// 1 s.
const measureEngine = `(async () => {
  const t0 = performance.now();
  const w = new Worker('/offline/engine-worker.js');
  let n = 0;
  const updates = [];
  w.addEventListener('message', (e) => { if (e.data.update) updates.push(JSON.parse(e.data.update)); });
  const ask = (req) => new Promise((resolve) => {
    const id = ++n;
    w.addEventListener('message', function f(e) { if (e.data.n === id) { w.removeEventListener('message', f); resolve(JSON.parse(e.data.answer)); } });
    w.postMessage({ n: id, request: JSON.stringify(req) });
  });
  const game = (await ask({ method: 'POST', path: '/api/games', body: { mode: 'ai', level: 'easy' } })).body;
  const started = performance.now() - t0;
  const t1 = performance.now();
  await ask({ method: 'POST', path: '/api/games/' + game.id + '/moves', body: { move: '7R' } });
  while (!updates.some((u) => u.message.type === 'turn' && u.message.turn.by === 'computer')) await new Promise((r) => setTimeout(r, 1));
  const firstMove = performance.now() - t1;
  const searches = [];
  for (const moveTime of [300, 1000]) searches.push((await ask({ op: 'search', search: { level: 'hard', moveTime } })).body);
  w.terminate();
  return { started, firstMove, searches };
})()`

// TestOfflineEngineSpeed measures the engine in Chromium beside the
// native one (E2E_PERF=1, as .ci/run sets it for this test alone;
// docs/OFFLINE.md has the figures). The browser's searches must search.
func TestOfflineEngineSpeed(t *testing.T) {
	if os.Getenv("E2E_PERF") == "" {
		t.Skip("a measurement: E2E_PERF=1")
	}
	p := NewPage(t, 390, 844, `{"anim":"off"}`)
	p.Wait(Controlled, 30*time.Second)
	type search struct {
		Move  string
		Depth int
		Nodes int64
		MS    int64
	}
	for run := range 3 {
		m := Eval[struct {
			Started, FirstMove float64
			Searches           []search
		}](p, measureEngine)
		t.Logf("run %d: engine answering after %.0f ms; first move against Easy with its reply %.0f ms", run, m.Started, m.FirstMove)
		if len(m.Searches) != 2 {
			t.Errorf("run %d: %d searches answered, want 2", run, len(m.Searches))
		}
		for _, s := range m.Searches {
			t.Logf("  Chromium: Hard from the start, %d ms: depth %d, %d nodes, %.0f nodes/s", s.MS, s.Depth, s.Nodes, float64(s.Nodes)/float64(s.MS)*1000)
			// A search that did not search. How deep it goes in its time
			// depends on the machine's load: that is measured, not tested.
			if s.Move == "" || s.Depth < 1 || s.Nodes == 0 {
				t.Errorf("Chromium: Hard from the start answered move %q after %d plies, %d nodes; want a move searched", s.Move, s.Depth, s.Nodes)
			}
		}
	}
	// Native, on one core as the browser's worker, then as the server
	// runs it (Hard searches with two threads where it has two cores).
	var r rules.Rules
	for _, procs := range []int{1, runtime.GOMAXPROCS(0)} {
		old := runtime.GOMAXPROCS(procs)
		for _, ms := range []int{300, 1000} {
			start := time.Now()
			res, err := ai.Search(context.Background(), r.Start(), ai.Limits{Level: ai.Hard, MoveTime: time.Duration(ms) * time.Millisecond, Rules: r})
			if err != nil {
				t.Fatal(err)
			}
			el := time.Since(start)
			t.Logf("  native, GOMAXPROCS=%d: Hard from the start, %d ms: depth %d, %d nodes, %.0f nodes/s", procs, el.Milliseconds(), res.Depth, res.Nodes, float64(res.Nodes)/el.Seconds())
		}
		runtime.GOMAXPROCS(old)
	}
}

// TestServiceWorkerUpdate: a new version of the page is deployed while a
// game is in progress. The page says a new version is ready and goes on:
// the game is played on; when the player chooses to reload, the new
// version takes over, with the same game and its moves.
func TestServiceWorkerUpdate(t *testing.T) {
	// Two versions of the server on one store: the second serves a
	// changed stylesheet, so its service worker has another list.
	changed := fstest.MapFS{}
	err := fs.WalkDir(web.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(web.FS(), name)
		if name == "css/main.css" {
			data = append(data, "\n/* version 2 */\n"...)
		}
		changed[name] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	st := memory.New()
	v1 := server.New(server.Config{Store: st})
	v2 := server.New(server.Config{Store: st, Assets: changed})
	var current atomic.Pointer[server.Server]
	current.Store(v1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { current.Load().ServeHTTP(w, r) }))
	t.Cleanup(func() {
		ts.Close()
		v1.Close()
		v2.Close()
	})
	t.Setenv("E2E_URL", ts.URL)

	p := NewPage(t, 1200, 900, `{"mode":"local","anim":"off","first":0}`)
	p.Wait(Controlled, 30*time.Second)
	p.Wait(Ready, 20*time.Second)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3 {
		PlayByKeyboard(p, rng)
	}
	id := Eval[string](p, `localStorage.getItem('oanquan.game')`)

	current.Store(v2)
	Eval[bool](p, `navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true)`)
	p.Wait(`document.getElementById('update-reload') !== null && document.getElementById('update-reload').offsetParent !== null`, 30*time.Second)
	if Eval[bool](p, `!!window.oldPage`) {
		t.Fatal("the page is an old one") // NewPage marks the first load only
	}
	if file := os.Getenv("AXE_JS"); file != "" { // the note, audited as TestAxe audits the page
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p.Do(chromedp.Evaluate[chromedp.Void](string(src)))
		for _, v := range Eval[[]string](p, AxeRun) {
			t.Errorf("axe, the new version's note shown: %s", v)
		}
	}
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		p.Screenshot(dir + "/update-note.png")
	}
	p.Do(chromedp.Evaluate[chromedp.Void](`window.beforeUpdate = true`))
	PlayByKeyboard(p, rng) // the game goes on meanwhile
	moves := Eval[string](p, `document.getElementById('moves').textContent`)
	if !Eval[bool](p, `window.beforeUpdate === true`) {
		t.Fatal("the page reloaded by itself")
	}

	p.Do(chromedp.Click(chromedp.ID("update-reload")))
	p.WaitReload(`window.beforeUpdate`, 20*time.Second)
	p.Wait(Controlled, 20*time.Second)
	p.Wait(Ready, 20*time.Second)
	if got := Eval[string](p, `localStorage.getItem('oanquan.game')`); got != id {
		t.Errorf("after the update, game %s; want %s", got, id)
	}
	if got := Eval[string](p, `document.getElementById('moves').textContent`); got != moves {
		t.Errorf("after the update, moves %q; want %q", got, moves)
	}
	if css := Eval[string](p, `fetch('/css/main.css').then((r) => r.text())`); !strings.Contains(css, "version 2") {
		t.Error("after the update the stylesheet is still the old one")
	}
	if Eval[bool](p, `document.getElementById('update-note') !== null`) {
		t.Error("the new version says a new version is ready")
	}
}

// TestInstallable asks Chromium whether the page can be installed: its
// manifest parses without errors and it meets every installability
// criterion (icons, start URL, display, a service worker that serves the
// page).
func TestInstallable(t *testing.T) {
	p := NewPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	p.Wait(Controlled, 30*time.Second)
	var manifest cdppage.GetAppManifestResult
	var installable cdppage.GetInstallabilityErrorsResult
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		var err error
		if manifest, err = cdp.Call(ctx, tg, cdppage.GetAppManifest, cdppage.GetAppManifestParams{}); err != nil {
			return err
		}
		installable, err = cdp.Call(ctx, tg, cdppage.GetInstallabilityErrors, cdp.Empty{})
		return err
	}))
	if !strings.HasSuffix(manifest.URL, "/manifest.webmanifest") || manifest.Data == "" {
		t.Errorf("manifest at %q, %d bytes", manifest.URL, len(manifest.Data))
	}
	for _, e := range manifest.Errors {
		t.Errorf("manifest: %s (line %d)", e.Message, e.Line)
	}
	for _, e := range installable.InstallabilityErrors {
		var args []string
		for _, a := range e.ErrorArguments {
			args = append(args, a.Name+"="+a.Value)
		}
		t.Errorf("not installable: %s %v", e.ErrorID, args)
	}
}
