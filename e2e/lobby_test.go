package e2e

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oanquan/internal/rating"
)

// The lobby (issue 21): quick pairing, the seeks, the rating change in
// the ending dialog, the preset phrases.

// phone opens the game on a phone-sized page (390×844, touch).
func phone(t *testing.T) *page {
	return newPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
}

// signUp makes an account named name in p's browser. The sign-in dialog
// is engineer A's (branch p-account): until it is merged the account is
// made by the API from inside the page, so that the browser keeps the
// session cookie as it does after signing up.
func signUp(p *page, name string) {
	p.t.Helper()
	status := eval[int](p, fmt.Sprintf(`fetch('/api/accounts', {method: 'POST', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({username: %q, password: 'pebbles-and-mandarins'})}).then(r => r.status)`, name))
	if status != 201 {
		p.t.Fatalf("signing up %s: status %d", name, status)
	}
}

// openLobby goes to the lobby by the header's link and waits until it
// says who plays (want: a part of that sentence).
func openLobby(p *page, want string) {
	p.t.Helper()
	click(p, "#nav-lobby")
	p.wait(fmt.Sprintf(`document.getElementById('lobby-view')?.hidden === false && document.getElementById('game-view').hidden && document.getElementById('lobby-who').textContent.includes(%q)`, want), 10*time.Second)
}

// watchBoard has p note in window.boardAt (ms, the machine's clock) the
// moment its board shows an online game other than the one shown now,
// and in window.clickedAt the moment of its next click on a quick
// pairing button.
func watchBoard(p *page) {
	p.t.Helper()
	p.do(chromedp.Evaluate[chromedp.Void](`(() => {
	window.boardAt = 0; window.clickedAt = 0;
	document.addEventListener('click', (e) => { if (e.target.closest('.quick-go')) window.clickedAt = ` + now + `; }, {capture: true, once: true});
	const before = localStorage.getItem('oanquan.game');
	const shown = () => !document.getElementById('game-view').hidden && !document.getElementById('online').hidden &&
		localStorage.getItem('oanquan.game') !== before && document.querySelectorAll('#game-board .cell').length === 12;
	new MutationObserver((_, o) => { if (shown()) { window.boardAt = ` + now + `; o.disconnect(); } })
		.observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['hidden']});
})()`))
}

// quickPair has a then b click quick pairing at 3+2 and returns the time
// from b's click (the one that makes the pair) to both boards showing the
// game, and the game's id.
func quickPair(t *testing.T, a, b *page) (time.Duration, string) {
	t.Helper()
	watchBoard(a)
	watchBoard(b)
	click(a, `#quick button[data-clock="180+2"]`)
	a.wait(`document.getElementById('lobby-wait').hidden === false && document.getElementById('lobby-waited').textContent !== ''`, 10*time.Second)
	click(b, `#quick button[data-clock="180+2"]`)
	for _, p := range []*page{a, b} {
		p.wait(`window.boardAt > 0`, 20*time.Second)
	}
	took := max(eval[float64](a, `window.boardAt`), eval[float64](b, `window.boardAt`)) - eval[float64](b, `window.clickedAt`)
	id := eval[string](a, gameID)
	if other := eval[string](b, gameID); other != id {
		t.Fatalf("the two strangers were shown games %s and %s", id, other)
	}
	return time.Duration(took * float64(time.Millisecond)), id
}

// nextMover returns whichever of a and b may move now, or nil once the
// game is over on both pages, waiting for one or the other.
func nextMover(t *testing.T, a, b *page) *page {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		switch {
		case a.over() && b.over():
			return nil
		case eval[bool](a, onlineReady):
			return a
		case eval[bool](b, onlineReady):
			return b
		}
	}
	t.Fatalf("neither player may move, and the game is not over: %q / %q", text(a, "status"), text(b, "status"))
	return nil
}

