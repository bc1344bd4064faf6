package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// AuditNew runs axe-core on the page when AXE_JS names axe.min.js
// (TestAxe says where it comes from), failing the test for each
// violation; without it, it does nothing.
func AuditNew(p *Page, what string) {
	p.T.Helper()
	file := os.Getenv("AXE_JS")
	if file == "" {
		return
	}
	src, err := os.ReadFile(file)
	if err != nil {
		p.T.Fatal(err)
	}
	p.Do(chromedp.Evaluate[chromedp.Void](string(src)))
	for _, v := range Eval[[]string](p, AxeRun) {
		p.T.Errorf("%s: %s", what, v)
	}
}

// ColorScheme emulates a light or dark system setting.
func ColorScheme(dark bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		p := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}}
		if dark {
			p.Features[0].Value = "dark"
		}
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, p)
		return err
	})
}

// ShotDir is where the screenshots go: $SCREENSHOT_DIR, else a folder
// under the system's temporary directory (never the repository).
func ShotDir(t *testing.T) string {
	dir := os.Getenv("SCREENSHOT_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "oanquan-shots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// AxeRun runs axe-core on the page with the WCAG 2.1 A/AA and
// best-practice rules and returns the violations, one line each.
const AxeRun = `axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})
	.then(r => r.violations.map(v => v.id + ' (' + v.impact + '): ' + v.nodes.map(n => n.target.join(' ')).join(', ')))`

// HeaderShown measures the header and the board in the window: the
// header's height, the controls in it (their box, their accessible name
// as far as a test can read it: a label, an aria-label or their text),
// in the order the keyboard reaches them, and the board's and the two
// stores' boxes, with how far the page can scroll.
const HeaderShown = `(() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const name = (e) => (e.getAttribute('aria-label') || (e.labels && e.labels[0] && e.labels[0].textContent) || e.textContent || '').trim();
  const controls = [...document.querySelectorAll('.top a[href], .top button, .top select, .top summary')]
    .filter((e) => e.getClientRects().length > 0)
    .map((e) => ({ id: e.id || e.outerHTML.slice(0, 60), name: name(e), box: box(e) }));
  const se = document.scrollingElement;
  return { header: document.querySelector('.top').getBoundingClientRect().height, controls,
    board: box(document.getElementById('game-board')), stores: [box(document.getElementById('store-0')), box(document.getElementById('store-1'))],
    w: innerWidth, h: innerHeight, scrollX: se.scrollWidth - se.clientWidth, rtl: document.documentElement.dir === 'rtl' };
})()`

// ShownHeader is HeaderShown's answer.
type ShownHeader struct {
	Header   float64
	Controls []struct {
		ID, Name string
		Box      [4]float64 // left, top, right, bottom
	}
	Board   [4]float64
	Stores  [2][4]float64
	W, H    float64
	ScrollX float64
	RTL     bool
}
