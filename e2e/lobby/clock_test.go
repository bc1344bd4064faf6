package lobby

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	. "oanquan/e2e/internal/browsertest"
	"oanquan/internal/server"
)

// holdWatch lets a test stop a page from hearing its game's feed
// (window.holdFeed = true): the messages of its WebSockets are dropped
// before the page's own handler sees them, as if they were slow to come.
const holdWatch = `(() => {
	const Socket = window.WebSocket;
	window.WebSocket = class extends Socket {
		constructor(...args) {
			super(...args);
			this.addEventListener('message', (e) => { if (window.holdFeed) e.stopImmediatePropagation(); });
		}
	};
})()`

// withHold has every document the page loads from now on run holdWatch.
var withHold = chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
	_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: holdWatch})
	return err
})

// keepSaid has the page keep everything its live region says, in order
// (window.said).
const keepSaid = `(() => { window.said = []; new MutationObserver(() => { const s = document.getElementById('announce').textContent; if (s) window.said.push(s); })
	.observe(document.getElementById('announce'), {childList: true, characterData: true, subtree: true}); })()`

// clockDrift is, on a page, how far the running clock it counts down is
// from the server's own figure at the same moment, in ms (what it shows
// minus the server's), the server's state fetched by the page and the
// page's clock read at the middle of that request; null while no clock
// runs. The page's figure is the one its clock's text is written from
// (clock.js showing of online.js clockShown).
const clockDrift = `(async () => {
	const { game } = await import('/js/state.js');
	const { clockShown } = await import('/js/online.js');
	const { showing } = await import('/js/clock.js');
	const id = game().id;
	const t0 = performance.now();
	const st = await (await fetch('/api/games/' + id)).json();
	const t1 = performance.now();
	const snap = clockShown();
	const seat = st.clock && st.clock.running;
	if (seat !== 0 && seat !== 1 || !snap || snap.running !== seat) return null;
	return showing(snap, (t0 + t1) / 2).left[seat] - st.clock.remaining[seat];
})()`

// setField sets form field id to value as a person would, with its input
// and change events.
func setField(p *Page, id, value string) {
	p.T.Helper()
	p.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(e => { e.value = %q; e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); })(document.getElementById(%q))`, value, id)))
}

// saidOnce waits until the live region has said text, and a moment more
// (a second time would come within it).
func saidOnce(p *Page, text string) {
	p.T.Helper()
	p.Wait(fmt.Sprintf(`window.said.some(s => s.includes(%q))`, text), 5*time.Second)
	time.Sleep(500 * time.Millisecond)
}

// setRadio picks the radio button of name and value, as a click would.
func setRadio(p *Page, name, value string) {
	p.T.Helper()
	p.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector('input[name=%q][value=%q]').click()`, name, value)))
}

// clockText is seat p's clock as shown.
func clockText(p *Page, seat int) string {
	return Eval[string](p, fmt.Sprintf(`document.getElementById('clock-%d')?.textContent || ''`, seat))
}

// storesWhole fails the test when a store cuts off what it holds (the
// clock beside its name included), or the page scrolls sideways.
func storesWhole(t *testing.T, p *Page, what string) {
	t.Helper()
	if cut := Eval[[]string](p, `[...document.querySelectorAll('.store')].filter(s => s.scrollHeight > s.clientHeight + 1 || s.scrollWidth > s.clientWidth + 1).map(s => s.id + ' ' + s.scrollHeight + '>' + s.clientHeight)`); len(cut) > 0 {
		t.Errorf("%s: stores cut off: %q", what, cut)
	}
	if Eval[bool](p, `document.documentElement.scrollWidth > innerWidth`) {
		t.Errorf("%s: the page scrolls sideways", what)
	}
	if Eval[bool](p, `[0, 1].some(p => { const c = document.getElementById('clock-' + p); const s = document.getElementById('store-' + p); if (!c || c.hidden) return true; const a = c.getBoundingClientRect(), b = s.getBoundingClientRect(); return a.left < b.left - 1 || a.right > b.right + 1 || a.top < b.top - 1 || a.bottom > b.bottom + 1; })`) {
		t.Errorf("%s: a clock is missing or outside its store", what)
	}
}