// TestLobbyQuickPairing: two strangers on phones sign up, open the lobby
// from the header and quick-pair at 3+2, rated. Each pairing goes
// straight to the board on both phones: it is timed from the click that
// makes the pair to both boards shown, over several pairings (all but
// the last aborted, unrated: the ratings stay as new, so that each
// pairing is at once). The last game is played to its end (resigned if
// it runs long), and both ending dialogs show the rating change that
// internal/rating computes for its result.
func TestLobbyQuickPairing(t *testing.T) {
	if chromiumPath() != "" {
		t.Setenv("E2E_URL", startServer(t)) // one server for both browsers
	}
	shots := shotDir(t)
	a, b := phone(t), phone(t)
	names := map[*page]string{a: "Lan", b: "Minh"}
	for _, p := range []*page{a, b} {
		signUp(p, names[p])
		openLobby(p, names[p])
	}
	if got := text(a, "quick-text"); !strings.Contains(got, "rated game") {
		t.Errorf("signed in, quick pairing says %q, want rated games", got)
	}
	a.screenshot(filepath.Join(shots, "lobby-en-phone.png"))

	const runs = 5
	var times []time.Duration
	var id string
	for run := range runs {
		took, game := quickPair(t, a, b)
		times = append(times, took)
		id = game
		if run == 0 {
			checkPairedGame(t, a, b, id)
		}
		if run == runs-1 {
			break
		}
		// Aborted before a move: unrated, both still new at 1500.
		a.wait(`document.getElementById('abort')?.hidden === false`, 10*time.Second)
		click(a, "#abort")
		click(a, "#abort")
		for _, p := range []*page{a, b} {
			p.wait(`document.getElementById('result').open && document.getElementById('result-rating').hidden`, 10*time.Second)
			click(p, "#result-close")
			openLobby(p, names[p])
		}
	}
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	t.Logf("quick pairing at 3+2, from the click that makes the pair to both boards shown: median %v over %d pairings %v",
		sorted[len(sorted)/2].Round(time.Millisecond), runs, times)

	// The last game, played to its end.
	rng := rand.New(rand.NewPCG(21, 3))
	for plies := 0; ; plies++ {
		mover := nextMover(t, a, b)
		if mover == nil {
			break
		}
		if plies == 160 { // a long game: resigned, which rates it all the same
			click(mover, "#resign")
			click(mover, "#resign")
			continue
		}
		moveOnline(t, rng, mover, a, b)
	}
	st := a.gameState()
	if st["id"] != id || st["rated"] != true {
		t.Fatalf("the game played is %v, rated %v: want %s, rated", st["id"], st["rated"], id)
	}
	score := 0.5 // the score of seat 0
	if w, ok := st["result"].(map[string]any)["winner"].(float64); ok {
		score = 1 - w
	}
	after := [2]rating.Rating{}
	after[0], after[1], _ = rating.System{}.Game(rating.New(), rating.New(), score, time.Now())
	for _, p := range []*page{a, b} {
		seat := eval[int](p, `JSON.parse(localStorage.getItem('oanquan.seats'))[`+gameID+`]`)
		r := after[seat]
		want := fmt.Sprintf("Blitz rating: %s → %s (%+d)", rating.New(), r, int(r.Rating+0.5)-1500)
		p.wait(`document.getElementById('result').open && document.getElementById('result-rating').hidden === false`, 10*time.Second)
		if got := text(p, "result-rating"); got != want {
			t.Errorf("%s (seat %d) reads %q in the ending dialog, want %q", names[p], seat, got, want)
		}
		p.screenshot(filepath.Join(shots, "rating-change-"+names[p]+"-phone.png"))
	}
	auditNew(a, "ending dialog with the rating change, phone")
	setLang(b, "fa")
	b.do(colorScheme(true))
	b.wait(`document.getElementById('result-rating').textContent.startsWith('امتیاز برق‌آسا: ۱۵۰۰؟ ← ')`, 5*time.Second)
	auditNew(b, "ending dialog with the rating change, Persian phone, dark")
	b.screenshot(filepath.Join(shots, "rating-change-fa-phone-dark.png"))
}

