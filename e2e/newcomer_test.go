package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// auditNew runs axe-core on the page when AXE_JS names axe.min.js
// (TestAxe says where it comes from), failing the test for each
// violation; without it, it does nothing.
func auditNew(p *page, what string) {
	p.t.Helper()
	file := os.Getenv("AXE_JS")
	if file == "" {
		return
	}
	src, err := os.ReadFile(file)
	if err != nil {
		p.t.Fatal(err)
	}
	p.do(chromedp.Evaluate[chromedp.Void](string(src)))
	for _, v := range eval[[]string](p, axeRun) {
		p.t.Errorf("%s: %s", what, v)
	}
}

// setLang switches the page to language code.
func setLang(p *page, code string) {
	p.t.Helper()
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(s => { s.value = %q; s.dispatchEvent(new Event('change')); })(document.getElementById('lang'))`, code)))
	p.wait(fmt.Sprintf(`document.documentElement.lang === %q`, code), 10*time.Second)
}

// TestPointsAtAGlance: each store shows its points as the server counts
// them (debts settled) and the one ahead says by how much; a mandarin
// square shows its stone's worth rather than a count of 0; in
// Vietnamese and Persian too, on a desktop and a phone, light and dark.
func TestPointsAtAGlance(t *testing.T) {
	p := newPage(t, 1280, 800, `{"mode":"local","anim":"fast","first":0}`)
	// Seed 001's ending: player 1 holds 23 pebbles and owes 2, player 2 a
	// mandarin and 13 pebbles; the right mandarin square has its stone.
	playSetUp(p, "2/2/2/2/2/0/1/1/1/1/0/0* 0 23,0,2 13,1,0 20")
	stores := p.gameState()["stores"].([]any)
	points := func(i int) int { return int(stores[i].(map[string]any)["points"].(float64)) }
	if points(0) != 21 || points(1) != 25 {
		t.Fatalf("the server counts the stores at %d and %d points, want 21 and 25", points(0), points(1))
	}
	read := func(sel string) string {
		return eval[string](p, fmt.Sprintf(`(e => e && e.offsetParent ? e.textContent : '')(document.querySelector(%q))`, sel))
	}
	check := func(lang, p0, p1, lead, stone string) {
		t.Helper()
		if got := read("#store-0 .store-points strong"); got != p0 {
			t.Errorf("%s: player 1's store shows %q, want %q", lang, got, p0)
		}
		if got := read("#store-1 .store-points strong"); got != p1 {
			t.Errorf("%s: player 2's store shows %q, want %q", lang, got, p1)
		}
		if got := read("#store-1 .lead"); got != lead {
			t.Errorf("%s: player 2's lead reads %q, want %q", lang, got, lead)
		}
		if got := read("#store-0 .lead"); got != "" {
			t.Errorf("%s: player 1, behind, is said to lead: %q", lang, got)
		}
		right := `#game-board .cell[data-cell="11"]`
		if got := eval[string](p, `getComputedStyle(document.querySelector('`+right+` .stone'), '::before').content`); got != `"`+stone+`"` {
			t.Errorf("%s: the right mandarin's stone reads %s, want %q", lang, got, stone)
		}
		if got := eval[string](p, `document.querySelector('`+right+` .count').dataset.v`); got != "" {
			t.Errorf("%s: a mandarin square holding only its stone shows the count %q", lang, got)
		}
	}
	check("en", "21 points", "25 points", "leads by 4 points", "10")
	if got := eval[string](p, `document.querySelector('#game-board .cell[data-cell="11"]').getAttribute('aria-label')`); got != "Right mandarin square, mandarin stone (10 points)" {
		t.Errorf("the right mandarin square is named %q", got)
	}
	auditNew(p, "points, English")
	shots := shotDir(t)
	for _, c := range []struct{ lang, p0, p1, lead, stone string }{
		{"vi", "21 điểm", "25 điểm", "dẫn trước 4 điểm", "10"},
		{"fa", "۲۱ امتیاز", "۲۵ امتیاز", "۴ امتیاز جلوتر", "۱۰"},
	} {
		setLang(p, c.lang)
		for _, v := range []struct {
			name string
			w, h int
			dark bool
		}{{"desktop", 1280, 800, false}, {"phone-dark", 360, 740, true}, {"phone", 360, 740, false}} {
			if v.w < 400 {
				p.do(chromedp.EmulateViewport(int64(v.w), int64(v.h), chromedp.EmulateMobile, chromedp.EmulateTouch))
			} else {
				p.do(chromedp.EmulateViewport(int64(v.w), int64(v.h)))
			}
			p.do(colorScheme(v.dark))
			check(c.lang+" "+v.name, c.p0, c.p1, c.lead, c.stone)
			auditNew(p, "points, "+c.lang+" "+v.name)
			p.screenshot(filepath.Join(shots, fmt.Sprintf("points-%s-%s.png", c.lang, v.name)))
		}
	}
	// Square 7 to the right ends the game (TestFinalCountLikeSeed): the
	// points shown are then the server's.
	setLang(p, "en")
	p.do(chromedp.EmulateViewport(1280, 800))
	p.do(chromedp.Click(chromedp.CSS(`#game-board .cell[data-cell="8"]`)), chromedp.Click(chromedp.CSS(`#game-board .cell[data-cell="8"] ~ .arrows .arrow[data-dir="right"]`)))
	p.wait(`document.getElementById('result').open`, 20*time.Second)
	stores = p.gameState()["stores"].([]any)
	for i := range 2 {
		if got, want := read(fmt.Sprintf("#store-%d .store-points strong", i)), fmt.Sprintf("%d points", points(i)); got != want {
			t.Errorf("after the last move player %d's store shows %q, the server counts %s", i+1, got, want)
		}
	}
}