// TestClockOnTime (issue 20, item 4): a real-time game in two browsers
// at 30 s a side, no increment (twice the smallest time the server takes:
// the screenshots and the audit below are made on a running clock, and on
// a loaded machine they took more than 15 s), chosen in the new-game
// dialog as a custom clock after one the server refuses (its refusal said
// in the dialog, in the page's words). The invitation says the clock; the
// first move's limit counts down; then the creator lets their clock run
// out. Meanwhile the friend's page is sampled against the server's own
// figures (the drift logged); under 10 s the clock is marked; the flag is
// announced once on both pages, the ending says "on time"; the creator's
// page, kept from hearing the flag, makes a move after it and is told
// politely that time had run out. Screenshots with the clocks running:
// a desktop in Vietnamese, a phone in Persian (dark), the stores whole.
func TestClockOnTime(t *testing.T) {
	t.Parallel() // waits more than it works: runs beside another (doc.go)
	if testing.Short() {
		t.Skip("a game of 30 s a side in two browsers")
	}
	shots := ShotDir(t)
	rng := rand.New(rand.NewPCG(20, 4))
	a := NewPage(t, 1200, 900, `{"mode":"online","first":0,"anim":"off"}`)
	a.Do(withHold, chromedp.Reload())
	a.WaitStarted()

	// The dialog: real time, custom, a starting time the server refuses.
	Click(a, "#new")
	a.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	setRadio(a, "mode", "online")
	a.Wait(`document.getElementById('newgame-clock')?.hidden === false`, 5*time.Second)
	setRadio(a, "clock", "realtime")
	a.Wait(`!document.getElementById('clock-realtime').hidden`, 5*time.Second)
	if got := Eval[[]string](a, `[...document.getElementById('clock-preset').options].map(o => o.textContent)`); len(got) != 7 || got[1] != "3 min + 2 s per move" {
		t.Errorf("the presets read %q", got)
	}
	setField(a, "clock-preset", "custom")
	a.Wait(`!document.getElementById('clock-custom').hidden`, 5*time.Second)
	setField(a, "clock-minutes", "0.1")
	setField(a, "clock-increment", "0")
	// The page says the refusal from its data (field, min, max), never
	// from the English message: here the message is made unreadable.
	a.Do(chromedp.Evaluate[chromedp.Void](`(() => { const f = window.fetch; window.fetch = async (...args) => {
		const r = await f(...args);
		if (r.status !== 400) return r;
		const body = await r.json();
		body.error.message = 'refused';
		return new Response(JSON.stringify(body), { status: 400, headers: r.headers });
	}; })()`))
	Click(a, "#newgame-start")
	a.Wait(`!document.getElementById('clock-error').hidden`, 10*time.Second)
	if msg := Text(a, "clock-error"); msg != "The server takes from 0.25 to 180 minutes for each player: change the minutes." {
		t.Errorf("the server's refusal reads %q", msg)
	}
	if !Eval[bool](a, `document.getElementById('newgame').open && document.activeElement.id === 'clock-minutes'`) {
		t.Error("after the refusal the dialog is closed or the minutes have not the focus")
	}
	a.Forget("status of 400") // the refusal asked for
	setField(a, "clock-minutes", "0.5")
	Click(a, "#newgame-start")
	a.Wait(`document.getElementById('invite')?.hidden === false && !document.getElementById('newgame').open`, 10*time.Second)
	if got := Text(a, "invite-clock"); got != "Clock: 0.5 min + 0 s per move." {
		t.Errorf("the invitation says %q", got)
	}
	if got := clockText(a, 0) + " " + clockText(a, 1); got != "0:30 0:30" {
		t.Errorf("the clocks before anyone joined read %q", got)
	}
	link := Eval[string](a, `document.getElementById('invite-link').value`)

	b := NewPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b.Do(chromedp.Navigate(link))
	b.Wait(`document.documentElement.dataset.live === 'on' && document.getElementById('clock-0') && !document.getElementById('clock-0').hidden`, 15*time.Second)
	for _, p := range []*Page{a, b} {
		p.Do(chromedp.Evaluate[chromedp.Void](keepSaid))
	}
	// The first move's limit counts down on both pages.
	a.Wait(`!document.getElementById('first-move').hidden && /Make your first move within 0:[0-3]\d/.test(document.getElementById('first-move').textContent)`, 10*time.Second)
	b.Wait(`/Your friend has 0:[0-3]\d to make a first move/.test(document.getElementById('first-move').textContent)`, 10*time.Second)
	a.Wait(OnlineReady, 10*time.Second)
	MoveOnline(t, rng, a, a, b)
	b.Wait(OnlineReady, 10*time.Second)
	MoveOnline(t, rng, b, a, b)

	// The creator's clock runs now (seat 0): the friend's page sampled
	// against the server, the shots taken in Vietnamese and Persian.
	a.Wait(`document.getElementById('clock-0').classList.contains('running') && document.getElementById('first-move').hidden`, 10*time.Second)
	if Eval[bool](b, `document.getElementById('clock-1').classList.contains('running')`) {
		t.Error("the clock of the side not to move runs")
	}
	label := Eval[string](a, `document.getElementById('clock-0').getAttribute('aria-label')`)
	if !strings.HasPrefix(label, "Your time: ") || !strings.Contains(label, "seconds") {
		t.Errorf("the running clock's label is %q", label)
	}
	if live := Eval[string](a, `document.getElementById('clock-0').getAttribute('role') + ' ' + document.getElementById('clock-0').getAttribute('aria-live')`); live != "timer off" {
		t.Errorf("the clock is %q, want a timer that announces nothing by itself", live)
	}
	SetLang(a, "vi")
	SetLang(b, "fa")
	b.Do(ColorScheme(true))
	a.Screenshot(filepath.Join(shots, "clock-running-desktop-vi.png"))
	storesWhole(t, a, "desktop, Vietnamese")
	b.Screenshot(filepath.Join(shots, "clock-running-phone-fa-dark.png"))
	storesWhole(t, b, "phone, Persian, dark")
	AuditNew(b, "clocks running, Persian phone, dark")
	SetLang(a, "en")
	SetLang(b, "en")
	b.Do(ColorScheme(false))
	// Moves 3 and 4, on the clock; then the creator's runs out.
	MoveOnline(t, rng, a, a, b)
	b.Wait(OnlineReady, 10*time.Second)
	MoveOnline(t, rng, b, a, b)
	a.Wait(`document.getElementById('clock-0').classList.contains('running')`, 10*time.Second)
	a.Do(chromedp.Evaluate[chromedp.Void](`window.holdFeed = true`)) // from now on the creator's page hears nothing
	var drift []float64
	lowSeen := false
	for {
		d := Eval[*float64](b, clockDrift)
		if d == nil {
			break
		}
		drift = append(drift, *d)
		if !lowSeen && Eval[bool](b, `document.getElementById('clock-0').classList.contains('low')`) {
			lowSeen = true
			b.Screenshot(filepath.Join(shots, "clock-low-phone.png"))
		}
		time.Sleep(150 * time.Millisecond)
	}
	if len(drift) < 10 {
		t.Fatalf("%d samples of the running clock", len(drift))
	}
	worst := 0.0
	for _, d := range drift {
		worst = max(worst, math.Abs(d))
	}
	t.Logf("clock drift on the friend's page over %d samples: max %.1f ms (the page's figure minus the server's)", len(drift), worst)
	// The bound is 100 ms, checked when the test runs alone
	// (E2E_PERF=1, as .ci/run does). Beside the other packages' browsers
	// on a loaded machine the page's figure is late by however long the
	// server's state took to arrive (about 90 ms in every sample at load
	// 15 to 20): there only a gross error fails.
	limit := 250.0
	if os.Getenv("E2E_PERF") != "" {
		limit = 100
	}
	if worst > limit {
		t.Errorf("the clock shown drifted %.1f ms from the server's, over %.0f ms (samples %v)", worst, limit, drift)
	}
	if !lowSeen {
		t.Error("the clock under 10 s was never marked low")
	}

	// The flag: the friend's page hears it at once.
	b.Wait(`document.getElementById('result').open`, 10*time.Second)
	if why := Text(b, "result-why"); why != "Your friend ran out of time: the game is won on time." {
		t.Errorf("the friend's ending says %q", why)
	}
	if w := Text(b, "winner"); w != "You win!" {
		t.Errorf("the friend's winner line says %q", w)
	}
	saidOnce(b, "ran out of time")
	if n := Eval[int](b, `window.said.filter(s => s.includes('ran out of time')).length`); n != 1 {
		t.Errorf("the flag was announced %d times on the friend's page: %q", n, Eval[[]string](b, `window.said`))
	}
	if got := clockText(b, 0); got != "0:00.0" {
		t.Errorf("the loser's clock reads %q", got)
	}
	// The creator's page, deaf to the feed, still offers a move, its clock
	// at zero: the move is refused, politely, and the ending shown.
	a.Wait(`document.getElementById('clock-0').textContent === '0:00.0'`, 5*time.Second)
	if !Eval[bool](a, OnlineReady) {
		t.Fatal("the creator's page, kept from the flag, offers no move")
	}
	a.Do(chromedp.Evaluate[chromedp.Void](`window.holdFeed = false`))
	cells := Eval[[]int](a, `[...document.querySelectorAll('#game-board button.cell.legal')].map(b => Number(b.dataset.cell))`)
	Click(a, fmt.Sprintf(`#game-board button.cell[data-cell="%d"]`, cells[0]))
	a.Wait(`document.querySelector('.arrows .arrow:not([hidden])')`, 5*time.Second)
	Click(a, `.arrows .arrow:not([hidden])`)
	a.Wait(`document.getElementById('result').open && !document.getElementById('alert').hidden`, 10*time.Second)
	a.Forget("status of 409") // the late move, refused
	// Refused with time_over if it came before the server's timer flagged
	// the game, else game_over: either is said politely.
	if alert := Text(a, "alert"); alert != "Your time had run out before this move arrived: the game is over, lost on time." && alert != "This game is over. Start a new game, or go back through this one with ← and →." {
		t.Errorf("the late move's refusal reads %q", alert)
	}
	if why := Text(a, "result-why"); why != "You ran out of time: the game is lost on time." {
		t.Errorf("the creator's ending says %q", why)
	}
	saidOnce(a, "time ran out")
	if n := Eval[int](a, `window.said.filter(s => s.includes('time ran out')).length`); n != 1 {
		t.Errorf("the flag was announced %d times on the creator's page: %q", n, Eval[[]string](a, `window.said`))
	}
	var st struct {
		Over   bool
		End    string
		Result struct{ Winner *int }
		Moves  []string
	}
	APICall(t, a.Base, "GET", "/api/games/"+Eval[string](a, GameID), "", "", &st)
	if !st.Over || st.End != "timeout" || st.Result.Winner == nil || *st.Result.Winner != 1 || len(st.Moves) != 4 {
		t.Errorf("the server's game: over %v, end %q, winner %v, moves %q; want over on time, the friend winning, the late move not played", st.Over, st.End, st.Result.Winner, st.Moves)
	}
	a.Screenshot(filepath.Join(shots, "clock-flag-desktop.png"))
	AuditNew(a, "lost on time, desktop")

	// The replay says the time each move took, by the server's figure:
	// move 3, the first one timed, and move 2, a first move (free of the
	// clock, which cannot tell its time).
	Click(b, "#result-close")
	b.Wait(`!document.getElementById('result').open`, 5*time.Second)
	for _, n := range []string{"3", "2"} {
		Click(b, `#replay-bar [data-step="-1"]`)
		b.Wait(`document.querySelector('#replay-bar .where').textContent.includes('After move `+n+` of 4')`, 5*time.Second)
		if took := Text(b, "replay-took"); !regexp.MustCompile(`^This move took \d+\.\d s\.$`).MatchString(took) {
			t.Errorf("the replay of move %s says %q", n, took)
		}
	}
}

