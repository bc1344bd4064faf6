package e2e

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Issue 18, item 11: the smaller things that trip a newcomer.

// TestComputerOpeningShown: when the computer plays first, its opening
// move is shown played — the hand carries the pebbles round and the live
// region says the move — not only its result. (The move is made while
// the page opens its WebSocket; a new subscriber got only the state, so
// the board jumped.)
func TestComputerOpeningShown(t *testing.T) {
	t.Parallel() // waits more than it works: runs beside another (doc.go)
	p := newPage(t, 1200, 900, `{"mode":"ai","level":"easy","first":0}`)
	p.wait(ready, 20*time.Second)
	openingShown(t, p)
}

// TestComputerOpeningShownOffline: the same with the server out of reach,
// the games kept in the browser, whose engine may have played the
// computer's move before the page subscribed to the game's updates.
func TestComputerOpeningShownOffline(t *testing.T) {
	t.Parallel() // waits more than it works: runs beside another (doc.go)
	p := newPage(t, 1200, 900, `{"mode":"ai","level":"easy","first":0}`)
	p.wait(controlled, 30*time.Second)
	p.wait(ready, 20*time.Second)
	p.offline(true)
	openingShown(t, p)
	p.forgetUnreachable()
	if !eval[bool](p, localGame) {
		t.Error("the games were not the browser's own: the test did not play offline")
	}
}

// openingShown starts three games in which the computer moves first, from
// the new game dialog, and requires its opening move animated and said in
// the live region each time.
func openingShown(t *testing.T, p *page) {
	t.Helper()
	for range 3 { // the computer is fast or not: each time
		p.do(chromedp.Evaluate[chromedp.Void](`window.handSeen = false; window.said = [];
			new MutationObserver(() => { const h = document.querySelector('#fly .hand'); if (h && !h.hidden) window.handSeen = true; })
				.observe(document.getElementById('fly'), {subtree: true, childList: true, attributes: true});
			new MutationObserver(() => window.said.push(document.getElementById('announce').textContent))
				.observe(document.getElementById('announce'), {subtree: true, childList: true, characterData: true})`))
		before := eval[string](p, gameID)
		click(p, "#new")
		p.wait(`document.getElementById('newgame').open`, 5*time.Second)
		click(p, `#newgame-form input[name=first][value="1"]`)
		click(p, "#newgame-start")
		p.wait(fmt.Sprintf(`(%s) !== %q`, gameID, before), 10*time.Second)
		// Said once its showing ends (the board may still show the game
		// before for a frame: its moves and squares are no sign).
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if slicesContain(eval[[]string](p, `window.said`), "Computer plays square") {
				break
			}
		}
		if said := eval[[]string](p, `window.said`); !slicesContain(said, "Computer plays square") {
			t.Fatalf("the live region did not say the computer's opening move: %q", said)
		}
		if !eval[bool](p, `window.handSeen`) {
			t.Error("the computer's opening move was not animated")
		}
		p.wait(movesShown+` === 1 && `+ready, 10*time.Second)
	}
}

func slicesContain(list []string, part string) bool {
	for _, s := range list {
		if strings.Contains(s, part) {
			return true
		}
	}
	return false
}

