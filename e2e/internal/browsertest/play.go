package browsertest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"oanquan/web"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const (
	// OnlineReady is true when this page's player may move (a square is
	// offered).
	OnlineReady = `document.querySelectorAll('#game-board button.cell.legal').length > 0`
	// GameID is the id of the game the page shows: the address's, else
	// the one it keeps.
	GameID = `new URLSearchParams(location.search).get('game') || localStorage.getItem('oanquan.game')`
)

// Text returns the text of the page's element with the id.
func Text(p *Page, id string) string {
	return Eval[string](p, fmt.Sprintf(`document.getElementById(%q).textContent`, id))
}

// Click presses the element of the CSS selector.
func Click(p *Page, sel string) {
	p.T.Helper()
	p.Do(chromedp.Click(chromedp.CSS(sel)))
}

// Now is the page's clock in milliseconds since 1970, to the
// microsecond: the browsers of one test share the machine's clock.
const Now = `(performance.timeOrigin + performance.now())`

// ToMove returns whichever of a and b may move now, waiting for one.
func ToMove(t *testing.T, a, b *Page) *Page {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(30 * time.Millisecond) {
		if Eval[bool](a, OnlineReady) {
			return a
		}
		if Eval[bool](b, OnlineReady) {
			return b
		}
	}
	t.Fatalf("neither player may move: %q / %q", Text(a, "status"), Text(b, "status"))
	return nil
}

// APICall sends a request to the server as a program would, with the
// seat's secret if one is given, and decodes the JSON answer into out
// (if not nil). Any status but 2xx fails the test.
func APICall(t *testing.T, base, method, path, secret, body string, out any) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	client := http.Client{Timeout: 10 * time.Second}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		t.Fatalf("%s %s: status %d", method, path, res.StatusCode)
	}
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// SetLang switches the page to language code.
func SetLang(p *Page, code string) {
	p.T.Helper()
	p.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(s => { s.value = %q; s.dispatchEvent(new Event('change')); })(document.getElementById('lang'))`, code)))
	p.Wait(fmt.Sprintf(`document.documentElement.lang === %q`, code), 10*time.Second)
	// The page redraws in its next animation frame: read it after that.
	Eval[bool](p, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
}

// FriendsOnline opens an online game on a desktop page (a, the creator,
// to move first) and joins it from a phone by the invitation's link (b),
// both without animations, and returns them once the friend's page is
// live.
func FriendsOnline(t *testing.T) (a, b *Page) {
	t.Helper()
	a = NewPage(t, 1200, 900, `{"mode":"online","first":0,"anim":"off"}`)
	Click(a, "#new")
	a.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	Click(a, "#newgame-start")
	a.Wait(`document.getElementById('invite-link')?.value.includes('?game=')`, 10*time.Second)
	link := Eval[string](a, `document.getElementById('invite-link').value`)
	b = NewPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b.Do(chromedp.Navigate(link))
	b.Wait(`document.getElementById('online')?.hidden === false && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	return a, b
}

// LogMatchesMoves fails the test unless the Turns list shows the moves of
// the move list, one row each, in order.
func LogMatchesMoves(p *Page, what string) {
	p.T.Helper()
	moves := Eval[[]string](p, `[...document.querySelectorAll('#moves .mv:not(.none)')].map(m => m.textContent)`)
	rows := Eval[[]string](p, `[...document.querySelectorAll('#turns details summary')].map(s => s.parentElement.dataset.move)`)
	if !slices.Equal(moves, rows) {
		p.T.Errorf("%s: the Turns list shows %v, the game's moves are %v", what, rows, moves)
	}
}

// PlayByKeyboard makes one move with ←/→ and Z or X, and waits until the
// page is ready for the next human move or the game is over.
func PlayByKeyboard(p *Page, rng *rand.Rand) {
	p.T.Helper()
	before := Eval[int](p, MovesShown)
	p.Do(chromedp.KeyEvent(strings.Repeat(kb.ArrowRight, 1+rng.IntN(5))))
	// The page redraws once a frame: the selection shows at the next one.
	p.Wait(`document.querySelector('#game-board .cell.selected') !== null`, 5*time.Second)
	c := Eval[int](p, `Number(document.querySelector('#game-board .cell.selected').dataset.cell)`)
	key, dir := "z", "left"
	if rng.IntN(2) == 0 {
		key, dir = "x", "right"
	}
	p.Do(chromedp.KeyEvent(key))
	p.Wait(fmt.Sprintf(`(%s) !== %d && (%s)`, MovesShown, before, Ready), 30*time.Second)
	CheckDirection(p, before, c, dir)
}

// CheckDirection checks that the move at index i of the list, made from
// cell c toward dir on screen, went that way: toward higher numbers (R)
// is rightward on the bottom row and leftward on the top row. The bottom
// row is squares 5 to 9, or 0 to 4 on a board turned round.
func CheckDirection(p *Page, i, c int, dir string) {
	p.T.Helper()
	square, letter := c, "L"
	if c > 5 {
		square = c - 1
	}
	bottom := c > 5
	if Eval[bool](p, `document.getElementById('game-board').dataset.flipped === 'true'`) {
		bottom = c < 5
	}
	if (dir == "right") == bottom {
		letter = "R"
	}
	want := fmt.Sprint(square, letter)
	if got := Eval[string](p, fmt.Sprintf(`document.querySelectorAll('#moves .mv:not(.none)')[%d].textContent`, i)); got != want {
		p.T.Errorf("sowing cell %d toward the screen's %s played %s, want %s", c, dir, got, want)
	}
}

