package lobby

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	. "oanquan/e2e/internal/browsertest"
	"oanquan/internal/rating"
)

// The lobby (issue 21): quick pairing, the seeks, the rating change in
// the ending dialog, the preset phrases.

// signUp makes an account named name in p's browser. The sign-in dialog
// is engineer A's (branch p-account): until it is merged the account is
// made by the API from inside the page, so that the browser keeps the
// session cookie as it does after signing up, and the name is kept where
// the dialog keeps it (account.js: oanquan.me).
func signUp(p *Page, name string) {
	p.T.Helper()
	status := Eval[int](p, fmt.Sprintf(`fetch('/api/accounts', {method: 'POST', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({username: %q, password: 'pebbles-and-mandarins'})}).then(r => (r.ok && localStorage.setItem('oanquan.me', %[1]q), r.status))`, name))
	if status != 201 {
		p.T.Fatalf("signing up %s: status %d", name, status)
	}
}

// openLobby goes to the lobby by the header's link and waits until it
// says who plays (want: a part of that sentence).
func openLobby(p *Page, want string) {
	p.T.Helper()
	Click(p, "#nav-lobby")
	p.Wait(fmt.Sprintf(`document.getElementById('lobby-view')?.hidden === false && document.getElementById('game-view').hidden && document.getElementById('lobby-who').textContent.includes(%q)`, want), 10*time.Second)
}

// watchBoard has p note in window.boardAt (ms, the machine's clock) the
// moment its board shows an online game other than the one shown now,
// and in window.clickedAt the moment of its next click on a quick
// pairing button.
func watchBoard(p *Page) {
	p.T.Helper()
	p.Do(chromedp.Evaluate[chromedp.Void](`(() => {
	window.boardAt = 0; window.clickedAt = 0;
	document.addEventListener('click', (e) => { if (e.target.closest('.quick-go')) window.clickedAt = ` + Now + `; }, {capture: true, once: true});
	const before = localStorage.getItem('oanquan.game');
	const shown = () => !document.getElementById('game-view').hidden && !document.getElementById('online').hidden &&
		localStorage.getItem('oanquan.game') !== before && document.querySelectorAll('#game-board .cell').length === 12;
	new MutationObserver((_, o) => { if (shown()) { window.boardAt = ` + Now + `; o.disconnect(); } })
		.observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['hidden']});
})()`))
}

// quickPair has a then b click quick pairing at 3+2 and returns the time
// from b's click (the one that makes the pair) to both boards showing the
// game, and the game's id.
func quickPair(t *testing.T, a, b *Page) (time.Duration, string) {
	t.Helper()
	watchBoard(a)
	watchBoard(b)
	Click(a, `#quick button[data-clock="180+2"]`)
	a.Wait(`document.getElementById('lobby-wait').hidden === false && document.getElementById('lobby-waited').textContent !== ''`, 10*time.Second)
	Click(b, `#quick button[data-clock="180+2"]`)
	for _, p := range []*Page{a, b} {
		p.Wait(`window.boardAt > 0`, 20*time.Second)
	}
	took := max(Eval[float64](a, `window.boardAt`), Eval[float64](b, `window.boardAt`)) - Eval[float64](b, `window.clickedAt`)
	id := Eval[string](a, GameID)
	if other := Eval[string](b, GameID); other != id {
		t.Fatalf("the two strangers were shown games %s and %s", id, other)
	}
	return time.Duration(took * float64(time.Millisecond)), id
}

