package offline

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	. "oanquan/e2e/internal/browsertest"
)

// Issue 18, item 11: the computer's opening move shown, with the server
// and without it.

// TestComputerOpeningShown: when the computer plays first, its opening
// move is shown played — the hand carries the pebbles round and the live
// region says the move — not only its result. (The move is made while
// the page opens its WebSocket; a new subscriber got only the state, so
// the board jumped.)
func TestComputerOpeningShown(t *testing.T) {
	t.Parallel() // waits more than it works: runs beside another (doc.go)
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","first":0}`)
	p.Wait(Ready, 20*time.Second)
	openingShown(t, p)
}

// TestComputerOpeningShownOffline: the same with the server out of reach,
// the games kept in the browser, whose engine may have played the
// computer's move before the page subscribed to the game's updates.
func TestComputerOpeningShownOffline(t *testing.T) {
	t.Parallel() // waits more than it works: runs beside another (doc.go)
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","first":0}`)
	p.Wait(Controlled, 30*time.Second)
	p.Wait(Ready, 20*time.Second)
	p.Offline(true)
	openingShown(t, p)
	p.ForgetUnreachable()
	if !Eval[bool](p, LocalGame) {
		t.Error("the games were not the browser's own: the test did not play offline")
	}
}

// openingShown starts three games in which the computer moves first, from
// the new game dialog, and requires its opening move animated and said in
// the live region each time.
func openingShown(t *testing.T, p *Page) {
	t.Helper()
	for range 3 { // the computer is fast or not: each time
		p.Do(chromedp.Evaluate[chromedp.Void](`window.handSeen = false; window.said = [];
			new MutationObserver(() => { const h = document.querySelector('#fly .hand'); if (h && !h.hidden) window.handSeen = true; })
				.observe(document.getElementById('fly'), {subtree: true, childList: true, attributes: true});
			new MutationObserver(() => window.said.push(document.getElementById('announce').textContent))
				.observe(document.getElementById('announce'), {subtree: true, childList: true, characterData: true})`))
		before := Eval[string](p, GameID)
		Click(p, "#new")
		p.Wait(`document.getElementById('newgame').open`, 5*time.Second)
		Click(p, `#newgame-form input[name=first][value="1"]`)
		Click(p, "#newgame-start")
		p.Wait(fmt.Sprintf(`(%s) !== %q`, GameID, before), 10*time.Second)
		// Said once its showing ends (the board may still show the game
		// before for a frame: its moves and squares are no sign).
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if slicesContain(Eval[[]string](p, `window.said`), "Computer plays square") {
				break
			}
		}
		if said := Eval[[]string](p, `window.said`); !slicesContain(said, "Computer plays square") {
			t.Fatalf("the live region did not say the computer's opening move: %q", said)
		}
		if !Eval[bool](p, `window.handSeen`) {
			t.Error("the computer's opening move was not animated")
		}
		p.Wait(MovesShown+` === 1 && `+Ready, 10*time.Second)
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
