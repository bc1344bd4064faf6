package e2e

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	. "oanquan/e2e/internal/browsertest"
)

// TestGameReview: a game whose first move is a known blunder (6L, from a
// position set up for it) is played to the end and reviewed: the review
// can be stopped and resumed, the graph and the marked moves are drawn,
// stepping with ←/→ and the list's buttons shows each move with the
// better one on the board and in the live region.
func TestGameReview(t *testing.T) {
	t.Parallel() // waits more than it works: may run beside another such test (doc.go)
	p := NewPage(t, 1200, 900, `{"mode":"local","anim":"off","first":0}`)
	playSetUp(p, "1/0/0/1/0/0/3/10/4/4/2/4* 0 15,0,0 6,1,0 4")
	// 6L: square 6 (cell 7) toward the screen's left.
	Click(p, `#game-board button.cell[data-cell="7"]`)
	Click(p, `.arrows .arrow[data-dir="left"]`)
	p.Wait(MovesShown+` === 1 && (`+Ready+`)`, 10*time.Second)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; !p.Over(); i++ {
		if i == 200 {
			t.Fatal("no end after 200 moves")
		}
		PlayByClicks(p, rng)
	}
	n := Eval[int](p, MovesShown)

	// Stopped at once, then resumed.
	Click(p, "#result-review")
	p.Wait(`document.getElementById('review')?.hidden === false && !document.getElementById('result').open`, 10*time.Second)
	Click(p, "#review-stop")
	p.Wait(`document.getElementById('review-status').textContent.startsWith('Review stopped')`, 5*time.Second)
	stopped := Eval[string](p, `document.getElementById('review-status').textContent`)
	time.Sleep(700 * time.Millisecond)
	if now := Eval[string](p, `document.getElementById('review-status').textContent`); now != stopped {
		t.Errorf("the review went on after Stop: %q, then %q", stopped, now)
	}
	Click(p, "#review-stop")
	p.Wait(`document.getElementById('review-status').textContent === 'Review done.'`, time.Duration(n)*time.Second+10*time.Second)
	if pts := Eval[int](p, `document.querySelector('#review-graph .score').getAttribute('points').trim().split(/\s+/).length`); pts != n+1 {
		t.Errorf("the graph has %d points, want one per position: %d", pts, n+1)
	}
	p.Wait(`document.getElementById('announce').textContent.startsWith('Review done.')`, 5*time.Second)
	marks := Eval[[]string](p, `[...document.querySelectorAll('#review-marks .mark')].map(b => b.textContent)`)
	if len(marks) == 0 || !strings.HasPrefix(marks[0], "1. Player 1: 6L — Blunder") || !strings.Contains(marks[0], "Better:") {
		t.Fatalf("marked moves %q: want 6L first, a blunder with a better move", marks)
	}
	if dots := Eval[int](p, `document.querySelectorAll('#review-graph .dot').length`); dots != len(marks) {
		t.Errorf("%d dots on the graph for %d marked moves", dots, len(marks))
	}

	// The review opens on the first position: 6L played from square 6,
	// the better move marked on the board.
	if got := Text(p, "review-move"); !strings.Contains(got, "Move 1, Player 1: 6L. Blunder") || !strings.Contains(got, "Better:") {
		t.Errorf("at the start the review says %q", got)
	}
	if !Eval[bool](p, `document.querySelector('#game-board .cell[data-cell="7"]').matches('.played.played-left') && document.querySelectorAll('#game-board .cell.better').length === 1`) {
		t.Error("the board does not show the move played and the better one")
	}
	p.Screenshot(filepath.Join(ShotDir(t), "review-desktop.png"))
	p.Do(chromedp.KeyEvent(kb.ArrowRight))
	p.Wait(`document.getElementById('review-move').textContent.startsWith('Move 2,') && document.getElementById('announce').textContent.includes('Move 2,')`, 5*time.Second)
	// A marked move's button, by keyboard.
	last := len(marks) - 1
	p.Do(chromedp.Focus(chromedp.CSS(fmt.Sprintf(`#review-marks li:nth-child(%d) .mark`, last+1))), chromedp.KeyEvent(kb.Enter))
	want := strings.SplitN(marks[last], ".", 2)[0]
	p.Wait(fmt.Sprintf(`document.getElementById('review-move').textContent.startsWith('Move %s,')`, want), 5*time.Second)
	// One numbering: the marked move N is move N of the move list, and the
	// bar shows the position after move N − 1, from which it was played.
	wantN, _ := strconv.Atoi(want)
	played := strings.TrimSpace(strings.SplitN(strings.SplitN(marks[last], ": ", 2)[1], " ", 2)[0])
	if got := Eval[string](p, fmt.Sprintf(`(n => n ? n.nextElementSibling.nextElementSibling.textContent : '')([...document.querySelectorAll('#moves .n')].find(n => n.textContent === '%d.'))`, wantN)); got != played {
		t.Errorf("marked move %d is %s, the move list's move %d is %q", wantN, played, wantN, got)
	}
	wantBar := fmt.Sprintf("After move %d of %d", wantN-1, n)
	if wantN == 1 {
		wantBar = fmt.Sprintf("Start of the game (%d moves)", n)
	}
	// The bar is drawn in the next frame: wait for it.
	p.Wait(fmt.Sprintf(`document.querySelector('#replay-bar .where').textContent === %q`, wantBar), 5*time.Second)
	if got := Eval[[]string](p, `[...document.querySelectorAll('#moves .n')].map(n => n.textContent)`); len(got) != n || got[0] != "1." || got[n-1] != fmt.Sprintf("%d.", n) {
		t.Errorf("the move list numbers its %d moves %v, want 1. to %d.", n, got, n)
	}

	// A click at the graph's right end goes to the final position; ←
	// to the last move.
	p.Do(chromedp.Evaluate[chromedp.Void](`(g => { const r = g.getBoundingClientRect(); g.dispatchEvent(new MouseEvent('click', {clientX: r.right - 1, clientY: r.top + 5, bubbles: true})); })(document.getElementById('review-graph'))`))
	p.Wait(`document.getElementById('review-move').textContent === 'The final position.'`, 5*time.Second)
	p.Do(chromedp.KeyEvent(kb.ArrowLeft))
	p.Wait(fmt.Sprintf(`document.getElementById('review-move').textContent.startsWith('Move %d,')`, n), 5*time.Second)

	p.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch), ColorScheme(true))
	p.Screenshot(filepath.Join(ShotDir(t), "review-phone-dark.png"))
	if w := Eval[int](p, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the review on a 390 px phone is %d px wide", w)
	}
	Click(p, "#review-close")
	p.Wait(`document.getElementById('review').hidden && document.querySelectorAll('#game-board .cell.better, #game-board .cell.played').length === 0`, 5*time.Second)
}