// checkPairedGame checks the game quick pairing made: rated, at 3+2, a
// seat each, the board turned for the player of the top row and given
// the focus.
func checkPairedGame(t *testing.T, a, b *page, id string) {
	t.Helper()
	st := a.gameState()
	clock, _ := st["clock"].(map[string]any)
	if st["rated"] != true || clock["initial"] != 180.0 || clock["increment"] != 2.0 {
		t.Errorf("quick pairing at 3+2 rated made a game rated %v with the clock %v", st["rated"], clock)
	}
	seats := [2]int{}
	for i, p := range []*page{a, b} {
		seats[i] = eval[int](p, `(s => s === 0 || s === 1 ? s : -1)(JSON.parse(localStorage.getItem('oanquan.seats'))[`+gameID+`])`)
		p.wait(`document.activeElement.closest('#game-board') !== null`, 5*time.Second) // from the lobby's button to the board
		if flipped := eval[bool](p, `document.getElementById('table').classList.contains('flipped')`); flipped != (seats[i] == 1) {
			t.Errorf("seat %d: the board turned %v", seats[i], flipped)
		}
	}
	if seats[0]+seats[1] != 1 {
		t.Errorf("the strangers hold seats %v, want one each", seats)
	}
}

// rawKeys lists the lobby's texts that show a translation's key rather
// than its words (a key missing from every language).
const rawKeys = `[...document.querySelectorAll('#lobby-view *')].flatMap((e) => [...e.childNodes].filter((n) => n.nodeType === 3 && /\b(lobby|clock|games)\.[a-zA-Z]/.test(n.textContent)).map((n) => n.textContent))`

