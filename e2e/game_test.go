package e2e

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	. "oanquan/e2e/internal/browsertest"
)

var startCells = []int{5, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5, 0}

func checkShownMatchesServer(p *Page) {
	p.T.Helper()
	st := p.GameState()
	var want []int
	for _, v := range st["cells"].([]any) {
		want = append(want, int(v.(float64)))
	}
	if st["over"] == true {
		return // the board after the final sweep
	}
	if got := p.ShownCells(); !slices.Equal(got, want) {
		p.T.Errorf("board shows %v, server has %v", got, want)
	}
}

func TestKeyboardGameAgainstEasy(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	rng := rand.New(rand.NewPCG(1, 2))
	p.Wait(Ready, 20*time.Second)

	// First move with Tab and Enter only: Tab to a highlighted square,
	// Enter shows the arrows, Tab reaches "Sow left", Enter sows.
	for i := 0; !Eval[bool](p, `document.activeElement.matches('#game-board button.cell.legal')`); i++ {
		if i == 15 {
			t.Fatal("Tab never reaches a highlighted square")
		}
		p.Do(chromedp.KeyEvent(kb.Tab))
	}
	c := Eval[int](p, `Number(document.activeElement.dataset.cell)`)
	p.Do(chromedp.KeyEvent(kb.Enter + kb.Tab))
	if got := Eval[string](p, `document.activeElement.getAttribute('aria-label')`); got != "Sow left" {
		t.Fatalf("Tab after choosing a square reaches %q, want Sow left", got)
	}
	p.Do(chromedp.KeyEvent(kb.Enter))
	p.Wait(MovesShown+` > 0 && `+Ready, 30*time.Second)
	CheckDirection(p, 0, c, "left")

	for i := 0; !p.Over(); i++ {
		if i == 200 {
			t.Fatal("no end after 200 moves")
		}
		PlayByKeyboard(p, rng)
		if i%10 == 0 {
			checkShownMatchesServer(p)
		}
	}
	t.Logf("game over after %d moves", Eval[int](p, MovesShown))
	CheckFinalCount(p)
	// The ending's "New game" has focus: Enter opens the new game's
	// settings, with "Start" focused; Enter starts it.
	if got := Eval[string](p, `document.activeElement.id`); got != "result-new" {
		t.Errorf("the ending dialog focuses %q, want result-new", got)
	}
	p.Do(chromedp.KeyEvent(kb.Enter))
	p.Wait(`document.getElementById('newgame').open && document.activeElement.id === 'newgame-start'`, 5*time.Second)
	p.Do(chromedp.KeyEvent(kb.Enter))
	p.Wait(MovesShown+` === 0 && !document.getElementById('result').open`, 10*time.Second)
	p.Wait(Ready, 10*time.Second)
}