// nextMover returns whichever of a and b may move now, or nil once the
// game is over on both pages, waiting for one or the other.
func nextMover(t *testing.T, a, b *Page) *Page {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		switch {
		case a.Over() && b.Over():
			return nil
		case Eval[bool](a, OnlineReady):
			return a
		case Eval[bool](b, OnlineReady):
			return b
		}
	}
	t.Fatalf("neither player may move, and the game is not over: %q / %q", Text(a, "status"), Text(b, "status"))
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
	if ChromiumPath() != "" {
		t.Setenv("E2E_URL", StartServer(t)) // one server for both browsers
	}
	shots := ShotDir(t)
	a, b := Phone(t), Phone(t)
	names := map[*Page]string{a: "Lan", b: "Minh"}
	for _, p := range []*Page{a, b} {
		signUp(p, names[p])
		openLobby(p, names[p])
	}
	if got := Text(a, "quick-text"); !strings.Contains(got, "rated game") {
		t.Errorf("signed in, quick pairing says %q, want rated games", got)
	}
	a.Screenshot(filepath.Join(shots, "lobby-en-phone.png"))

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
		a.Wait(`document.getElementById('abort')?.hidden === false`, 10*time.Second)
		Click(a, "#abort")
		Click(a, "#abort")
		for _, p := range []*Page{a, b} {
			p.Wait(`document.getElementById('result').open && document.getElementById('result-rating').hidden`, 10*time.Second)
			Click(p, "#result-close")
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
			Click(mover, "#resign")
			Click(mover, "#resign")
			continue
		}
		MoveOnline(t, rng, mover, a, b)
	}
	st := a.GameState()
	if st["id"] != id || st["rated"] != true {
		t.Fatalf("the game played is %v, rated %v: want %s, rated", st["id"], st["rated"], id)
	}
	score := 0.5 // the score of seat 0
	if w, ok := st["result"].(map[string]any)["winner"].(float64); ok {
		score = 1 - w
	}
	after := [2]rating.Rating{}
	after[0], after[1], _ = rating.System{}.Game(rating.New(), rating.New(), score, time.Now())
	for _, p := range []*Page{a, b} {
		seat := Eval[int](p, `JSON.parse(localStorage.getItem('oanquan.seats'))[`+GameID+`]`)
		r := after[seat]
		want := fmt.Sprintf("Blitz rating: %s → %s (%+d)", rating.New(), r, int(r.Rating+0.5)-1500)
		p.Wait(`document.getElementById('result').open && document.getElementById('result-rating').hidden === false`, 10*time.Second)
		if got := Text(p, "result-rating"); got != want {
			t.Errorf("%s (seat %d) reads %q in the ending dialog, want %q", names[p], seat, got, want)
		}
		p.Screenshot(filepath.Join(shots, "rating-change-"+names[p]+"-phone.png"))
	}
	AuditNew(a, "ending dialog with the rating change, phone")
	SetLang(b, "fa")
	b.Do(ColorScheme(true))
	b.Wait(`document.getElementById('result-rating').textContent.startsWith('امتیاز برق‌آسا: ۱۵۰۰؟ ← ')`, 5*time.Second)
	AuditNew(b, "ending dialog with the rating change, Persian phone, dark")
	b.Screenshot(filepath.Join(shots, "rating-change-fa-phone-dark.png"))
}

