package e2e

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	. "oanquan/e2e/internal/browsertest"
)

// Issue 18, item 11: the smaller things that trip a newcomer.

// TestTurnLogInWords: the Turns list says each move's square and the way
// it sows on screen in the page's language (the arrow it was played
// with), not the notation's L and R; in Vietnamese and Persian too.
func TestTurnLogInWords(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Wait(Ready, 20*time.Second)
	cell := Eval[int](p, `Number(document.querySelector('#game-board button.cell.legal').dataset.cell)`)
	p.Do(
		chromedp.Click(chromedp.CSS(`#game-board button.cell[data-cell="`+strconv.Itoa(cell)+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.arrows .arrow[data-dir="right"]`)),
		chromedp.Click(chromedp.CSS(`.arrows .arrow[data-dir="right"]`)),
	)
	p.Wait(MovesShown+` === 2 && `+Ready, 20*time.Second)
	notation := regexp.MustCompile(`\b\d+[LR]\b|[0-9۰-۹]+\s*[LR]\b`)
	for _, c := range []struct{ lang, mine, dir string }{
		{"en", "You play square", "to the right ▶"},
		{"vi", "Bạn đi ô", "rải sang phải ▶"},
		{"fa", "حرکت شما: خانهٔ", "به راست ▶"},
		{"fr", "Vous jouez la case", "vers la droite ▶"},
		{"ca", "Jugues la casella", "cap a la dreta ▶"},
		{"de", "Du spielst Feld", "nach rechts ▶"},
	} {
		SetLang(p, c.lang)
		rows := Eval[[]string](p, `[...document.querySelectorAll('#turns details summary')].map(s => s.textContent)`)
		if len(rows) != 2 {
			t.Fatalf("%s: the Turns list has %d rows, want 2: %q", c.lang, len(rows), rows)
		}
		if !strings.Contains(rows[0], c.mine) || !strings.Contains(rows[0], c.dir) {
			t.Errorf("%s: the first row says %q, want %q and %q", c.lang, rows[0], c.mine, c.dir)
		}
		for _, r := range rows {
			if notation.MatchString(r) {
				t.Errorf("%s: a row of the Turns list writes the notation's L/R: %q", c.lang, r)
			}
		}
		if c.lang == "fa" {
			p.Screenshot(filepath.Join(ShotDir(t), "turn-log-fa.png"))
		}
	}
}