func TestTwoPlayersByClicksOnPhone(t *testing.T) {
	p := NewPage(t, 360, 740, `{"mode":"local","anim":"off","first":0}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	p.Wait(Ready, 20*time.Second)
	if w := Eval[int](p, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("page is %d px wide in a 360 px viewport", w)
	}
	// Touch targets of 44 px, but in the header: its five controls are 34
	// px tall on phones, so that it takes no more of the board's room than
	// before the account and the lobby joined it (TestPhoneHeader checks
	// them at 24 px or more, WCAG 2.2's smallest target).
	small := Eval[[]string](p, `[...document.querySelectorAll('button, select, a.btn, input')].filter(e => e.offsetParent).map(e => [e, e.getBoundingClientRect(), e.closest('.top') ? 34 : 44]).filter(([e, r, min]) => e.type === 'checkbox' ? (e.closest('label').getBoundingClientRect().height < min) : (r.width < min || r.height < min)).map(([e, r]) => (e.id || e.className || e.textContent) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))`)
	if len(small) > 0 {
		t.Errorf("touch targets under 44 px (34 in the header): %q", small)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; !p.Over(); i++ {
		if i == 300 {
			t.Fatal("no end after 300 moves")
		}
		// Both players play on this device, by turns.
		toMove := p.GameState()["toMove"].(float64)
		if top := Eval[bool](p, `document.querySelector('#game-board button.cell.legal').dataset.cell < 5`); top != (toMove == 1) {
			t.Fatalf("move %d: highlighted row is top=%v, but player %v is to move", i, top, toMove)
		}
		PlayByClicks(p, rng)
	}
	t.Logf("game over after %d moves", Eval[int](p, MovesShown))
	CheckFinalCount(p)
}

func TestAnimationOffAndSkip(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Wait(Ready, 20*time.Second)
	rng := rand.New(rand.NewPCG(5, 6))

	// Off: the moves appear at once, no animation to skip.
	start := time.Now()
	PlayByKeyboard(p, rng)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("with animation off a move and its reply took %v", d)
	}
	checkShownMatchesServer(p)

	// Normal: the skip button finishes the move in progress at once.
	p.Do(chromedp.Evaluate[chromedp.Void](`(s => { s.value = 'normal'; s.dispatchEvent(new Event('change')); })(document.getElementById('anim'))`))
	p.Do(chromedp.KeyEvent(kb.ArrowRight + "x"))
	p.Wait(`document.getElementById('skip').matches(':enabled')`, 10*time.Second)
	if got := Eval[string](p, `document.getElementById('status').textContent`); !strings.HasPrefix(got, "Sowing…") {
		t.Errorf("status while sowing = %q", got)
	}
	// One press skips the computer's reply too.
	p.Do(chromedp.Click(chromedp.CSS("#skip")))
	p.Wait(Ready+` && `+MovesShown+` === 4`, 10*time.Second)
	checkShownMatchesServer(p)
	if n := Eval[int](p, `document.querySelectorAll('#turns li').length`); n == 0 {
		t.Error("no messages about the turn")
	}
}

func TestUndoHintAndLastMove(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Wait(Ready, 20*time.Second)
	rng := rand.New(rand.NewPCG(7, 8))
	PlayByKeyboard(p, rng)
	if n := Eval[int](p, MovesShown); n != 2 {
		t.Fatalf("after one move and the reply the list has %d moves", n)
	}
	// The live region speaks the reply and whose turn it is now.
	p.Wait(`(a => a.includes('Computer plays') && a.endsWith('Your turn: pick a highlighted square.'))(document.getElementById('announce').textContent)`, 5*time.Second)
	if n := Eval[int](p, `document.querySelectorAll('#game-board .cell.last-start').length`); n != 1 {
		t.Errorf("last move: %d start squares marked, want 1", n)
	}
	if n := Eval[int](p, `document.querySelectorAll('#game-board .cell.last-path').length`); n == 0 {
		t.Error("last move: no path marked")
	}

	p.Do(chromedp.Click(chromedp.CSS("#undo")))
	p.Wait(MovesShown+` === 0`, 10*time.Second)
	if got := p.ShownCells(); !slices.Equal(got, startCells) {
		t.Errorf("after undo the board shows %v, want the start", got)
	}
	if ply := p.GameState()["ply"].(float64); ply != 0 {
		t.Errorf("after undo the server is at ply %v", ply)
	}

	p.Do(chromedp.Click(chromedp.CSS("#hint")))
	p.Wait(`document.querySelector('.arrows .arrow.hinted')`, 10*time.Second)
	if got := Eval[string](p, `document.querySelector('.arrows .arrow.hinted').getAttribute('aria-label')`); got != "Sow left (the hint)" && got != "Sow right (the hint)" {
		t.Errorf("hinted arrow named %q", got)
	}
}

func TestPersianAndBack(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Wait(Ready, 20*time.Second)
	setLang := func(code string) {
		p.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(s => { s.value = %q; s.dispatchEvent(new Event('change')); })(document.getElementById('lang'))`, code)))
		p.Wait(fmt.Sprintf(`document.documentElement.lang === %q`, code), 10*time.Second)
	}
	PlayByKeyboard(p, rand.New(rand.NewPCG(15, 16)))
	const messages = `document.getElementById('turns').textContent`
	english := Eval[string](p, messages)
	p.Do(chromedp.KeyEvent(kb.ArrowRight))
	p.Wait(`document.querySelector('.arrows .arrow')`, 5*time.Second)
	if got := Eval[string](p, `document.querySelector('.arrows .arrow[data-dir=left]').getAttribute('aria-label')`); got != "Sow left" {
		t.Errorf("left arrow named %q, want Sow left", got)
	}
	if got := Eval[string](p, `document.querySelector('#game-board button.cell[data-cell="7"]').getAttribute('aria-label')`); !regexp.MustCompile(`^Square 6, yours, \d+ pebbles?$`).MatchString(got) {
		t.Errorf("square 6 named %q", got)
	}

	setLang("fa")
	if dir := Eval[string](p, `document.documentElement.dir`); dir != "rtl" {
		t.Errorf("Persian page dir = %q, want rtl", dir)
	}
	// The board is drawn again at the next frame, in Persian.
	p.Wait(`(a => a && !['', 'Sow left'].includes(a.getAttribute('aria-label')))(document.querySelector('.arrows .arrow[data-dir=left]'))`, 5*time.Second)
	// The board keeps its layout: 4 3 2 1 0 on top, 5 … 9 below, left to right.
	xs := Eval[[]float64](p, `[5, 4, 0, 6, 10, 11].map(c => document.querySelector('#game-board .cell[data-cell="'+c+'"]').getBoundingClientRect().left)`)
	if !slices.IsSorted([]float64{xs[0], xs[1], xs[2]}) || !slices.IsSorted([]float64{xs[0], xs[3], xs[4], xs[5]}) {
		t.Errorf("in Persian the board is laid out at x = %v", xs)
	}
	if got := Eval[string](p, messages); got == english || got == "" {
		t.Errorf("the turn's messages stay %q in Persian", got)
	}
	if w := Eval[int](p, `document.documentElement.scrollWidth`); w > 1200 {
		t.Errorf("in Persian the page is %d px wide in a 1200 px viewport", w)
	}
	if got := Eval[string](p, `[...document.querySelectorAll('#moves .n, #turns summary .n')].map((n) => n.textContent).join(' ')`); got == "" || regexp.MustCompile(`[0-9]`).MatchString(got) {
		t.Errorf("in Persian the turn numbers read %q, want Persian digits", got)
	}
	if got := Eval[string](p, `document.getElementById('undo').textContent + ' ' + document.getElementById('level').selectedOptions[0].textContent`); got == "Undo Easy" {
		t.Errorf("controls not translated: %q", got)
	}

	// Remembered across a reload.
	p.Do(chromedp.Reload())
	p.WaitStarted()
	p.Wait(`document.documentElement.lang === 'fa' && document.documentElement.dir === 'rtl'`, 10*time.Second)

	setLang("en")
	if dir := Eval[string](p, `document.documentElement.dir`); dir != "ltr" {
		t.Errorf("English page dir = %q", dir)
	}
	p.Wait(`document.getElementById('status').textContent === 'Your turn: pick a highlighted square.'`, 5*time.Second)
}

