package browsertest

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

// ChromiumPath finds Debian's chromium, or another Chrome named by
// $CHROMIUM.
func ChromiumPath() string {
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

// Page is one browser tab on the game, with the server's address and
// the console errors the page logged.
type Page struct {
	T    *testing.T      // the test the page is for
	Ctx  context.Context // the tab's: chromedp.Run(p.Ctx, …) acts on it
	Base string          // the server's address: http://host:port

	mu     sync.Mutex
	errors []string
}

// NewPage starts a browser with a w×h viewport and opens the game, with
// settings (a JSON object such as {"anim":"off"}) put in localStorage
// first. It fails the test if the page logs an error.
func NewPage(t *testing.T, w, h int, settings string, emulate ...chromedp.EmulateViewportOption) *Page {
	t.Helper()
	path := ChromiumPath()
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium not found: apt-get install -y chromium")
		}
		t.Skip("chromium not found: apt-get install -y chromium")
	}
	base := ServerURL(t)
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
	p := &Page{T: t, Ctx: ctx, Base: base}
	t.Cleanup(func() {
		cancelC()
		cancelA()
	})
	if err := chromedp.Listen(ctx, p.onEvent); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	p.Do(
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
	p.WaitStarted()
	p.Do(
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`localStorage.clear(); localStorage.setItem('oanquan.settings', %q); localStorage.setItem('oanquan.lang', 'en'); window.oldPage = true`, settings)),
		chromedp.Navigate(base+"/"),
	)
	p.WaitStarted()
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errors {
			t.Errorf("console: %s", e)
		}
	})
	return p
}

func (p *Page) onEvent(ev any) {
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

// Do runs the actions with a time limit, failing the test on error.
func (p *Page) Do(steps ...chromedp.Action[chromedp.Void]) {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.T.Fatalf("browser: %v", err)
	}
}

// Eval evaluates a JavaScript expression and decodes its value into v.
func Eval[T any](p *Page, expr string) T {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.T.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// Wait polls a JavaScript expression until it is truthy.
func (p *Page) Wait(expr string, timeout time.Duration) {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, timeout+5*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(timeout)))
	if err != nil {
		p.T.Fatalf("waiting for %s: %v\nstatus: %s", expr, err, Eval[string](p, `[document.getElementById('status').textContent, document.getElementById('moves').textContent, document.getElementById('turns').textContent, document.activeElement.outerHTML.slice(0, 200)].join('\\n')`))
	}
}

// WaitStarted waits until the page has loaded anew (not the page marked
// window.oldPage) and shows a game whose feed is up.
func (p *Page) WaitStarted() {
	p.T.Helper()
	p.Wait(`!window.oldPage && localStorage.getItem('oanquan.game') && document.querySelectorAll('#game-board .cell').length === 12 && document.documentElement.dataset.live === 'on'`, 20*time.Second)
}

// Ready is true when the page waits for a human move or shows the final
// count.
const Ready = `(document.querySelectorAll('#game-board button.cell.legal').length > 0 && !document.getElementById('skip').matches(':enabled')) || document.getElementById('result').open`

// Over reports whether the page shows the final count.
func (p *Page) Over() bool { return Eval[bool](p, `document.getElementById('result').open`) }

// GameState fetches the current game's state from the server.
func (p *Page) GameState() map[string]any {
	p.T.Helper()
	id := Eval[string](p, `localStorage.getItem('oanquan.game')`)
	res, err := http.Get(p.Base + "/api/games/" + id)
	if err != nil {
		p.T.Fatal(err)
	}
	defer res.Body.Close()
	var st map[string]any
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		p.T.Fatal(err)
	}
	return st
}

// ShownCells reads the twelve counts drawn on the board.
func (p *Page) ShownCells() []int {
	return Eval[[]int](p, `[...Array(12).keys()].map(c => Number(document.querySelector('#game-board .cell[data-cell="'+c+'"] .count').dataset.v))`)
}

// Screenshot saves what the page shows as a PNG file.
func (p *Page) Screenshot(file string) {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 30*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.T.Fatal(err)
	}
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		p.T.Fatal(err)
	}
}

// ServerURL is E2E_URL, or a server started for the test.
func ServerURL(t *testing.T) string {
	if u := os.Getenv("E2E_URL"); u != "" {
		return strings.TrimSuffix(u, "/")
	}
	return StartServer(t)
}

// DropRefused forgets the console errors of connections refused while the
// server was down: expected when a test stops it, and nothing else is.
func (p *Page) DropRefused() { p.DropErrors(RefusedConnection) }

// Forget forgets the console errors that contain text: expected by the
// test (a request it wants refused).
func (p *Page) Forget(text string) {
	p.DropErrors(func(msg string) bool { return strings.Contains(msg, text) })
}

// DropErrors forgets the console errors for which expected is true.
func (p *Page) DropErrors(expected func(string) bool) {
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

// RefusedConnection reports whether a console error is a request or a
// WebSocket that could not reach the server.
func RefusedConnection(msg string) bool {
	for _, s := range []string{"ERR_CONNECTION_REFUSED", "WebSocket connection", "Failed to fetch", "NetworkError", "ERR_EMPTY_RESPONSE", "net::ERR"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
