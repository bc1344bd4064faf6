package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromiumPath finds Debian's chromium, or another Chrome named by
// $CHROMIUM.
func chromiumPath() string {
	names := []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"}
	if p := os.Getenv("CHROMIUM"); p != "" {
		names = []string{p}
	}
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// page is one browser tab on the game, with the server's address and
// the console errors the page logged.
type page struct {
	t    *testing.T
	ctx  context.Context
	base string

	mu     sync.Mutex
	errors []string
}

// newPage starts a browser with a w×h viewport and opens the game, with
// settings (a JSON object such as {"anim":"off"}) put in localStorage
// first. It fails the test if the page logs an error.
func newPage(t *testing.T, w, h int, settings string, emulate ...chromedp.EmulateViewportOption) *page {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium not found: apt-get install -y chromium")
		}
		t.Skip("chromium not found: apt-get install -y chromium")
	}
	base := serverURL(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(w, h),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	p := &page{t: t, ctx: ctx, base: base}
	t.Cleanup(func() {
		cancelC()
		cancelA()
	})
	if err := chromedp.Listen(ctx, p.onEvent); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	p.do(
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{})
			return err
		}),
		watchLive,
		chromedp.EmulateViewport(int64(w), int64(h), emulate...),
		chromedp.Navigate(base+"/"),
	)
	// The first load starts a game of its own: let it finish, so that no
	// request of it is still under way, then store the settings, mark
	// the old page and load again. The waits then look only at the new
	// page, never at the old one.
	p.waitStarted()
	p.do(
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`localStorage.clear(); localStorage.setItem('oanquan.settings', %q); localStorage.setItem('oanquan.lang', 'en'); window.oldPage = true`, settings)),
		chromedp.Navigate(base+"/"),
	)
	p.waitStarted()
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errors {
			t.Errorf("console: %s", e)
		}
	})
	return p
}

func (p *page) onEvent(ev any) {
	var msg string
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type != runtime.ConsoleAPICalledTypeError {
			return
		}
		var parts []string
		for _, a := range e.Args {
			parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
		}
		msg = strings.Join(parts, " ")
	case *cdplog.EventEntryAdded:
		// Failed loads, Content-Security-Policy violations and the like.
		if e.Entry.Level != cdplog.EntryLevelError {
			return
		}
		msg = string(e.Entry.Source) + ": " + e.Entry.Text + " " + e.Entry.URL
	case *runtime.EventExceptionThrown:
		msg = e.ExceptionDetails.Text
		if e.ExceptionDetails.Exception != nil {
			msg += " " + e.ExceptionDetails.Exception.Description
		}
	default:
		return
	}
	p.mu.Lock()
	p.errors = append(p.errors, msg)
	p.mu.Unlock()
}

// do runs the actions with a time limit, failing the test on error.
func (p *page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// eval evaluates a JavaScript expression and decodes its value into v.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// wait polls a JavaScript expression until it is truthy.
func (p *page) wait(expr string, timeout time.Duration) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, timeout+5*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(timeout)))
	if err != nil {
		p.t.Fatalf("waiting for %s: %v\nstatus: %s", expr, err, eval[string](p, `[document.getElementById('status').textContent, document.getElementById('moves').textContent, document.getElementById('turns').textContent, document.activeElement.outerHTML.slice(0, 200)].join('\\n')`))
	}
}

func (p *page) waitStarted() {
	p.t.Helper()
	p.wait(`!window.oldPage && localStorage.getItem('oanquan.game') && document.querySelectorAll('#game-board .cell').length === 12 && document.documentElement.dataset.live === 'on'`, 20*time.Second)
}

// ready is true when the page waits for a human move or shows the final
// count.
const ready = `(document.querySelectorAll('#game-board button.cell.legal').length > 0 && !document.getElementById('skip').matches(':enabled')) || document.getElementById('result').open`

func (p *page) over() bool { return eval[bool](p, `document.getElementById('result').open`) }

// gameState fetches the current game's state from the server.
func (p *page) gameState() map[string]any {
	p.t.Helper()
	id := eval[string](p, `localStorage.getItem('oanquan.game')`)
	res, err := http.Get(p.base + "/api/games/" + id)
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	var st map[string]any
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		p.t.Fatal(err)
	}
	return st
}

// shownCells reads the twelve counts drawn on the board.
func (p *page) shownCells() []int {
	return eval[[]int](p, `[...Array(12).keys()].map(c => Number(document.querySelector('#game-board .cell[data-cell="'+c+'"] .count').dataset.v))`)
}

func (p *page) screenshot(file string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// serverURL is E2E_URL, or a server started for the test.
func serverURL(t *testing.T) string {
	if u := os.Getenv("E2E_URL"); u != "" {
		return strings.TrimSuffix(u, "/")
	}
	return startServer(t)
}
