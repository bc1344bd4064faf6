package e2e

import (
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	. "oanquan/e2e/internal/browsertest"
)

// TestAxe audits the page with axe-core when AXE_JS names axe.min.js
// (it is not part of this repository; .ci/run fetches it with npm into a
// temporary folder, and docs/WEB.md says how to by hand). Under CI=true it
// must run.
func TestAxe(t *testing.T) {
	file := os.Getenv("AXE_JS")
	if file == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("AXE_JS is not set: CI must run the accessibility audit (.ci/run fetches axe-core)")
		}
		t.Skip("set AXE_JS=/path/to/axe.min.js to run axe-core")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	audit := func(p *Page, what string) {
		t.Helper()
		p.Do(chromedp.Evaluate[chromedp.Void](string(src)))
		for _, v := range Eval[[]string](p, AxeRun) {
			t.Errorf("%s: %s", what, v)
		}
	}
	for _, c := range []struct {
		name string
		w, h int
		dark bool
	}{{"desktop", 1200, 900, false}, {"desktop dark", 1200, 900, true}, {"phone", 360, 740, false}, {"phone dark", 360, 740, true}} {
		t.Run(c.name, func(t *testing.T) {
			p := NewPage(t, c.w, c.h, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
			p.Do(ColorScheme(c.dark))
			p.Wait(Ready, 20*time.Second)
			audit(p, "start")
			p.Do(chromedp.KeyEvent(kb.ArrowRight + "x"))
			p.Wait(Ready, 20*time.Second)
			p.Do(chromedp.KeyEvent(kb.ArrowRight))
			audit(p, "in play, square chosen")
			p.Do(chromedp.Evaluate[chromedp.Void](`(s => { s.value = 'fa'; s.dispatchEvent(new Event('change')); })(document.getElementById('lang'))`))
			p.Wait(`document.documentElement.dir === 'rtl'`, 5*time.Second)
			audit(p, "Persian")
			p.Do(chromedp.Click(chromedp.CSS("#new")))
			p.Wait(`document.getElementById('newgame').open`, 5*time.Second)
			audit(p, "new game dialog, Persian")
			p.Do(chromedp.Click(chromedp.CSS("#newgame-cancel")))
			p.Do(chromedp.Evaluate[chromedp.Void](`location.hash = '#howto'`))
			p.Wait(`document.querySelector('#howto-body .board.mini')`, 10*time.Second)
			audit(p, "how to play")
		})
	}
	t.Run("dialog and final count", func(t *testing.T) {
		p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
		p.Wait(Ready, 20*time.Second)
		rng := rand.New(rand.NewPCG(9, 10))
		PlayByKeyboard(p, rng)
		p.Do(chromedp.Click(chromedp.CSS("#new")))
		p.Wait(`document.getElementById('newgame').open`, 5*time.Second)
		audit(p, "new game dialog")
		p.Do(chromedp.Click(chromedp.CSS("#newgame-cancel")))
		for i := 0; !p.Over(); i++ {
			if i == 200 {
				t.Fatal("no end after 200 moves")
			}
			PlayByKeyboard(p, rng)
		}
		audit(p, "final count")
		p.Do(chromedp.Click(chromedp.CSS("#result-review")))
		p.Wait(`document.getElementById('review-status')?.textContent === 'Review done.'`, 60*time.Second)
		audit(p, "game review")
		// The review closed, "Final count" clicked at once where it stands:
		// the replay bar is drawn again with the close (app.js closeReview
		// flushes), not a frame later with the button moved away from under
		// the click (67 px at this width): that click opened nothing, twice
		// in about thirty runs.
		at := Eval[[]float64](p, `(() => { document.getElementById('review-close').click(); const b = document.getElementById('result-open').getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; })()`)
		p.Do(chromedp.MouseClickXY(at[0], at[1]))
		p.Wait(`document.getElementById('result').open`, 5*time.Second)
		p.Do(chromedp.Evaluate[chromedp.Void](`(s => { s.value = 'fa'; s.dispatchEvent(new Event('change')); })(document.getElementById('lang'))`))
		p.Wait(`document.documentElement.dir === 'rtl'`, 5*time.Second)
		audit(p, "final count, Persian")
		p.Do(ColorScheme(true))
		audit(p, "final count, Persian, dark")
		p.Do(chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile, chromedp.EmulateTouch))
		audit(p, "final count, Persian, dark, phone")
	})
	t.Run("online", func(t *testing.T) {
		p := NewPage(t, 1200, 900, `{"mode":"online","first":1,"anim":"off"}`)
		p.Do(chromedp.Click(chromedp.CSS("#new")))
		p.Wait(`document.getElementById('newgame').open`, 5*time.Second)
		audit(p, "new game dialog, online")
		p.Do(chromedp.Click(chromedp.CSS("#newgame-start")))
		p.Wait(`document.getElementById('invite')?.hidden === false && document.getElementById('invite-qr').complete`, 10*time.Second)
		audit(p, "invitation")
		// The friend joins and offers a draw, through the API.
		id := Eval[string](p, `new URLSearchParams(location.search).get('game') || localStorage.getItem('oanquan.game')`)
		var joined struct{ Secret string }
		APICall(t, p.Base, "POST", "/api/games/"+id+"/join", "", "", &joined)
		APICall(t, p.Base, "POST", "/api/games/"+id+"/draw", joined.Secret, `{"action":"offer"}`, nil)
		p.Wait(`document.getElementById('offer')?.hidden === false`, 10*time.Second)
		audit(p, "an offer to answer")
		p.Do(chromedp.Click(chromedp.CSS("#seat-move-summary")))
		p.Do(chromedp.Click(chromedp.CSS("#nav-games")))
		p.Wait(`document.querySelectorAll('#games-list .game-row').length > 0`, 10*time.Second)
		audit(p, "your games")
	})
}