func TestHowToPlay(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"ai","anim":"off"}`)
	p.Do(chromedp.Click(chromedp.CSS("#nav-howto")))
	p.Wait(`!document.getElementById('howto-view').hidden && document.querySelectorAll('#howto-body figure.mini-board .board.mini').length > 0`, 10*time.Second)
	n := Eval[int](p, `document.querySelectorAll('#howto-body figure.mini-board').length`)
	drawn := Eval[int](p, `document.querySelectorAll('#howto-body figure.mini-board .board.mini').length`)
	if n != drawn {
		t.Errorf("%d example boards, %d drawn", n, drawn)
	}
	if hl := Eval[int](p, `document.querySelectorAll('#howto-body .board.mini .cell.hl').length`); hl == 0 {
		t.Error("no highlighted square on the example boards")
	}
	// Every language's fragment, with its example boards.
	for _, code := range []string{"vi", "fr", "de", "ca", "fa", "en"} {
		p.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(s => { s.value = %q; s.dispatchEvent(new Event('change')); })(document.getElementById('lang'))`, code)))
		p.Wait(fmt.Sprintf(`document.getElementById('howto-body').dataset.lang === %q && document.querySelectorAll('#howto-body figure.mini-board').length > 0 && document.querySelectorAll('#howto-body figure.mini-board').length === document.querySelectorAll('#howto-body figure.mini-board .board.mini').length`, code), 10*time.Second)
	}
	p.Screenshot(filepath.Join(ShotDir(t), "howto-1200x900.png"))
	// The heading has the focus, without a box that looks like a field.
	if got := Eval[string](p, `document.activeElement.id + ' ' + getComputedStyle(document.activeElement).outlineStyle`); got != "howto-heading none" {
		t.Errorf("focused element and its outline: %q, want howto-heading none", got)
	}
	p.Do(chromedp.Click(chromedp.CSS(`#howto-view a[href="#"]`)))
	p.Wait(`!document.getElementById('game-view').hidden`, 5*time.Second)
}

