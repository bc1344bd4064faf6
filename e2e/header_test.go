package e2e

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	. "oanquan/e2e/internal/browsertest"
)

// maxHeader is the tallest the page's header may be on a phone, in CSS
// pixels: its height before the account button and the lobby's link
// joined it (86 at 360 and 390 wide), so that the board keeps its room.
const maxHeader = 86

// TestPhoneHeader: on phones 320, 360 and 390 wide, in English,
// Vietnamese and Persian, light and dark, the header is no taller than it
// was before accounts and the lobby joined it; each of its controls is in
// the window, named, at least 24×24 pixels (WCAG 2.2's smallest target),
// reached by the keyboard in reading order (right to left in Persian);
// the whole board with both stores is in view without scrolling, the
// page not wider than the window. On a desktop the header is one line.
func TestPhoneHeader(t *testing.T) {
	dir := ShotDir(t)
	p := NewPage(t, 390, 844, `{"mode":"ai","level":"easy","anim":"off","first":0}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	sizes := []struct{ w, h int }{{320, 568}, {360, 640}, {390, 844}}
	for i, lang := range []string{"en", "vi", "fr", "de", "ca", "fa"} {
		SetLang(p, lang)
		dark := i%2 == 1
		p.Do(ColorScheme(dark))
		for _, sz := range sizes {
			p.Do(chromedp.EmulateViewport(int64(sz.w), int64(sz.h), chromedp.EmulateMobile, chromedp.EmulateTouch))
			Eval[bool](p, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
			what := fmt.Sprintf("%s %d×%d", lang, sz.w, sz.h)
			s := Eval[ShownHeader](p, HeaderShown)
			p.Screenshot(filepath.Join(dir, fmt.Sprintf("header-%s-%dx%d.png", lang, sz.w, sz.h)))
			t.Logf("%s: header %.1f px, seat 0's store ends at %.0f of %.0f", what, s.Header, s.Stores[0][3], s.H)
			if s.Header > maxHeader {
				t.Errorf("%s: the header is %.1f px tall, want at most %d", what, s.Header, maxHeader)
			}
			if s.ScrollX > 0 {
				t.Errorf("%s: the page is %.0f px wider than the window", what, s.ScrollX)
			}
			checkControls(t, what, s)
			in := func(b [4]float64) bool { return b[0] >= 0 && b[1] >= 0 && b[2] <= s.W && b[3] <= s.H && b[2] > b[0] }
			if !in(s.Board) {
				t.Errorf("%s: the board is at %v, want it whole in the %.0f×%.0f window", what, s.Board, s.W, s.H)
			}
			for seat, b := range s.Stores {
				if !in(b) {
					t.Errorf("%s: seat %d's store is at %v, want it whole in the %.0f×%.0f window", what, seat, b, s.W, s.H)
				}
			}
		}
	}
	// On a desktop the header is one line, its controls in reading order.
	p.Do(chromedp.EmulateViewport(1280, 800))
	for _, lang := range []string{"en", "fa"} {
		SetLang(p, lang)
		s := Eval[ShownHeader](p, HeaderShown)
		p.Screenshot(filepath.Join(dir, "header-"+lang+"-1280x800.png"))
		if s.Header > 70 {
			t.Errorf("%s 1280×800: the header is %.1f px tall, want one line (70 px at most)", lang, s.Header)
		}
		checkControls(t, lang+" 1280×800", s)
	}
	// A small tablet: the header may take two lines, in reading order.
	p.Do(chromedp.EmulateViewport(768, 1024))
	Eval[bool](p, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
	p.Screenshot(filepath.Join(dir, "header-fa-768x1024.png"))
	checkControls(t, "fa 768×1024", Eval[ShownHeader](p, HeaderShown))
}

// checkControls checks the header's controls: five of them (the account,
// the lobby, Your games, How to play, the language), each in the window,
// named, at least 24×24 pixels, and each after the one before it in
// reading order: on the same line further along (to the right, or to the
// left right to left), or on a line below.
func checkControls(t *testing.T, what string, s ShownHeader) {
	t.Helper()
	if len(s.Controls) < 5 {
		t.Errorf("%s: %d controls shown in the header, want 5 or more", what, len(s.Controls))
	}
	for i, c := range s.Controls {
		b := c.Box
		if b[0] < 0 || b[1] < 0 || b[2] > s.W || b[3] > s.H {
			t.Errorf("%s: %s is at %v, outside the %.0f×%.0f window", what, c.ID, b, s.W, s.H)
		}
		if b[2]-b[0] < 24 || b[3]-b[1] < 24 {
			t.Errorf("%s: %s is %.1f×%.1f px, want at least 24×24", what, c.ID, b[2]-b[0], b[3]-b[1])
		}
		if c.Name == "" {
			t.Errorf("%s: %s has no name", what, c.ID)
		}
		if i == 0 {
			continue
		}
		a := s.Controls[i-1].Box
		sameLine := b[1] < a[3] && a[1] < b[3]
		along := b[0] >= a[2]-1
		if s.RTL {
			along = b[2] <= a[0]+1
		}
		if sameLine && !along || !sameLine && b[1] < a[3] {
			t.Errorf("%s: the keyboard reaches %s (%v) after %s (%v), out of reading order", what, c.ID, b, s.Controls[i-1].ID, a)
		}
	}
}