// MovesShown counts the moves in the page's move list.
const MovesShown = `document.querySelectorAll('#moves .mv:not(.none)').length`

// CheckFinalCount checks that the final count shows each player's sum as
// in seed 001 (mandarins + pebbles + swept − debt = total), with the
// server's totals, and a winner line.
func CheckFinalCount(p *Page) {
	p.T.Helper()
	st := p.GameState()
	if st["over"] != true {
		p.T.Fatalf("the page shows the final count but the server says the game is not over")
	}
	lines := Eval[[]string](p, `[...document.querySelectorAll('#tallies .tally')].map(l => l.textContent)`)
	totals := Eval[[]string](p, `[...document.querySelectorAll('#tallies .term.total b')].map(b => b.textContent)`)
	players := st["result"].(map[string]any)["players"].([]any)
	if len(lines) != 2 || len(totals) != 2 {
		p.T.Fatalf("final count lines = %q, want two", lines)
	}
	for i, l := range lines {
		if !strings.Contains(l, "+") || !strings.Contains(l, "=") {
			p.T.Errorf("final count line %q has no sum", l)
		}
		want := fmt.Sprint(players[i].(map[string]any)["total"])
		if totals[i] != want {
			p.T.Errorf("player %d total shown %s, server says %s", i, totals[i], want)
		}
	}
	if w := Eval[string](p, `document.getElementById('winner').textContent`); w == "" {
		p.T.Error("no winner line")
	}
}

// Phone opens the game on a Phone-sized page (390×844, touch).
func Phone(t *testing.T) *Page {
	return NewPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
}

// JSString writes s as a JavaScript string literal.
func JSString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// English returns the page's English text for key, {placeholders} filled
// from pairs.
func English(t *testing.T, key string, pairs ...string) string {
	t.Helper()
	b, err := fs.ReadFile(web.FS(), "i18n/en.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	s, ok := m[key]
	if !ok {
		t.Fatalf("no English text for %s", key)
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, "{"+pairs[i]+"}", pairs[i+1])
	}
	return s
}

// MoveOnline plays a random offered move on mover's page and waits until
// every page shows it; it returns the time from the click on the arrow
// to the move list showing the move on the slowest of the other pages.
func MoveOnline(t *testing.T, rng *rand.Rand, mover *Page, pages ...*Page) time.Duration {
	t.Helper()
	before := Eval[int](mover, MovesShown)
	cells := Eval[[]int](mover, `[...document.querySelectorAll('#game-board button.cell.legal')].map(b => Number(b.dataset.cell))`)
	if len(cells) == 0 {
		t.Fatal("no square offered to the player to move")
	}
	c := cells[rng.IntN(len(cells))]
	dir := []string{"left", "right"}[rng.IntN(2)]
	mover.Do(
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#game-board button.cell[data-cell="%d"]`, c))),
		chromedp.WaitVisible(chromedp.CSS(`.arrows .arrow[data-dir="`+dir+`"]`)),
	)
	for _, p := range pages {
		p.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.shownAt = 0; new MutationObserver((_, o) => {
			if ((%s) > %d) { window.shownAt = %s; o.disconnect(); }
		}).observe(document.getElementById('moves'), {childList: true, subtree: true})`, MovesShown, before, Now)))
	}
	mover.Do(chromedp.Evaluate[chromedp.Void](`document.addEventListener('click', () => { window.clickedAt = ` + Now + ` }, {capture: true, once: true})`))
	Click(mover, `.arrows .arrow[data-dir="`+dir+`"]`)
	var took float64
	for _, p := range pages {
		p.Wait(fmt.Sprintf(`(%s) > %d && window.shownAt > 0`, MovesShown, before), 20*time.Second)
		if p != mover {
			took = max(took, Eval[float64](p, `window.shownAt`)-Eval[float64](mover, `window.clickedAt`))
		}
	}
	CheckDirection(mover, before, c, dir)
	return time.Duration(took * float64(time.Millisecond))
}

// PlayByClicks clicks a highlighted square, then one of its arrows.
func PlayByClicks(p *Page, rng *rand.Rand) {
	p.T.Helper()
	before := Eval[int](p, MovesShown)
	cells := Eval[[]int](p, `[...document.querySelectorAll('#game-board button.cell.legal')].map(b => Number(b.dataset.cell))`)
	if len(cells) == 0 {
		p.T.Fatal("no highlighted square to click")
	}
	c := cells[rng.IntN(len(cells))]
	dir := []string{"left", "right"}[rng.IntN(2)]
	p.Do(
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#game-board button.cell[data-cell="%d"]`, c))),
		chromedp.WaitVisible(chromedp.CSS(`.arrows .arrow[data-dir="`+dir+`"]`)),
		chromedp.Click(chromedp.CSS(`.arrows .arrow[data-dir="`+dir+`"]`)),
	)
	p.Wait(fmt.Sprintf(`(%s) !== %d && (%s)`, MovesShown, before, Ready), 30*time.Second)
	CheckDirection(p, before, c, dir)
}