// TestScreenshot takes the picture of docs/screenshot.png (a game in
// progress on a 1280×800 desktop, a square chosen) and checks it: a PNG of
// that size, of a page that showed the whole board, the moves played and
// the square chosen. UPDATE_SCREENSHOT=1 rewrites docs/screenshot.png.
func TestScreenshot(t *testing.T) {
	p := NewPage(t, 1280, 800, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Do(ColorScheme(false))
	p.Wait(Ready, 20*time.Second)
	rng := rand.New(rand.NewPCG(21, 22))
	for range 3 {
		PlayByKeyboard(p, rng)
	}
	p.Do(chromedp.KeyEvent(kb.ArrowRight+kb.ArrowRight), chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
	time.Sleep(100 * time.Millisecond)
	file := filepath.Join(t.TempDir(), "screenshot.png")
	if os.Getenv("UPDATE_SCREENSHOT") != "" {
		file = "../docs/screenshot.png"
	}
	checkShot(t, p, file, 1280, 800, 6)
}

// TestFinalCountLikeSeed plays the last move of a game set up so that
// the final count is seed 001's example: 10 + 23 + 4 − 2 = 35, with the
// debt shown beside the store that owes it before the end.
func TestFinalCountLikeSeed(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"local","anim":"fast","first":0}`)
	playSetUp(p, "2/2/2/2/2/0/1/1/1/1/0/0* 0 23,0,2 13,1,0 20")
	if got := Eval[string](p, `document.querySelector('#store-0 .debt')?.textContent || ''`); got != "owes 2" {
		t.Errorf("debt beside player 1's store = %q, want owes 2", got)
	}
	if n := Eval[int](p, `document.querySelectorAll('#store-1 .debt:not([hidden])').length`); n != 0 {
		t.Errorf("a debt is shown beside the store that is owed")
	}
	// Square 7 to the right: ←/→ reach it, X sows toward the screen's right.
	for i := 0; Eval[string](p, `document.querySelector('#game-board .cell.selected')?.dataset.cell || ''`) != "8"; i++ {
		if i == 6 {
			t.Fatal("the arrow keys never reach square 7")
		}
		p.Do(chromedp.KeyEvent(kb.ArrowRight))
	}
	p.Do(chromedp.KeyEvent("x"))
	p.Wait(`document.getElementById('result').open`, 20*time.Second)
	CheckFinalCount(p)
	terms := Eval[[]string](p, `[...document.querySelectorAll('#tallies .tally[data-player="0"] .term b')].map(b => b.textContent)`)
	line := Eval[string](p, `document.querySelector('#tallies .tally[data-player="0"]').textContent`)
	if want := []string{"10", "23", "4", "2", "35"}; !slices.Equal(terms, want) || !strings.Contains(line, "−") {
		t.Errorf("player 1's final count reads %q (terms %q), want 10 + 23 + 4 − 2 = 35", line, terms)
	}
	if got := Eval[string](p, `document.getElementById('winner').textContent`); got != "It's a draw." {
		t.Errorf("winner line %q", got)
	}
	// The + and = sit level with the numbers, not above them.
	if off := Eval[float64](p, `(() => { const mid = (e) => { const r = e.getBoundingClientRect(); return (r.top + r.bottom) / 2; }; const l = document.querySelector('#tallies .tally'); return Math.max(...[...l.querySelectorAll('.op')].map((o) => Math.abs(mid(o) - mid(l.querySelector('.term b'))))); })()`); off > 2 {
		t.Errorf("the final count's signs sit %.1f px off the numbers' middle", off)
	}
	// The captured square's mark is drawn, not written: nothing to read out.
	if got := Eval[string](p, `(c => c ? getComputedStyle(c, '::after').content + '|' + c.textContent : 'none')(document.querySelector('#game-board .cell.last-capture'))`); got != `""|` {
		t.Errorf("captured square's mark: content|text = %q, want an empty drawing", got)
	}
	p.Screenshot(filepath.Join(ShotDir(t), "final-1200x900.png"))
	// On a phone the winner line shows without scrolling.
	p.Do(chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile, chromedp.EmulateTouch))
	if b := Eval[float64](p, `document.getElementById('winner').getBoundingClientRect().bottom`); b > 740 || b <= 0 {
		t.Errorf("on a phone the winner line ends at y = %v", b)
	}
	p.Screenshot(filepath.Join(ShotDir(t), "final-360x740.png"))
	p.Do(chromedp.EmulateViewport(1200, 900))

	// Replay: the dialog closed, ← goes back to the position before the
	// last move, → returns to the end.
	p.Do(chromedp.Click(chromedp.CSS("#result-close")))
	p.Wait(`!document.getElementById('result').open && !document.getElementById('replay-bar').hidden`, 5*time.Second)
	final := p.ShownCells()
	p.Do(chromedp.KeyEvent(kb.ArrowLeft))
	p.Wait(`document.getElementById('status').textContent.startsWith('Replay')`, 5*time.Second)
	if got, want := p.ShownCells(), []int{2, 2, 2, 2, 2, 0, 1, 1, 1, 1, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("replay, one move back: the board shows %v, want %v", got, want)
	}
	if got := Eval[string](p, `document.getElementById('status').textContent`); got != "Replay: the starting position, before move 1 of 1." {
		t.Errorf("replay status %q", got)
	}
	p.Do(chromedp.KeyEvent(kb.ArrowRight))
	p.Wait(`document.getElementById('status').textContent === 'Game over.'`, 5*time.Second)
	if got := p.ShownCells(); !slices.Equal(got, final) {
		t.Errorf("replay, back at the end: the board shows %v, want %v", got, final)
	}
	p.Do(chromedp.Click(chromedp.CSS("#result-open")))
	p.Wait(`document.getElementById('result').open`, 5*time.Second)

	msgs := Eval[string](p, `document.getElementById('turns').textContent`)
	for _, want := range []string{"Mandarin captured: 10 points", "Both mandarin squares are empty"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("messages %q do not say %q", msgs, want)
		}
	}
}

// TestComputerStarts: the computer's first move arrives by itself and
// cannot be undone alone.
func TestComputerStarts(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"fast","first":1}`)
	p.Wait(Ready+` && `+MovesShown+` === 1`, 20*time.Second)
	if got := Eval[string](p, `document.querySelector('#moves .mv:not(.none)').dataset.by`); got != "computer" {
		t.Errorf("first move by %q, want computer", got)
	}
	if Eval[bool](p, `document.getElementById('undo').disabled`) == false {
		t.Error("undo offered with only the computer's move played")
	}
	PlayByKeyboard(p, rand.New(rand.NewPCG(13, 14)))
	p.Do(chromedp.Click(chromedp.CSS("#undo")))
	p.Wait(MovesShown+` === 1 && `+Ready, 10*time.Second)
}