// TestTurnLogInWords: the Turns list says each move's square and the way
// it sows on screen in the page's language (the arrow it was played
// with), not the notation's L and R; in Vietnamese and Persian too.
func TestTurnLogInWords(t *testing.T) {
	p := newPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.wait(ready, 20*time.Second)
	cell := eval[int](p, `Number(document.querySelector('#game-board button.cell.legal').dataset.cell)`)
	p.do(
		chromedp.Click(chromedp.CSS(`#game-board button.cell[data-cell="`+strconv.Itoa(cell)+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.arrows .arrow[data-dir="right"]`)),
		chromedp.Click(chromedp.CSS(`.arrows .arrow[data-dir="right"]`)),
	)
	p.wait(movesShown+` === 2 && `+ready, 20*time.Second)
	notation := regexp.MustCompile(`\b\d+[LR]\b|[0-9۰-۹]+\s*[LR]\b`)
	for _, c := range []struct{ lang, mine, dir string }{
		{"en", "You play square", "to the right ▶"},
		{"vi", "Bạn đi ô", "rải sang phải ▶"},
		{"fa", "حرکت شما: خانهٔ", "به راست ▶"},
		{"fr", "Vous jouez la case", "vers la droite ▶"},
		{"ca", "Jugues la casella", "cap a la dreta ▶"},
		{"de", "Du spielst Feld", "nach rechts ▶"},
	} {
		setLang(p, c.lang)
		rows := eval[[]string](p, `[...document.querySelectorAll('#turns details summary')].map(s => s.textContent)`)
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
			p.screenshot(filepath.Join(shotDir(t), "turn-log-fa.png"))
		}
	}
}

// handOverPresence samples, while a turn is shown, how many pixels of
// the flying hand (its count badge included) lie over the presence line;
// it returns the most seen.
const handOverPresence = `new Promise((done) => {
	let most = 0, shot = null;
	const over = () => {
		const h = document.querySelector('#fly .hand');
		const p = document.getElementById('presence');
		if (!h || h.hidden || !p || !p.textContent) return;
		const q = p.getBoundingClientRect();
		for (const e of [h, h.lastChild]) {
			const r = e.getBoundingClientRect();
			const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
			const t = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
			if (w > 0 && t > 0) most = Math.max(most, Math.round(w * t));
		}
	};
	const id = setInterval(over, 16);
	setTimeout(() => { clearInterval(id); done(most); }, 6000);
})`

// TestHandClearOfPresence: the hand that carries the pebbles round never
// covers the presence line ("Your friend is here") while the other
// player's move is shown on the row nearest it: it rose above the top
// row, over the line just above the board, on a desktop and on a phone
// held sideways.
func TestHandClearOfPresence(t *testing.T) {
	realServer(t)
	a := newPage(t, 1200, 900, `{"mode":"online","first":0}`)
	click(a, "#new")
	a.wait(`document.getElementById('newgame').open`, 5*time.Second)
	click(a, "#newgame-start")
	a.wait(`document.getElementById('invite-link')?.value.includes('?game=')`, 10*time.Second)
	link := eval[string](a, `document.getElementById('invite-link').value`)
	rng := rand.New(rand.NewPCG(11, 18))
	b := newPage(t, 360, 740, `{}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b.do(chromedp.Navigate(link))
	b.wait(`document.documentElement.dataset.live === 'on' && document.getElementById('presence')?.textContent.includes('Your friend is here')`, 15*time.Second)
	for _, size := range [][2]int{{390, 844}, {844, 390}} {
		b.do(chromedp.EmulateViewport(int64(size[0]), int64(size[1]), chromedp.EmulateMobile, chromedp.EmulateTouch))
		for range 4 {
			m := toMove(t, a, b)
			watcher := map[*page]*page{a: b, b: a}[m]
			sample := make(chan int, 1)
			go func() { sample <- int(eval[float64](watcher, handOverPresence)) }()
			time.Sleep(100 * time.Millisecond)
			playRandomOnline(t, rng, m)
			time.Sleep(700 * time.Millisecond) // the hand on its way
			watcher.screenshot(filepath.Join(shotDir(t), fmt.Sprintf("hand-%s.png", map[*page]string{a: "desktop", b: fmt.Sprintf("phone-%dx%d", size[0], size[1])}[watcher])))
			if over := <-sample; over > 0 {
				where := "the desktop"
				if watcher == b {
					where = fmt.Sprintf("the phone, %dx%d", size[0], size[1])
				}
				t.Errorf("%s: the flying hand covered %d px² of the presence line", where, over)
				watcher.screenshot(filepath.Join(shotDir(t), "hand-over-presence.png"))
			}
			for _, p := range []*page{a, b} {
				p.wait(`!document.querySelector('#fly .hand') || document.querySelector('#fly .hand').hidden`, 20*time.Second)
			}
		}
	}
}

// playRandomOnline plays a random offered move on p's page.
func playRandomOnline(t *testing.T, rng *rand.Rand, p *page) {
	t.Helper()
	cells := eval[[]int](p, `[...document.querySelectorAll('#game-board button.cell.legal')].map(b => Number(b.dataset.cell))`)
	if len(cells) == 0 {
		t.Fatal("no square offered")
	}
	dir := []string{"left", "right"}[rng.IntN(2)]
	p.do(
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#game-board button.cell[data-cell="%d"]`, cells[rng.IntN(len(cells))]))),
		chromedp.WaitVisible(chromedp.CSS(`.arrows .arrow[data-dir="`+dir+`"]`)),
		chromedp.Click(chromedp.CSS(`.arrows .arrow[data-dir="`+dir+`"]`)),
	)
}