// TestLobbySeeks: the open seeks, live. A stranger's seek (posted by the
// API) is listed on a desktop page, come from the new-game dialog. A
// phone waits for quick pairing and cancels (nobody is paired with it
// after); it posts a seek (a rating range out of order is refused and
// said in the lobby's words), waits with the time waited, cancels, posts
// again, and the desktop accepts it with one click: both go to the board
// of the same game. The lobby in the six languages (no key shown raw),
// Persian right to left, light and dark, audited with axe where AXE_JS
// is set.
func TestLobbySeeks(t *testing.T) {
	if chromiumPath() != "" {
		t.Setenv("E2E_URL", startServer(t))
	}
	shots := shotDir(t)
	d := newPage(t, 1200, 900, `{"anim":"off"}`)
	var posted struct{ ID, Secret string }
	apiCall(t, d.base, "POST", "/api/seeks", "", `{"clock":{"initial":300,"increment":3},"rated":false}`, &posted)
	// From the new-game dialog's "Play anyone": the dialog closes.
	click(d, "#new")
	d.wait(`document.getElementById('newgame').open`, 5*time.Second)
	click(d, `#newgame a[href="#lobby"]`)
	d.wait(`document.getElementById('lobby-view')?.hidden === false && !document.getElementById('newgame').open && document.activeElement.id === 'lobby-heading' && document.getElementById('lobby-who').textContent.includes('not signed in')`, 10*time.Second)
	d.wait(fmt.Sprintf(`document.querySelector('#seeks button[data-seek=%q]') !== null`, posted.ID), 10*time.Second)
	if got := eval[string](d, `document.querySelector('#seeks .seek').textContent`); !strings.Contains(got, "Anonymous") || !strings.Contains(got, "5+3") || !strings.Contains(got, "Casual") {
		t.Errorf("the stranger's seek reads %q", got)
	}
	if eval[bool](d, `document.getElementById('post-rated').disabled`) == false {
		t.Error("signed out, the seek may be posted rated")
	}
	auditNew(d, "lobby, desktop")
	d.screenshot(filepath.Join(shots, "lobby-seeks-en-desktop.png"))
	for _, lang := range []string{"vi", "fr", "de", "ca", "fa", "en"} {
		setLang(d, lang)
		if raw := eval[[]string](d, rawKeys); len(raw) != 0 {
			t.Errorf("%s: the lobby shows keys %q", lang, raw)
		}
		if lang == "fa" {
			if eval[string](d, `document.documentElement.dir`) != "rtl" {
				t.Error("Persian: the page is not right to left")
			}
			d.do(colorScheme(true))
			auditNew(d, "lobby, Persian desktop, dark")
			d.screenshot(filepath.Join(shots, "lobby-seeks-fa-desktop-dark.png"))
			d.do(colorScheme(false))
		}
	}

	p := phone(t)
	openLobby(p, "not signed in")
	// Quick pairing waited for, then cancelled: the desktop choosing the
	// same time control after it waits too (the ticket left the pool).
	click(p, `#quick button[data-clock="60+0"]`)
	p.wait(`document.getElementById('lobby-wait').hidden === false && document.getElementById('lobby-wait-text').textContent === 'Looking for an opponent: 1 min + 0 s per move, Casual.'`, 10*time.Second)
	click(p, "#lobby-cancel")
	p.wait(`document.getElementById('lobby-wait').hidden && document.getElementById('announce').textContent.startsWith('Cancelled')`, 10*time.Second)
	click(d, `#quick button[data-clock="60+0"]`)
	d.wait(`document.getElementById('lobby-wait').hidden === false`, 10*time.Second)
	time.Sleep(1500 * time.Millisecond) // the pool is tried every second
	if !eval[bool](d, `document.getElementById('game-view').hidden`) {
		t.Fatal("paired with a ticket cancelled")
	}
	click(d, "#lobby-cancel")
	d.wait(`document.getElementById('lobby-wait').hidden`, 10*time.Second)
	setField(p, "post-min", "1800")
	setField(p, "post-max", "1200")
	click(p, "#post-go")
	p.wait(`document.getElementById('lobby-alert').hidden === false`, 10*time.Second)
	if got := text(p, "lobby-alert"); !strings.Contains(got, "the first no more than the second") {
		t.Errorf("a range out of order is refused with %q", got)
	}
	setField(p, "post-min", "")
	setField(p, "post-max", "")
	setField(p, "post-clock", "600+5")
	click(p, "#post-go")
	p.wait(`document.getElementById('lobby-wait').hidden === false && document.getElementById('lobby-alert').hidden`, 10*time.Second)
	if got := text(p, "lobby-wait-text"); got != "Your game waits for an opponent: 10 min + 5 s per move, Casual." {
		t.Errorf("waiting, the phone reads %q", got)
	}
	d.wait(`[...document.querySelectorAll('#seeks .seek')].some((s) => s.textContent.includes('10+5'))`, 10*time.Second)
	p.wait(`document.getElementById('lobby-waited').textContent === '0:01'`, 5*time.Second)
	setLang(p, "fa")
	p.do(colorScheme(true))
	auditNew(p, "lobby, a seek waiting, Persian phone, dark")
	p.screenshot(filepath.Join(shots, "lobby-waiting-fa-phone-dark.png"))
	click(p, "#lobby-cancel")
	p.wait(`document.getElementById('lobby-wait').hidden`, 10*time.Second)
	d.wait(`![...document.querySelectorAll('#seeks .seek')].some((s) => s.textContent.includes('10+5'))`, 10*time.Second)

	setLang(p, "en")
	click(p, "#post-go")
	p.wait(`document.getElementById('lobby-wait').hidden === false`, 10*time.Second)
	watchBoard(p)
	watchBoard(d)
	d.wait(`[...document.querySelectorAll('#seeks .seek')].some((s) => s.textContent.includes('10+5'))`, 10*time.Second)
	click(d, `#seeks .seek:has(.ctl[dir="ltr"]) button:not([data-seek="`+posted.ID+`"])`)
	for _, pg := range []*page{p, d} {
		pg.wait(`window.boardAt > 0`, 10*time.Second)
	}
	if a, b := eval[string](p, gameID), eval[string](d, gameID); a != b {
		t.Errorf("the seek's poster is shown game %s, the one who accepted it %s", a, b)
	}
	st := d.gameState()
	if clock, _ := st["clock"].(map[string]any); clock["initial"] != 600.0 || st["rated"] == true {
		t.Errorf("the seek made a game with the clock %v, rated %v: want 10+5 casual", clock, st["rated"])
	}
	p.screenshot(filepath.Join(shots, "lobby-seek-played-phone-dark.png"))
	// Expected: asked who is signed in, nobody is (401); the range refused.
	for _, pg := range []*page{p, d} {
		pg.forget("(Unauthorized) " + pg.base + "/api/me")
	}
	p.forget("(Bad Request) " + p.base + "/api/seeks")
}