// checkPairedGame checks the game quick pairing made: rated, at 3+2, a
// seat each, the board turned for the player of the top row and given
// the focus.
func checkPairedGame(t *testing.T, a, b *Page, id string) {
	t.Helper()
	st := a.GameState()
	clock, _ := st["clock"].(map[string]any)
	if st["rated"] != true || clock["initial"] != 180.0 || clock["increment"] != 2.0 {
		t.Errorf("quick pairing at 3+2 rated made a game rated %v with the clock %v", st["rated"], clock)
	}
	seats := [2]int{}
	for i, p := range []*Page{a, b} {
		seats[i] = Eval[int](p, `(s => s === 0 || s === 1 ? s : -1)(JSON.parse(localStorage.getItem('oanquan.seats'))[`+GameID+`])`)
		p.Wait(`document.activeElement.closest('#game-board') !== null`, 5*time.Second) // from the lobby's button to the board
		if flipped := Eval[bool](p, `document.getElementById('table').classList.contains('flipped')`); flipped != (seats[i] == 1) {
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
	if ChromiumPath() != "" {
		t.Setenv("E2E_URL", StartServer(t))
	}
	shots := ShotDir(t)
	d := NewPage(t, 1200, 900, `{"anim":"off"}`)
	var posted struct{ ID, Secret string }
	APICall(t, d.Base, "POST", "/api/seeks", "", `{"clock":{"initial":300,"increment":3},"rated":false}`, &posted)
	// From the new-game dialog's "Play anyone": the dialog closes.
	Click(d, "#new")
	d.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	Click(d, `#newgame a[href="#lobby"]`)
	d.Wait(`document.getElementById('lobby-view')?.hidden === false && !document.getElementById('newgame').open && document.activeElement.id === 'lobby-heading' && document.getElementById('lobby-who').textContent.includes('not signed in')`, 10*time.Second)
	d.Wait(fmt.Sprintf(`document.querySelector('#seeks button[data-seek=%q]') !== null`, posted.ID), 10*time.Second)
	if got := Eval[string](d, `document.querySelector('#seeks .seek').textContent`); !strings.Contains(got, "Anonymous") || !strings.Contains(got, "5+3") || !strings.Contains(got, "Casual") {
		t.Errorf("the stranger's seek reads %q", got)
	}
	if Eval[bool](d, `document.getElementById('post-rated').disabled`) == false {
		t.Error("signed out, the seek may be posted rated")
	}
	AuditNew(d, "lobby, desktop")
	d.Screenshot(filepath.Join(shots, "lobby-seeks-en-desktop.png"))
	for _, lang := range []string{"vi", "fr", "de", "ca", "fa", "en"} {
		SetLang(d, lang)
		if raw := Eval[[]string](d, rawKeys); len(raw) != 0 {
			t.Errorf("%s: the lobby shows keys %q", lang, raw)
		}
		if lang == "fa" {
			if Eval[string](d, `document.documentElement.dir`) != "rtl" {
				t.Error("Persian: the page is not right to left")
			}
			d.Do(ColorScheme(true))
			AuditNew(d, "lobby, Persian desktop, dark")
			d.Screenshot(filepath.Join(shots, "lobby-seeks-fa-desktop-dark.png"))
			d.Do(ColorScheme(false))
		}
	}

	p := Phone(t)
	openLobby(p, "not signed in")
	// Quick pairing waited for, then cancelled: the desktop choosing the
	// same time control after it waits too (the ticket left the pool).
	Click(p, `#quick button[data-clock="60+0"]`)
	p.Wait(`document.getElementById('lobby-wait').hidden === false && document.getElementById('lobby-wait-text').textContent === 'Looking for an opponent: 1 min + 0 s per move, Casual.'`, 10*time.Second)
	Click(p, "#lobby-cancel")
	p.Wait(`document.getElementById('lobby-wait').hidden && document.getElementById('announce').textContent.startsWith('Cancelled')`, 10*time.Second)
	Click(d, `#quick button[data-clock="60+0"]`)
	d.Wait(`document.getElementById('lobby-wait').hidden === false`, 10*time.Second)
	time.Sleep(1500 * time.Millisecond) // the pool is tried every second
	if !Eval[bool](d, `document.getElementById('game-view').hidden`) {
		t.Fatal("paired with a ticket cancelled")
	}
	Click(d, "#lobby-cancel")
	d.Wait(`document.getElementById('lobby-wait').hidden`, 10*time.Second)
	setField(p, "post-min", "1800")
	setField(p, "post-max", "1200")
	Click(p, "#post-go")
	p.Wait(`document.getElementById('lobby-alert').hidden === false`, 10*time.Second)
	if got := Text(p, "lobby-alert"); !strings.Contains(got, "the first no more than the second") {
		t.Errorf("a range out of order is refused with %q", got)
	}
	setField(p, "post-min", "")
	setField(p, "post-max", "")
	setField(p, "post-clock", "600+5")
	Click(p, "#post-go")
	p.Wait(`document.getElementById('lobby-wait').hidden === false && document.getElementById('lobby-alert').hidden`, 10*time.Second)
	if got := Text(p, "lobby-wait-text"); got != "Your game waits for an opponent: 10 min + 5 s per move, Casual." {
		t.Errorf("waiting, the phone reads %q", got)
	}
	d.Wait(`[...document.querySelectorAll('#seeks .seek')].some((s) => s.textContent.includes('10+5'))`, 10*time.Second)
	p.Wait(`document.getElementById('lobby-waited').textContent === '0:01'`, 5*time.Second)
	SetLang(p, "fa")
	p.Do(ColorScheme(true))
	AuditNew(p, "lobby, a seek waiting, Persian phone, dark")
	p.Screenshot(filepath.Join(shots, "lobby-waiting-fa-phone-dark.png"))
	Click(p, "#lobby-cancel")
	p.Wait(`document.getElementById('lobby-wait').hidden`, 10*time.Second)
	d.Wait(`![...document.querySelectorAll('#seeks .seek')].some((s) => s.textContent.includes('10+5'))`, 10*time.Second)

	SetLang(p, "en")
	Click(p, "#post-go")
	p.Wait(`document.getElementById('lobby-wait').hidden === false`, 10*time.Second)
	watchBoard(p)
	watchBoard(d)
	d.Wait(`[...document.querySelectorAll('#seeks .seek')].some((s) => s.textContent.includes('10+5'))`, 10*time.Second)
	Click(d, `#seeks .seek:has(.ctl[dir="ltr"]) button:not([data-seek="`+posted.ID+`"])`)
	for _, pg := range []*Page{p, d} {
		pg.Wait(`window.boardAt > 0`, 10*time.Second)
	}
	if a, b := Eval[string](p, GameID), Eval[string](d, GameID); a != b {
		t.Errorf("the seek's poster is shown game %s, the one who accepted it %s", a, b)
	}
	st := d.GameState()
	if clock, _ := st["clock"].(map[string]any); clock["initial"] != 600.0 || st["rated"] == true {
		t.Errorf("the seek made a game with the clock %v, rated %v: want 10+5 casual", clock, st["rated"])
	}
	p.Screenshot(filepath.Join(shots, "lobby-seek-played-phone-dark.png"))
	// Expected: the range refused. Nobody signed in was asked who is
	// (a 401 would be a console error: NewPage fails the test on one).
	p.Forget("(Bad Request) " + p.Base + "/api/seeks")
}

// TestLobbyPhrases: two strangers quick-paired (casual, signed out) say
// preset phrases: one shown by its player's row on both phones and said
// in the other's live region; a second at once is refused and the page
// says why; a player who turns phrases off is offered none and shown
// none. In Persian and dark, audited with axe where AXE_JS is set.
func TestLobbyPhrases(t *testing.T) {
	if ChromiumPath() != "" {
		t.Setenv("E2E_URL", StartServer(t))
	}
	shots := ShotDir(t)
	a, b := Phone(t), Phone(t)
	for _, p := range []*Page{a, b} {
		openLobby(p, "not signed in")
	}
	quickPair(t, a, b)
	seat := Eval[int](a, `JSON.parse(localStorage.getItem('oanquan.seats'))[`+GameID+`]`)
	for _, p := range []*Page{a, b} {
		p.Wait(`document.getElementById('phrase-menu')?.hidden === false && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	}
	Click(a, "#phrase-menu summary")
	Click(a, "#phrase-say-good_luck")
	bubble := fmt.Sprintf(`document.getElementById('phrase-%d')`, seat)
	b.Wait(bubble+`.hidden === false && `+bubble+`.textContent === 'Opponent: Good luck!' && `+bubble+`.classList.contains('top')`, 5*time.Second)
	b.Wait(`document.getElementById('announce').textContent === 'Opponent: Good luck!'`, 5*time.Second)
	a.Wait(bubble+`.hidden === false && `+bubble+`.textContent === 'You: Good luck!' && !`+bubble+`.classList.contains('top')`, 5*time.Second)
	b.Screenshot(filepath.Join(shots, "phrase-en-phone.png"))

	Click(a, "#phrase-menu summary")
	Click(a, "#phrase-say-hello") // within 3 s of the last: refused
	a.Wait(`document.getElementById('phrase-note').textContent === 'Wait a moment before saying something else.'`, 5*time.Second)
	if Eval[bool](b, `document.getElementById('announce').textContent.includes('Hello')`) {
		t.Error("a phrase refused was said on the other phone")
	}
	SetLang(a, "fa")
	a.Do(ColorScheme(true))
	AuditNew(a, "phrases offered, Persian phone, dark")
	a.Screenshot(filepath.Join(shots, "phrase-menu-fa-phone-dark.png"))
	SetLang(a, "en")

	Click(b, "#phrases-on") // off
	b.Wait(`document.getElementById('phrase-menu').hidden && `+bubble+`.hidden`, 5*time.Second)
	a.Wait(bubble+`.hidden`, 10*time.Second) // shown for a while, then gone
	time.Sleep(3 * time.Second)              // past the server's gap between two phrases
	Click(a, "#phrase-menu summary")
	Click(a, "#phrase-say-thanks")
	a.Wait(bubble+`.textContent === 'You: Thank you!'`, 5*time.Second)
	time.Sleep(300 * time.Millisecond)
	if Eval[bool](b, bubble+`.hidden === false || document.getElementById('announce').textContent.includes('Thank')`) {
		t.Error("phrases turned off, the other's phrase was shown or said")
	}
}

// isolated is name as the page writes it in a sentence: between U+2068
// (first strong isolate) and U+2069 (pop directional isolate), the
// plain-text <bdi>.
func isolated(name string) string { return "\u2068" + name + "\u2069" }

// seatOf returns the seat p plays in the game it shows.
func seatOf(p *Page) int {
	p.T.Helper()
	return Eval[int](p, `JSON.parse(localStorage.getItem('oanquan.seats'))[`+GameID+`]`)
}

// namesShown lists what p's page says of the players where it names
// them: the stores' headings, who is here, the status, the log of turns.
const namesShown = `[...document.querySelectorAll('.store-name, #presence, #status, #turns, .phrase-bubble')].map((e) => e.textContent).join(' | ')`

// TestLobbyNames: strangers the lobby pairs are named. Two players with
// accounts, one named in Latin letters (20 of them, the longest a name
// may be) on an English page, one in Persian letters on a Persian page,
// both on 320 px phones: each page names the other by their account
// (never "friend") in the stores' headings, who is here, the status,
// the turns, the phrases, the ending dialog and Your games, isolated
// from the sentence around it; the long name cut short in its store's
// heading and nothing wider than the phone. Two strangers without
// accounts see "Opponent". Light and dark, audited with axe where AXE_JS
// is set.
func TestLobbyNames(t *testing.T) {
	if ChromiumPath() != "" {
		t.Setenv("E2E_URL", StartServer(t))
	}
	shots := ShotDir(t)
	small := func() *Page {
		return NewPage(t, 320, 640, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	const latin, persian = "Wolfgang_Maximillian", "محمدرضا_کریمی"
	a, b := small(), small()
	signUp(a, latin)
	signUp(b, persian)
	SetLang(b, "fa")
	openLobby(a, latin)
	openLobby(b, persian)
	if got := Text(b, "lobby-who"); !strings.Contains(got, isolated(persian)) {
		t.Errorf("the lobby names who plays %q, not isolated", got)
	}
	quickPair(t, a, b)
	sa, sb := seatOf(a), seatOf(b)
	store := func(seat int) string {
		return fmt.Sprintf(`document.querySelector('#store-%d .store-name').textContent`, seat)
	}
	a.Wait(store(sb)+` === `+JSString(isolated(persian))+` && `+store(sa)+` === 'You'`, 10*time.Second)
	b.Wait(store(sa)+` === `+JSString(isolated(latin))+` && `+store(sb)+` === 'شما'`, 10*time.Second)
	a.Wait(`document.getElementById('presence').textContent === `+JSString(isolated(persian)+" is here.")+
		` && document.getElementById('game-info').textContent.startsWith(`+JSString("Online against "+isolated(persian))+`)`, 10*time.Second)
	b.Wait(`document.getElementById('presence').textContent === `+JSString(isolated(latin)+" اینجاست."), 10*time.Second)

	// A move each way: the status and the turns name the other.
	rng := rand.New(rand.NewPCG(8, 21))
	for range 2 {
		mover := nextMover(t, a, b)
		MoveOnline(t, rng, mover, a, b)
	}
	a.Wait(`document.getElementById('turns').textContent.includes(`+JSString(isolated(persian)+" plays")+`)`, 10*time.Second)
	for _, p := range []*Page{a, b} {
		if got := Eval[string](p, namesShown); strings.Contains(got, "friend") || strings.Contains(got, "دوست") {
			t.Errorf("a stranger called a friend: %q", got)
		}
	}

	// The long name inside its store, cut short where it is too long:
	// nothing wider than the phone, nor on a desktop (the stores beside
	// the board) or a phone held sideways.
	for _, p := range []*Page{a, b} {
		if w := Eval[int](p, `document.documentElement.scrollWidth`); w > 320 {
			t.Errorf("a page is %d px wide on a 320 px phone", w)
		}
	}
	nameInside(t, b, sa, "320 px phone")
	for _, size := range [][2]int64{{1280, 800}, {640, 320}} {
		b.Do(chromedp.EmulateViewport(size[0], size[1]))
		Eval[bool](b, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
		nameInside(t, b, sa, fmt.Sprintf("%d×%d", size[0], size[1]))
		b.Screenshot(filepath.Join(shots, fmt.Sprintf("names-fa-%dx%d.png", size[0], size[1])))
	}
	b.Do(chromedp.EmulateViewport(320, 640, chromedp.EmulateMobile, chromedp.EmulateTouch))

	// A phrase, by its player's name.
	for _, p := range []*Page{a, b} {
		p.Wait(`document.getElementById('phrase-menu')?.hidden === false`, 10*time.Second)
	}
	Click(b, "#phrase-menu summary")
	Click(b, "#phrase-say-hello")
	a.Wait(fmt.Sprintf(`document.getElementById('phrase-%d').textContent === %s`, sb, JSString(isolated(persian)+": Hello!")), 5*time.Second)
	a.Screenshot(filepath.Join(shots, "names-en-320.png"))
	AuditNew(a, "a game between strangers named, 320 px phone")
	b.Do(ColorScheme(true))
	b.Screenshot(filepath.Join(shots, "names-fa-320-dark.png"))
	AuditNew(b, "a game between strangers named, Persian 320 px phone, dark")

	// In every language, by name: no key nor placeholder shown raw.
	for _, lang := range []string{"vi", "fr", "ca", "de", "en"} {
		SetLang(a, lang)
		got := Eval[string](a, `[...document.querySelectorAll('#presence, #game-info, #status, .store-name, #turns')].map((e) => e.textContent).join(' | ')`)
		if !strings.Contains(got, isolated(persian)) || strings.Contains(got, "{") || strings.Contains(got, "lobby.") {
			t.Errorf("%s: the page reads %q", lang, got)
		}
	}

	// The ending, and Your games.
	Click(a, "#resign")
	Click(a, "#resign")
	a.Wait(`document.getElementById('result').open && document.getElementById('winner').textContent === `+JSString(isolated(persian)+" wins!"), 10*time.Second)
	b.Wait(`document.getElementById('result').open && document.getElementById('result-why').textContent.includes(`+JSString(isolated(latin))+`)`, 10*time.Second)
	b.Screenshot(filepath.Join(shots, "names-ending-fa-320-dark.png"))
	Click(a, "#result-close")
	Click(a, "#nav-games")
	a.Wait(`[...document.querySelectorAll('#games-list .what')].some((e) => e.textContent.startsWith(`+JSString("Online against "+isolated(persian))+`))`, 10*time.Second)
	a.Screenshot(filepath.Join(shots, "names-games-en-320.png"))

	// Strangers without accounts: "Opponent".
	c, d := small(), small()
	for _, p := range []*Page{c, d} {
		openLobby(p, "not signed in")
	}
	quickPair(t, c, d)
	c.Wait(store(1-seatOf(c))+` === 'Opponent' && document.getElementById('presence').textContent === 'Opponent is here.' &&
		document.getElementById('game-info').textContent.startsWith('Online against a player from the lobby')`, 10*time.Second)
	if got := Eval[string](c, namesShown); strings.Contains(got, "friend") {
		t.Errorf("a stranger without an account called a friend: %q", got)
	}
}

// nameInside checks that the name of seat's store on p's page is drawn
// inside its store (cut short if need be), and no wider than the page.
func nameInside(t *testing.T, p *Page, seat int, where string) {
	t.Helper()
	box := Eval[[]float64](p, fmt.Sprintf(`(e => { const n = e.getBoundingClientRect(), s = e.closest('.store').getBoundingClientRect();
		return [n.left, n.right, s.left, s.right, e.scrollWidth, e.clientWidth, document.documentElement.scrollWidth, innerWidth]; })(document.querySelector('#store-%d .store-name'))`, seat))
	if box[0] < box[2]-0.5 || box[1] > box[3]+0.5 || box[6] > box[7] {
		t.Errorf("%s: the name [%.0f, %.0f] overflows its store [%.0f, %.0f], or the page (%.0f px of %.0f)", where, box[0], box[1], box[2], box[3], box[6], box[7])
	}
	t.Logf("%s: the name takes %.0f px of %.0f (cut short: %v)", where, box[5], box[4], box[4] > box[5])
}

// TestLobbyWhoAmI: the lobby learns who is signed in without a console
// error for a visitor who is not (the server's 401 to GET /api/me is
// logged as a failed load: NewPage fails a test on one). A browser that
// never signed in is not asked for; one that did is asked, and when its
// session has ended meanwhile (here: a name kept, no session) the lobby
// says it plays casual games and forgets the name.
func TestLobbyWhoAmI(t *testing.T) {
	p := NewPage(t, 1280, 800, `{"anim":"off"}`)
	asked := `performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname === '/api/me').length`
	openLobby(p, "not signed in")
	if n := Eval[int](p, asked); n != 0 {
		t.Errorf("a visitor who never signed in: GET /api/me asked %d times, want none", n)
	}
	Click(p, ".lobby-back a")
	p.Wait(`!document.getElementById('game-view').hidden`, 5*time.Second)
	p.Do(chromedp.Evaluate[chromedp.Void](`localStorage.setItem('oanquan.me', 'Ghost')`))
	openLobby(p, "not signed in")
	p.Wait(`localStorage.getItem('oanquan.me') === null`, 5*time.Second)
	if n := Eval[int](p, asked); n != 1 {
		t.Errorf("a name kept with no session: GET /api/me asked %d times, want once", n)
	}
	p.Forget("(Unauthorized) " + p.Base + "/api/me") // that once, asked for
}