// TestClockCorrespondence (issue 20, item 4): a correspondence game of 3
// days per move, chosen in the new-game dialog, in two browsers: the
// invitation says it, the clocks and the first move's limit read in days
// and hours (and their labels in words), the running one marked; then
// the creator starts a newer game against the computer, where it is
// their turn too, and "Your games" lists the correspondence game first
// (their move, the least time left) with its days and hours left. Shots
// at desktop and phone sizes, light and dark, in English, Vietnamese and
// Persian, the stores whole, axe on the clocks and the list.
func TestClockCorrespondence(t *testing.T) {
	t.Parallel() // waits more than it works: runs beside another (doc.go)
	shots := ShotDir(t)
	rng := rand.New(rand.NewPCG(20, 5))
	a := NewPage(t, 1280, 800, `{"mode":"ai","first":0,"anim":"off"}`)
	Click(a, "#new")
	a.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	if !Eval[bool](a, `!document.getElementById('newgame-clock') || document.getElementById('newgame-clock').hidden`) {
		t.Error("the clock is offered for a game against the computer")
	}
	setRadio(a, "mode", "online")
	a.Wait(`document.getElementById('newgame-clock')?.hidden === false`, 5*time.Second)
	setRadio(a, "clock", "days")
	a.Wait(`!document.getElementById('clock-days').hidden && document.getElementById('clock-realtime').hidden`, 5*time.Second)
	if got := Eval[[]string](a, `[...document.getElementById('clock-days-select').options].map(o => o.textContent)`); strings.Join(got, "|") != "1 day per move|3 days per move|7 days per move|14 days per move" {
		t.Errorf("the days offered read %q", got)
	}
	AuditNew(a, "the new-game dialog with its clock")
	setField(a, "clock-days-select", "3")
	Click(a, "#newgame-start")
	a.Wait(`document.getElementById('invite')?.hidden === false && !document.getElementById('newgame').open`, 10*time.Second)
	if got := Text(a, "invite-clock"); got != "Clock: 3 days per move." {
		t.Errorf("the invitation says %q", got)
	}
	link := Eval[string](a, `document.getElementById('invite-link').value`)
	b := NewPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b.Do(chromedp.Navigate(link))
	b.Wait(`document.documentElement.dataset.live === 'on' && document.getElementById('clock-0') && !document.getElementById('clock-0').hidden`, 15*time.Second)
	a.Wait(`/Make your first move within 2d 23h,/.test(document.getElementById('first-move').textContent)`, 10*time.Second)
	if got := clockText(b, 0) + " " + clockText(b, 1); got != "3d 0h 3d 0h" {
		t.Errorf("the clocks before the first moves read %q", got)
	}
	a.Wait(OnlineReady, 10*time.Second)
	MoveOnline(t, rng, a, a, b)
	b.Wait(OnlineReady, 10*time.Second)
	MoveOnline(t, rng, b, a, b)
	for _, p := range []*Page{a, b} {
		p.Wait(`document.getElementById('clock-0').classList.contains('running') && document.getElementById('clock-0').textContent === '2d 23h' && document.getElementById('first-move').hidden`, 10*time.Second)
	}
	if label := Eval[string](a, `document.getElementById('clock-0').getAttribute('aria-label')`); label != "Your time: 2 days 23 hours" {
		t.Errorf("the creator's clock is labelled %q", label)
	}
	if label := Eval[string](a, `document.getElementById('clock-1').getAttribute('aria-label')`); label != "Your friend: 3 days 0 hours left" && label != "Your friend: 3 days left" {
		t.Errorf("the friend's clock on the creator's page is labelled %q", label)
	}
	for _, c := range []struct {
		p     *Page
		name  string
		lang  string
		dark  bool
		clock string
	}{
		{a, "desktop", "en", false, "2d 23h"}, {a, "desktop", "fa", true, "۲ روز ۲۳ ساعت"},
		{b, "phone", "vi", false, "2 ngày 23 giờ"}, {b, "phone", "en", true, "2d 23h"},
	} {
		SetLang(c.p, c.lang)
		c.p.Do(ColorScheme(c.dark))
		name := fmt.Sprintf("clock-days-%s-%s", c.name, c.lang)
		if c.dark {
			name += "-dark"
		}
		c.p.Wait(fmt.Sprintf(`document.getElementById('clock-0').textContent === %q`, c.clock), 5*time.Second)
		// Days and hours read in the language's own direction: in
		// Persian "۲ روز ۲۳ ساعت" right to left (shown left to right,
		// it read "روز ۲۳ ساعت ۲", the units before their numbers).
		want := map[bool]string{true: "rtl", false: "ltr"}[c.lang == "fa"]
		if got := Eval[string](c.p, `getComputedStyle(document.querySelector('#clock-0 .face')).direction`); got != want {
			t.Errorf("%s: the clock's days and hours are written %s, want %s", name, got, want)
		}
		c.p.Screenshot(filepath.Join(shots, name+".png"))
		storesWhole(t, c.p, name)
		AuditNew(c.p, name)
		SetLang(c.p, "en")
		c.p.Do(ColorScheme(false))
	}

	// Every size TestScreenshots takes, with the longest clocks (days and
	// hours, in Persian the longest): no store cuts its clock off.
	for _, lang := range []string{"en", "fa"} {
		SetLang(a, lang)
		for _, sz := range []struct {
			w, h  int
			phone bool
		}{{320, 568, true}, {360, 740, true}, {740, 360, true}, {390, 844, true}, {844, 390, true}, {768, 1024, true}, {1280, 800, false}, {1920, 1080, false}} {
			var emu []chromedp.EmulateViewportOption
			if sz.phone {
				emu = append(emu, chromedp.EmulateMobile, chromedp.EmulateTouch)
			}
			a.Do(chromedp.EmulateViewport(int64(sz.w), int64(sz.h), emu...), chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
			Eval[bool](a, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
			name := fmt.Sprintf("clock-days-%dx%d-%s", sz.w, sz.h, lang)
			a.Screenshot(filepath.Join(shots, name+".png"))
			storesWhole(t, a, name)
		}
	}
	SetLang(a, "en")
	a.Do(chromedp.EmulateViewport(1280, 800))

	// A newer game against the computer, where it is the creator's turn
	// too: the correspondence game still comes first in Your games.
	Click(a, "#new")
	a.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	setRadio(a, "mode", "ai")
	Click(a, "#newgame-start")
	a.Wait(`document.getElementById('online').hidden && `+Ready, 20*time.Second)
	PlayByKeyboard(a, rng)
	a.Wait(Ready, 20*time.Second)
	Click(a, "#nav-games")
	a.Wait(`document.querySelectorAll('#games-list .game-row').length >= 2`, 10*time.Second)
	rows := Eval[[]string](a, `[...document.querySelectorAll('#games-list .game-row')].map(r => r.textContent)`)
	if !strings.Contains(rows[0], "Play a friend online") || !strings.Contains(rows[0], "Your turn") || !regexp.MustCompile(`2d 2[23]h left$`).MatchString(rows[0]) {
		t.Errorf("the first of Your games is %q, want the correspondence game, the creator's turn, with its days and hours left", rows[0])
	}
	if !strings.Contains(rows[1], "Against the computer") || strings.Contains(rows[1], "left") {
		t.Errorf("the second of Your games is %q, want the newer game against the computer, without a clock", rows[1])
	}
	a.Screenshot(filepath.Join(shots, "clock-your-games-desktop.png"))
	AuditNew(a, "Your games with a correspondence game")
}

// TestClockClaim (issue 20, items 3 and 4): a 3+2 game, the preset
// chosen in the dialog, on a server that lets a game be claimed after 2 s
// of absence (30 s by default): the friend's page is closed after the
// first moves, and the creator, on a phone, is offered the claim with
// why (said once in the live region); in Persian, dark, it is shot and
// audited; claiming the win ends the game by abandonment, said in the
// ending dialog.
func TestClockClaim(t *testing.T) {
	clockServer(t, server.Clocks{ClaimAfter: 2 * time.Second})
	shots := ShotDir(t)
	rng := rand.New(rand.NewPCG(20, 3))
	a := NewPage(t, 390, 844, `{"mode":"online","first":0,"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	Click(a, "#new")
	a.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	setRadio(a, "mode", "online")
	a.Wait(`document.getElementById('newgame-clock')?.hidden === false`, 5*time.Second)
	setRadio(a, "clock", "realtime")
	// The custom fields in Persian, dark, on the phone: looked at, audited.
	setField(a, "clock-preset", "custom")
	SetLang(a, "fa")
	a.Do(ColorScheme(true))
	a.Wait(`!document.getElementById('clock-custom').hidden`, 5*time.Second)
	a.Screenshot(filepath.Join(shots, "clock-dialog-phone-fa-dark.png"))
	if Eval[bool](a, `document.getElementById('newgame').scrollWidth > document.getElementById('newgame').clientWidth + 1`) {
		t.Error("the new-game dialog with the clock's fields scrolls sideways on a phone")
	}
	AuditNew(a, "the clock's custom fields, Persian phone, dark")
	SetLang(a, "en")
	a.Do(ColorScheme(false))
	setField(a, "clock-preset", "180+2")
	Click(a, "#newgame-start")
	a.Wait(`document.getElementById('invite')?.hidden === false && !document.getElementById('newgame').open`, 10*time.Second)
	if got := Text(a, "invite-clock"); got != "Clock: 3 min + 2 s per move." {
		t.Errorf("the invitation says %q", got)
	}
	link := Eval[string](a, `document.getElementById('invite-link').value`)
	b := NewPage(t, 1000, 800, `{"anim":"off"}`)
	b.Do(chromedp.Navigate(link))
	b.Wait(`document.documentElement.dataset.live === 'on' && document.getElementById('clock-0') && !document.getElementById('clock-0').hidden`, 15*time.Second)
	a.Do(chromedp.Evaluate[chromedp.Void](keepSaid))
	a.Wait(OnlineReady, 10*time.Second)
	MoveOnline(t, rng, a, a, b)
	b.Wait(OnlineReady, 10*time.Second)
	MoveOnline(t, rng, b, a, b)
	if Eval[bool](a, `!document.getElementById('claim').hidden`) {
		t.Error("a claim offered while the friend is here")
	}
	b.Do(chromedp.Navigate("about:blank")) // the friend leaves the page
	a.Wait(`!document.getElementById('claim').hidden`, 10*time.Second)
	if got := Text(a, "claim-text"); !regexp.MustCompile(`^Your friend left the game [1-3] seconds? ago: their page is closed\.$`).MatchString(got) {
		t.Errorf("the claim says %q", got)
	}
	saidOnce(a, "You may claim the win")
	a.Wait(`/left the game [4-9] seconds ago/.test(document.getElementById('claim-text').textContent)`, 5*time.Second) // it counts on
	// The figure is the server's: a page opened after the friend left
	// (here, reloaded) says how long ago they did.
	a.Do(chromedp.Reload())
	a.Wait(`document.getElementById('claim') && !document.getElementById('claim').hidden`, 10*time.Second)
	if got := Text(a, "claim-text"); !regexp.MustCompile(`^Your friend left the game ([4-9]|1\d) seconds ago: their page is closed\.$`).MatchString(got) {
		t.Errorf("after a reload the claim says %q", got)
	}
	SetLang(a, "fa")
	a.Do(ColorScheme(true))
	a.Screenshot(filepath.Join(shots, "clock-claim-phone-fa-dark.png"))
	storesWhole(t, a, "claim, Persian phone, dark")
	AuditNew(a, "the claim, Persian phone, dark")
	SetLang(a, "en")
	a.Do(ColorScheme(false))
	Click(a, "#claim-win")
	a.Wait(`document.getElementById('result').open`, 10*time.Second)
	if why := Text(a, "result-why"); why != "Your friend left the game, and the win was claimed." {
		t.Errorf("the ending says %q", why)
	}
	if w := Text(a, "winner"); w != "You win!" {
		t.Errorf("the winner line says %q", w)
	}
}

// TestClockFirstMoveAbort (issue 20, item 4): on a server whose first
// moves have 3 s (30 s by default), a 1+0 game (the preset) whose first
// player never moves: the countdown runs on both pages, then the game is
// aborted, said once in the live region and in the ending dialog (which
// names the first move's limit), with no final count.
func TestClockFirstMoveAbort(t *testing.T) {
	clockServer(t, server.Clocks{FirstMove: 3 * time.Second})
	a := NewPage(t, 1200, 900, `{"mode":"online","first":0,"anim":"off","clock":{"kind":"realtime","preset":"60+0"}}`)
	Click(a, "#new")
	a.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	setRadio(a, "mode", "online")
	a.Wait(`document.getElementById('newgame-clock')?.hidden === false && document.getElementById('clock-preset').value === '60+0'`, 5*time.Second)
	Click(a, "#newgame-start")
	a.Wait(`document.getElementById('invite')?.hidden === false && !document.getElementById('newgame').open`, 10*time.Second)
	if got := Text(a, "invite-clock"); got != "Clock: 1 min + 0 s per move." {
		t.Errorf("the invitation says %q (the saved clock setting was not used)", got)
	}
	link := Eval[string](a, `document.getElementById('invite-link').value`)
	b := NewPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b.Do(chromedp.Navigate(link))
	b.Wait(`document.documentElement.dataset.live === 'on' && document.getElementById('clock-0') && !document.getElementById('clock-0').hidden`, 15*time.Second)
	for _, p := range []*Page{a, b} {
		p.Do(chromedp.Evaluate[chromedp.Void](keepSaid))
	}
	a.Wait(`/Make your first move within 0:0[0-3]\.\d, or the game is aborted\./.test(document.getElementById('first-move').textContent)`, 5*time.Second)
	b.Wait(`/Your friend has 0:0[0-3]\.\d to make a first move/.test(document.getElementById('first-move').textContent)`, 5*time.Second)
	for _, p := range []*Page{a, b} {
		p.Wait(`document.getElementById('result').open`, 10*time.Second)
		if w := Text(p, "winner"); w != "Game aborted: nobody wins." {
			t.Errorf("the winner line says %q", w)
		}
		if why := Text(p, "result-why"); why != "The game was aborted before it really began: a first move did not come in time. Nobody wins." {
			t.Errorf("the ending says %q", why)
		}
		if Eval[bool](p, `!document.getElementById('tallies').hidden`) {
			t.Error("an aborted game shows a final count")
		}
		saidOnce(p, "did not come in time")
		if n := Eval[int](p, `window.said.filter(s => s.includes('did not come in time')).length`); n != 1 {
			t.Errorf("the abort was said %d times: %q", n, Eval[[]string](p, `window.said`))
		}
		if !Eval[bool](p, `document.getElementById('first-move').hidden`) {
			t.Error("the first move's countdown still shows after the abort")
		}
	}
}

// TestClockDriftLong (issue 20, item 4, measured; only with
// E2E_LONG=1): a 15+10 game in two browsers for up to ten minutes (or
// its end), each move after 2 to 20 s of thought, both pages' running
// clocks sampled against the server's own figures all along (rematches
// keep it going if a game ends early); it logs the largest drift and
// fails past 100 ms.
func TestClockDriftLong(t *testing.T) {
	if os.Getenv("E2E_LONG") != "1" {
		t.Skip("E2E_LONG=1 runs ten minutes of a clocked game")
	}
	rng := rand.New(rand.NewPCG(20, 10))
	a := NewPage(t, 1200, 900, `{"mode":"online","first":0,"anim":"normal","clock":{"kind":"realtime","preset":"900+10"}}`)
	Click(a, "#new")
	a.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	setRadio(a, "mode", "online")
	a.Wait(`document.getElementById('newgame-clock')?.hidden === false`, 5*time.Second)
	Click(a, "#newgame-start")
	a.Wait(`document.getElementById('invite')?.hidden === false && !document.getElementById('newgame').open`, 10*time.Second)
	link := Eval[string](a, `document.getElementById('invite-link').value`)
	b := NewPage(t, 390, 844, `{"anim":"normal"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b.Do(chromedp.Navigate(link))
	b.Wait(`document.documentElement.dataset.live === 'on' && document.getElementById('clock-0') && !document.getElementById('clock-0').hidden`, 15*time.Second)
	start := time.Now()
	var drift []float64
	moves, games := 0, 1
	for time.Since(start) < 10*time.Minute {
		if a.Over() {
			Click(a, "#result-rematch")
			b.Wait(`document.getElementById('result-rematch')?.textContent === 'Accept the rematch'`, 10*time.Second)
			Click(b, "#result-rematch")
			for _, p := range []*Page{a, b} {
				p.Wait(`!document.getElementById('result').open && (`+MovesShown+`) === 0 && document.getElementById('clock-0') && !document.getElementById('clock-0').hidden`, 15*time.Second)
			}
			games++
		}
		mover := ToMove(t, a, b)
		think := time.Duration(2000+rng.IntN(18000)) * time.Millisecond
		for end := time.Now().Add(think); time.Now().Before(end); time.Sleep(300 * time.Millisecond) {
			for _, p := range []*Page{a, b} {
				if d := Eval[*float64](p, clockDrift); d != nil {
					drift = append(drift, *d)
				}
			}
		}
		MoveOnline(t, rng, mover, a, b)
		moves++
		for deadline := time.Now().Add(20 * time.Second); !a.Over() && !Eval[bool](a, OnlineReady) && !Eval[bool](b, OnlineReady); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("neither the end nor a move to make")
			}
		}
	}
	worst, sum := 0.0, 0.0
	for _, d := range drift {
		worst = max(worst, math.Abs(d))
		sum += d
	}
	t.Logf("clock drift over %v (%d games, %d moves, animations on): %d samples on both pages, max %.1f ms, mean %.1f ms (the page's figure minus the server's)",
		time.Since(start).Round(time.Second), games, moves, len(drift), worst, sum/float64(max(1, len(drift))))
	if worst > 100 {
		t.Errorf("the clock shown drifted %.1f ms from the server's", worst)
	}
}

// clockServer starts a server in the test whose clocks are timed by c
// (shorter waits than the defaults), and has the test's pages use it;
// without chromium the test is skipped first (but for CI=true).
func clockServer(t *testing.T, c server.Clocks) {
	t.Helper()
	if ChromiumPath() == "" && os.Getenv("CI") != "true" {
		t.Skip("chromium not found: apt-get install -y chromium")
	}
	s := server.New(server.Config{Clocks: c})
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		s.Close()
	})
	t.Setenv("E2E_URL", ts.URL)
}