// TestRecordReview: a pasted game record is reviewed: a bad record is
// refused in the dialog with the reason, a good one is gone through with
// its own positions and players on the board; closing the review brings
// back the game being played.
func TestRecordReview(t *testing.T) {
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Wait(Ready, 20*time.Second)
	before := p.ShownCells()
	Click(p, "#review-record")
	p.Wait(`document.getElementById('record-dialog')?.open`, 5*time.Second)
	setRecord := func(text string) {
		p.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById('record-text').value = %q`, text)))
		Click(p, "#record-start")
	}
	setRecord("\n1. 7R 9X *\n")
	p.Wait(`document.getElementById('record-error')?.hidden === false`, 5*time.Second)
	if got := Text(p, "record-error"); !strings.Contains(got, "9X") {
		t.Errorf("a bad record is refused with %q, want the bad move named", got)
	}
	p.Forget("status of 400") // the refusal, expected
	setRecord("[Start \"1/0/0/1/0/0/3/10/4/4/2/4* 0 15,0,0 6,1,0 4\"]\n\n1. 6L 4L *\n")
	p.Wait(`!document.getElementById('record-dialog').open && document.getElementById('review-status').textContent === 'Review done.'`, 20*time.Second)
	if got, want := p.ShownCells(), []int{1, 0, 0, 1, 0, 0, 3, 10, 4, 4, 2, 4}; !slices.Equal(got, want) {
		t.Errorf("the record's first position shows %v, want %v", got, want)
	}
	if got := Text(p, "review-move"); !strings.HasPrefix(got, "Move 1, Player 1: 6L. Blunder") {
		t.Errorf("the record's first move: %q", got)
	}
	if name := Eval[string](p, `document.querySelector('#store-0 .store-name').textContent`); name != "Player 1" {
		t.Errorf("the record's player at the bottom is called %q", name)
	}
	p.Do(chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
	p.Wait(`document.getElementById('review-move').textContent === 'The final position.' && document.querySelector('#replay-bar .where').textContent === 'After move 2 of 2'`, 5*time.Second)
	Click(p, "#review-close")
	p.Wait(`document.getElementById('review').hidden && document.getElementById('replay-bar').hidden`, 5*time.Second)
	if got := p.ShownCells(); !slices.Equal(got, before) {
		t.Errorf("after the review the board shows %v, want the game's %v", got, before)
	}
	if !Eval[bool](p, Ready) {
		t.Error("after the review the game cannot be played on")
	}
}