// TestSettings: the difficulty applies to the game at once, a rule option
// asks before it starts a new game, and a new mode starts a new game.
func TestSettings(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Wait(Ready, 20*time.Second)
	set := func(id, value string) {
		p.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(s => { s.value = %q; s.dispatchEvent(new Event('change')); })(document.getElementById(%q))`, value, id)))
	}
	gameID := func() string { return Eval[string](p, `localStorage.getItem('oanquan.game')`) }
	first := gameID()
	PlayByKeyboard(p, rand.New(rand.NewPCG(17, 18)))

	set("level", "hard")
	for i := 0; p.GameState()["level"] != "hard"; i++ {
		if i == 50 {
			t.Fatal("the difficulty did not reach the game")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if gameID() != first {
		t.Error("changing the difficulty started a new game")
	}

	// A rule option: in the new game's settings, which start nothing until
	// "Start"; "Cancel" keeps the game.
	p.Do(chromedp.Click(chromedp.CSS("#new")))
	p.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	p.Do(chromedp.Click(chromedp.CSS(`#newgame input[value="young-mandarin"]`)), chromedp.Click(chromedp.CSS("#newgame-cancel")))
	p.Wait(`!document.getElementById('newgame').open`, 5*time.Second)
	if gameID() != first {
		t.Error("cancelling the new game's settings started a game")
	}
	p.Do(chromedp.Click(chromedp.CSS("#new")))
	p.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	if Eval[bool](p, `document.querySelector('#newgame input[value="young-mandarin"]').checked`) {
		t.Error("a cancelled rule option is still checked")
	}
	p.Do(chromedp.Click(chromedp.CSS(`#newgame input[value="young-mandarin"]`)), chromedp.Click(chromedp.CSS("#newgame-start")))
	p.Wait(MovesShown+` === 0 && `+Ready, 10*time.Second)
	if gameID() == first {
		t.Error("a rule option did not start a new game")
	}
	if v := p.GameState()["variants"].([]any); len(v) != 1 || v[0] != "young-mandarin" {
		t.Errorf("new game's variants = %v, want [young-mandarin]", v)
	}

	second := gameID()
	p.Do(chromedp.Click(chromedp.CSS("#new")))
	p.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	if !Eval[bool](p, `document.querySelector('#newgame input[name=mode][value=ai]').checked && document.querySelector('#newgame input[name=level][value=hard]').checked`) {
		t.Error("the new game's settings do not start from the current ones")
	}
	p.Do(chromedp.Click(chromedp.CSS(`#newgame input[name=mode][value=local]`)))
	if !Eval[bool](p, `document.getElementById('newgame-level').hidden && document.getElementById('first-0').textContent === 'Player 1'`) {
		t.Error("two players: the difficulty is still offered, or the first mover is not Player 1")
	}
	p.Do(chromedp.Click(chromedp.CSS("#newgame-start")))
	p.Wait(fmt.Sprintf(`localStorage.getItem('oanquan.game') !== %q`, second), 10*time.Second)
	p.Wait(Ready, 10*time.Second)
	if st := p.GameState(); st["mode"] != "local" {
		t.Errorf("new game's mode = %v, want local", st["mode"])
	}
	// The page redraws in its next frame after the new game's id is kept.
	// (Waiting: the difficulty must not be offered with two players.)
	p.Wait(`document.getElementById('level-field').hidden`, 5*time.Second)
}

// secretOr is a game's seat secret, or "-", what the page keeps for a
// game whose server gives none.
// playSetUp makes a two-player game from position (in the notation)
// and has the page play it, as the game its browser played last.
func playSetUp(p *Page, position string) {
	p.T.Helper()
	var st struct{ ID, Secret string }
	APICall(p.T, p.Base, "POST", "/api/games", "", fmt.Sprintf(`{"mode":"local","position":%q}`, position), &st)
	p.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`localStorage.setItem('oanquan.game', %q); localStorage.setItem('oanquan.secrets', JSON.stringify({%[1]q: %q}))`, st.ID, secretOr(st.Secret))), chromedp.Reload())
	p.Wait(fmt.Sprintf(`document.querySelector('#game-board button.cell.legal') && localStorage.getItem('oanquan.game') === %q`, st.ID), 10*time.Second)
}

func secretOr(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