// TestLobbyPhrases: two strangers quick-paired (casual, signed out) say
// preset phrases: one shown by its player's row on both phones and said
// in the other's live region; a second at once is refused and the page
// says why; a player who turns phrases off is offered none and shown
// none. In Persian and dark, audited with axe where AXE_JS is set.
func TestLobbyPhrases(t *testing.T) {
	if chromiumPath() != "" {
		t.Setenv("E2E_URL", startServer(t))
	}
	shots := shotDir(t)
	a, b := phone(t), phone(t)
	for _, p := range []*page{a, b} {
		openLobby(p, "not signed in")
	}
	quickPair(t, a, b)
	seat := eval[int](a, `JSON.parse(localStorage.getItem('oanquan.seats'))[`+gameID+`]`)
	for _, p := range []*page{a, b} {
		p.wait(`document.getElementById('phrase-menu')?.hidden === false && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	}
	click(a, "#phrase-menu summary")
	click(a, "#phrase-say-good_luck")
	bubble := fmt.Sprintf(`document.getElementById('phrase-%d')`, seat)
	b.wait(bubble+`.hidden === false && `+bubble+`.textContent === 'Your friend: Good luck!' && `+bubble+`.classList.contains('top')`, 5*time.Second)
	b.wait(`document.getElementById('announce').textContent === 'Your friend: Good luck!'`, 5*time.Second)
	a.wait(bubble+`.hidden === false && `+bubble+`.textContent === 'You: Good luck!' && !`+bubble+`.classList.contains('top')`, 5*time.Second)
	b.screenshot(filepath.Join(shots, "phrase-en-phone.png"))

	click(a, "#phrase-menu summary")
	click(a, "#phrase-say-hello") // within 3 s of the last: refused
	a.wait(`document.getElementById('phrase-note').textContent === 'Wait a moment before saying something else.'`, 5*time.Second)
	if eval[bool](b, `document.getElementById('announce').textContent.includes('Hello')`) {
		t.Error("a phrase refused was said on the other phone")
	}
	setLang(a, "fa")
	a.do(colorScheme(true))
	auditNew(a, "phrases offered, Persian phone, dark")
	a.screenshot(filepath.Join(shots, "phrase-menu-fa-phone-dark.png"))
	setLang(a, "en")

	click(b, "#phrases-on") // off
	b.wait(`document.getElementById('phrase-menu').hidden && `+bubble+`.hidden`, 5*time.Second)
	a.wait(bubble+`.hidden`, 10*time.Second) // shown for a while, then gone
	time.Sleep(3 * time.Second)              // past the server's gap between two phrases
	click(a, "#phrase-menu summary")
	click(a, "#phrase-say-thanks")
	a.wait(bubble+`.textContent === 'You: Thank you!'`, 5*time.Second)
	time.Sleep(300 * time.Millisecond)
	if eval[bool](b, bubble+`.hidden === false || document.getElementById('announce').textContent.includes('Thank')`) {
		t.Error("phrases turned off, the other's phrase was shown or said")
	}
	for _, p := range []*page{a, b} {
		p.forget("(Unauthorized) " + p.base + "/api/me")
	}
}
