package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	. "oanquan/e2e/internal/browsertest"
)

// TestSettingKeepsNoKeys: after a setting is changed with the mouse (the
// focus stays on it), ←/→ still choose a square and leave the setting be.
func TestSettingKeepsNoKeys(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Wait(Ready, 20*time.Second)
	for _, id := range []string{"anim", "level", "lang"} {
		value := map[string]string{"anim": "fast", "level": "medium", "lang": "en"}[id]
		p.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(s => { s.focus(); s.value = %q; s.dispatchEvent(new Event('change')); })(document.getElementById(%q))`, value, id)))
		time.Sleep(100 * time.Millisecond)
		p.Do(chromedp.KeyEvent(kb.ArrowRight))
		p.Wait(`document.querySelector('#game-board .cell.selected')`, 5*time.Second)
		if got := Eval[string](p, fmt.Sprintf(`document.getElementById(%q).value`, id)); got != value {
			t.Errorf("→ after setting %s changed it to %q", id, got)
		}
		p.Do(chromedp.KeyEvent(kb.Escape))
	}
}

// TestFrenchDialogFits: no choice of the new game's settings is cut, in
// French on a phone ("Deux joueurs, un seul appareil").
func TestFrenchDialogFits(t *testing.T) {
	p := NewPage(t, 360, 740, `{"mode":"ai","level":"easy","anim":"off","first":0}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	p.Wait(Ready, 20*time.Second)
	p.Do(chromedp.Evaluate[chromedp.Void](`(s => { s.value = 'fr'; s.dispatchEvent(new Event('change')); })(document.getElementById('lang'))`))
	p.Wait(`document.documentElement.lang === 'fr'`, 5*time.Second)
	p.Do(chromedp.Click(chromedp.CSS("#new")))
	p.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	cut := Eval[[]string](p, `[...document.querySelectorAll('#newgame label, #newgame button, #newgame legend')].filter((e) => e.offsetParent && (e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth)).map((e) => e.textContent.trim())`)
	if len(cut) > 0 {
		t.Errorf("cut in French: %q", cut)
	}
	if got := Eval[string](p, `document.querySelector('#newgame input[value=local]').closest('label').textContent.trim()`); got != "Deux joueurs, un seul appareil" {
		t.Errorf("the two-player choice reads %q", got)
	}
	p.Screenshot(filepath.Join(ShotDir(t), "newgame-360x740-fr.png"))
}

// TestPhoneArrowsCoverNothing: on a phone the big arrows sit in the strip
// under the board, clear of both stores and of the squares.
func TestPhoneArrowsCoverNothing(t *testing.T) {
	p := NewPage(t, 360, 740, `{"mode":"local","anim":"off","first":0}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	p.Wait(Ready, 20*time.Second)
	for _, c := range []int{6, 10} {
		p.Do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`#game-board button.cell[data-cell="%d"]`, c))))
		p.Wait(`document.querySelector('.arrows .arrow')`, 5*time.Second)
		hits := Eval[[]string](p, `(() => {
			const over = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
			const out = [];
			for (const arrow of document.querySelectorAll('.arrows .arrow')) {
				const a = arrow.getBoundingClientRect();
				for (const e of document.querySelectorAll('#store-0, #store-1, #game-board .cell, .actions button')) if (over(a, e.getBoundingClientRect())) out.push(arrow.dataset.dir + ' over ' + (e.id || 'cell ' + e.dataset.cell));
				if (a.left < 0 || a.right > innerWidth) out.push(arrow.dataset.dir + ' off screen');
			}
			return out;
		})()`)
		if len(hits) > 0 {
			t.Errorf("square %d chosen: %q", c, hits)
		}
	}
}

// TestSoundSwitch: the sound switch says its state and is remembered.
func TestSoundSwitch(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Wait(Ready, 20*time.Second)
	if got := Eval[string](p, `document.getElementById('sound').getAttribute('aria-pressed')`); got != "true" {
		t.Errorf("sound switch starts %q, want true", got)
	}
	p.Do(chromedp.Click(chromedp.CSS("#sound")))
	p.Wait(`document.getElementById('sound').getAttribute('aria-pressed') === 'false'`, 5*time.Second)
	p.Do(chromedp.Reload())
	p.WaitStarted()
	p.Wait(`document.getElementById('sound').getAttribute('aria-pressed') === 'false'`, 5*time.Second)
}

// TestWatching: a game opened without its seat secret (someone else's
// link) is shown live and read-only, with a note.
func TestWatching(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"fast","first":0}`)
	res, err := http.Post(p.Base+"/api/games", "application/json", strings.NewReader(`{"mode":"local"}`))
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ ID, Secret string }
	err = json.NewDecoder(res.Body).Decode(&st)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	p.Do(chromedp.Navigate(p.Base + "/?game=" + st.ID))
	p.Wait(`document.documentElement.dataset.live === 'on' && !document.getElementById('watching').hidden && document.querySelectorAll('#game-board .cell .pb').length > 0`, 10*time.Second)
	if n := Eval[int](p, `document.querySelectorAll('#game-board button.cell.legal').length`); n != 0 {
		t.Errorf("watching: %d squares offered", n)
	}
	if !Eval[bool](p, `document.getElementById('hint').disabled && document.getElementById('undo').disabled`) {
		t.Error("watching: hint or undo offered")
	}
	// A move made elsewhere shows here.
	req, _ := http.NewRequest("POST", p.Base+"/api/games/"+st.ID+"/moves", strings.NewReader(`{"move":"7R"}`))
	req.Header.Set("Content-Type", "application/json")
	if st.Secret != "" {
		req.Header.Set("Authorization", "Bearer "+st.Secret)
	}
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("move: status %d", res.StatusCode)
	}
	p.Wait(MovesShown+` === 1 && !document.getElementById('skip').matches(':enabled')`, 10*time.Second)
	if n := Eval[int](p, `document.querySelectorAll('#game-board button.cell.legal').length`); n != 0 {
		t.Errorf("watching, after a move: %d squares offered", n)
	}
}

// TestRateLimitedMessage: a 429 (rate_limited) is answered with a polite
// message that says how long to wait (the answer is made in the page, so
// that no server has to be pushed over its limit).
func TestRateLimitedMessage(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Wait(Ready, 20*time.Second)
	p.Do(chromedp.Evaluate[chromedp.Void](`(() => {
		const real = window.fetch;
		window.fetch = (u, init) => String(u).includes('/hints')
			? Promise.resolve(new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'too many' } }), { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '7' } }))
			: real(u, init);
	})()`), chromedp.Click(chromedp.CSS("#hint")))
	p.Wait(`document.getElementById('alert').textContent === 'Too many requests just now: please wait 7 s and try again.'`, 5*time.Second)
}
