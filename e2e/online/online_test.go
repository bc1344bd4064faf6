package online

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	. "oanquan/e2e/internal/browsertest"
)

// TestOnlineFriends: two friends in two browsers play online, and a third
// browser watches. The creator invites (a link, a QR code), a phone opens
// the link and takes the free seat, the watcher follows live; a takeback
// is asked and accepted, a draw offered and declined; the server is killed
// with SIGKILL and started again in the middle of the game and both go on
// without reloading; one resigns; a rematch is agreed, everyone lands in
// the new game, and it is played to its final count.
func TestOnlineFriends(t *testing.T) {
	if ChromiumPath() == "" && os.Getenv("CI") != "true" {
		t.Skip("chromium not found: apt-get install -y chromium")
	}
	if testing.Short() {
		t.Skip("builds the program and plays whole games")
	}
	srv := BuildServer(t)
	t.Setenv("E2E_URL", srv.Base)
	rng := rand.New(rand.NewPCG(9, 10))
	shots := ShotDir(t)

	// The creator, on a desktop: a new game with a friend, who starts at
	// random.
	a := NewPage(t, 1200, 900, `{"mode":"online","first":"random","anim":"off"}`)
	Click(a, "#new")
	a.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	if !Eval[bool](a, `document.querySelector('#newgame-form input[name=mode][value=online]').checked && !document.getElementById('first-random').hidden && document.getElementById('newgame-level').hidden`) {
		t.Error("new game dialog: online mode not chosen, or 'at random' hidden, or the level shown")
	}
	Click(a, "#newgame-start")
	a.Wait(`document.getElementById('invite')?.hidden === false && document.getElementById('invite-link')?.value.includes('?game=') && document.getElementById('invite-qr')?.complete && document.getElementById('invite-qr')?.naturalWidth > 0`, 10*time.Second)
	link := Eval[string](a, `document.getElementById('invite-link')?.value`)
	id := link[strings.Index(link, "?game=")+len("?game="):]
	if strings.Contains(link, "seat=") || strings.Contains(link, Eval[string](a, `JSON.parse(localStorage.getItem('oanquan.secrets'))[`+fmt.Sprintf("%q", id)+`]`)) {
		t.Fatalf("the invitation %q carries a secret", link)
	}
	if got := Text(a, "presence"); !strings.Contains(got, "not opened the link") {
		t.Errorf("before the friend comes, presence says %q", got)
	}
	a.Screenshot(filepath.Join(shots, "online-invite-desktop.png"))

	// The friend, on a phone, opens the link and takes the free seat.
	b := NewPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b.Do(chromedp.Navigate(link))
	b.Wait(`document.getElementById('online')?.hidden === false && document.getElementById('watching').hidden && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	if seat := Eval[string](b, `JSON.stringify(JSON.parse(localStorage.getItem('oanquan.seats'))[`+fmt.Sprintf("%q", id)+`])`); seat != "0" && seat != "1" {
		t.Fatalf("the friend's page holds seat %s", seat)
	}
	a.Wait(`document.getElementById('invite')?.hidden && document.getElementById('presence')?.textContent.includes('Your friend is here')`, 10*time.Second)
	if w := Eval[int](b, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the friend's phone page is %d px wide in a 390 px viewport", w)
	}

	// A watcher opens the same link: both seats are taken.
	w := NewPage(t, 1000, 800, `{"anim":"off"}`)
	w.Do(chromedp.Navigate(link))
	w.Wait(`!document.getElementById('watching').hidden && document.documentElement.dataset.live === 'on' && document.getElementById('presence')?.textContent.includes('●')`, 10*time.Second)
	a.Wait(`document.getElementById('presence')?.textContent.includes('1 watching')`, 10*time.Second)
	if n := Eval[int](w, `document.querySelectorAll('#game-board button.cell.legal, #resign:not([hidden]), #abort:not([hidden]), #offer-draw:not([hidden])').length`); n != 0 {
		t.Errorf("the watcher is offered %d things to do", n)
	}

	// Whoever starts, the other page says it is their friend's turn, and
	// neither page offers abort once it has moved.
	var times []time.Duration
	for range 4 {
		m := ToMove(t, a, b)
		other := map[*Page]*Page{a: b, b: a}[m]
		if got := Text(other, "status"); got != "Your friend's turn." {
			t.Errorf("the waiting player's status: %q", got)
		}
		times = append(times, MoveOnline(t, rng, m, a, b, w))
	}
	b.Screenshot(filepath.Join(shots, "online-phone.png"))

	// A takeback, asked and accepted.
	m := ToMove(t, a, b)
	other := map[*Page]*Page{a: b, b: a}[m]
	MoveOnline(t, rng, m, a, b, w)
	plies := Eval[int](m, MovesShown)
	Click(m, "#offer-takeback")
	other.Wait(`document.getElementById('offer')?.hidden === false && document.getElementById('offer-text')?.textContent.includes('take back')`, 10*time.Second)
	other.Wait(`document.getElementById('announce').textContent.includes('take back')`, 5*time.Second)
	other.Screenshot(filepath.Join(shots, "online-offer.png"))
	Click(other, "#offer-accept")
	for _, p := range []*Page{a, b, w} {
		// The one who asked reads the answer where the offer was.
		banner := `document.getElementById('offer')?.hidden`
		if p == m {
			banner = `document.getElementById('offer-text')?.textContent.includes('taken back')`
		}
		p.Wait(fmt.Sprintf(`(%s) === %d && %s`, MovesShown, plies-1, banner), 10*time.Second)
	}
	m.Wait(`document.getElementById('announce').textContent.includes('taken back')`, 5*time.Second)
	if !Eval[bool](m, OnlineReady) {
		t.Error("after the takeback, the player who took back is not to move")
	}

	// A draw offered and declined.
	Click(other, "#offer-draw")
	m.Wait(`document.getElementById('offer')?.hidden === false && document.getElementById('offer-text')?.textContent.includes('draw') && document.getElementById('offer-decline')?.hidden === false`, 10*time.Second)
	Click(m, "#offer-decline")
	other.Wait(`!document.getElementById('offer')?.hidden && document.getElementById('offer-text')?.textContent === 'Your friend declined the draw.' && document.getElementById('announce').textContent.includes('declined the draw')`, 10*time.Second)
	m.Wait(`document.getElementById('offer')?.hidden`, 5*time.Second)

	// The server dies and comes back; nobody reloads.
	srv.Kill()
	for _, p := range []*Page{a, b, w} {
		p.Wait(`document.documentElement.dataset.live === 'off'`, 10*time.Second)
		p.Do(chromedp.Evaluate[chromedp.Void](`window.samePage = true`))
	}
	// A move made while the server is down is sent again until it lands,
	// and is played once.
	m = ToMove(t, a, b)
	shown := Eval[int](m, MovesShown)
	cells := Eval[[]int](m, `[...document.querySelectorAll('#game-board button.cell.legal')].map(b => Number(b.dataset.cell))`)
	m.Do(
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#game-board button.cell[data-cell="%d"]`, cells[0]))),
		chromedp.WaitVisible(chromedp.CSS(`.arrows .arrow[data-dir="left"]`)),
		chromedp.Click(chromedp.CSS(`.arrows .arrow[data-dir="left"]`)),
	)
	m.Wait(`document.getElementById('status').textContent.includes('sending your move again') && document.querySelector('#game-board .cell.pending')`, 10*time.Second)
	if got := Eval[int](m, MovesShown); got != shown {
		t.Errorf("the page shows %d moves while the server is down, want the %d the server has", got, shown)
	}
	srv.Start()
	for _, p := range []*Page{a, b, w} {
		p.Wait(`document.documentElement.dataset.live === 'on' && window.samePage`, 20*time.Second)
		p.Wait(fmt.Sprintf(`(%s) === %d`, MovesShown, shown+1), 20*time.Second)
	}
	var after struct{ Moves []string }
	APICall(t, srv.Base, "GET", "/api/games/"+id, "", "", &after)
	if len(after.Moves) != shown+1 {
		t.Errorf("the server has %d moves after the move sent again, want %d", len(after.Moves), shown+1)
	}
	a.Wait(`document.getElementById('presence')?.textContent.includes('Your friend is here')`, 10*time.Second)
	for range 2 {
		MoveOnline(t, rng, ToMove(t, a, b), a, b, w)
	}
	for _, p := range []*Page{a, b, w} {
		LogMatchesMoves(p, "after the restart and a takeback")
	}

	// One resigns (a second press confirms); the other wins.
	loser := ToMove(t, a, b)
	winner := map[*Page]*Page{a: b, b: a}[loser]
	Click(loser, "#resign")
	if got := Text(loser, "resign"); !strings.Contains(got, "again") {
		t.Errorf("the first press of resign says %q, want a request to confirm", got)
	}
	Click(loser, "#resign")
	winner.Wait(`document.getElementById('result').open && document.getElementById('winner').textContent === 'You win!'`, 10*time.Second)
	if why := Text(winner, "result-why"); why != "Your friend resigned." {
		t.Errorf("why the game ended, for the winner: %q", why)
	}
	w.Wait(`document.getElementById('result').open`, 10*time.Second)

	// A rematch: offered by the winner, accepted by the loser; the
	// watcher follows.
	Click(winner, "#result-rematch")
	loser.Wait(`document.getElementById('result-rematch')?.textContent === 'Accept the rematch'`, 10*time.Second)
	Click(loser, "#result-rematch")
	for _, p := range []*Page{a, b, w} {
		p.Wait(fmt.Sprintf(`(%s) !== %q && (%s) === 0 && !document.getElementById('result').open`, GameID, id, MovesShown), 15*time.Second)
	}
	next := Eval[string](a, GameID)
	if Eval[string](b, GameID) != next || Eval[string](w, GameID) != next {
		t.Fatalf("after the rematch the pages show %s, %s and %s", next, Eval[string](b, GameID), Eval[string](w, GameID))
	}
	if !Eval[bool](w, `!document.getElementById('watching').hidden`) {
		t.Error("the watcher plays in the rematch")
	}

	// The rematch is played to the end.
	for i := 0; ; i++ {
		if Eval[bool](a, `document.getElementById('result').open`) {
			break
		}
		if i == 400 {
			t.Fatal("no end after 400 moves")
		}
		times = append(times, MoveOnline(t, rng, ToMove(t, a, b), a, b, w))
	}
	for _, p := range []*Page{a, b, w} {
		p.Wait(`document.getElementById('result').open`, 10*time.Second)
		CheckFinalCount(p)
		LogMatchesMoves(p, "the rematch")
	}
	// The first game's link opened again in the page: its turns alone.
	a.Do(chromedp.Evaluate[chromedp.Void](`document.getElementById('result').close()`))
	Click(a, "#nav-games")
	a.Wait(`[...document.querySelectorAll('#games-list .game-row')].length > 1`, 10*time.Second)
	Click(a, `#games-list li:nth-child(2) .game-row`)
	a.Wait(fmt.Sprintf(`(%s) === %q && document.getElementById('result').open`, GameID, id), 10*time.Second)
	LogMatchesMoves(a, "the first game opened again after the rematch")
	for _, p := range []*Page{a, b, w} {
		p.DropRefused()
	}
	slices.Sort(times)
	t.Logf("from a click on an arrow to the move shown on the other player's and the watcher's pages (animation off): median %v, worst %v over %d moves",
		times[len(times)/2].Round(100*time.Microsecond), times[len(times)-1].Round(100*time.Microsecond), len(times))
}

// TestOnlineSeatLinkAndYourGames: the creator moves their seat to their
// phone with the private link (which leaves the address bar at once), the
// list of their games says whose turn it is in each, and a player whose
// tab is hidden is called by the tab's title when it becomes their turn.
func TestOnlineSeatLinkAndYourGames(t *testing.T) {
	t.Parallel() // waits more than it works: may run beside another such test (doc.go)
	a := NewPage(t, 1200, 900, `{"mode":"online","first":0,"anim":"off"}`)
	aiGame := Eval[string](a, GameID) // the first visit's game, against the computer
	a.Wait(Ready, 20*time.Second)
	PlayByKeyboard(a, rand.New(rand.NewPCG(3, 4))) // begun: Your games lists it
	Click(a, "#new")
	a.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	Click(a, "#newgame-start")
	a.Wait(`document.getElementById('invite')?.hidden === false`, 10*time.Second)
	link := Eval[string](a, `document.getElementById('invite-link').value`)
	id := link[strings.Index(link, "?game=")+len("?game="):]

	// The private link: shown only in "Play this game on another device",
	// with its warning.
	Click(a, "#seat-move-summary")
	seatLink := Eval[string](a, `document.getElementById('seat-link').value`)
	if !strings.HasPrefix(seatLink, link+"#seat=") || !strings.Contains(Text(a, "seat-link-text"), "never share it") {
		t.Fatalf("private link %q (invitation %q), warning %q", seatLink, link, Text(a, "seat-link-text"))
	}

	// The creator's phone opens it: it plays the creator's seat, and the
	// secret leaves the address bar.
	phone := NewPage(t, 360, 740, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	phone.Do(chromedp.Navigate(seatLink))
	phone.Wait(`document.getElementById('invite')?.hidden === false && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	if h := Eval[string](phone, `location.hash`); h != "" {
		t.Errorf("the secret stays in the address bar: %q", h)
	}
	if !Eval[bool](phone, OnlineReady) {
		t.Error("the phone with the creator's seat may not move, though the creator starts")
	}
	// In Persian and dark, on the phone: looked at in the screenshots.
	phone.Do(ColorScheme(true), chromedp.Evaluate[chromedp.Void](`(s => { s.value = 'fa'; s.dispatchEvent(new Event('change')); })(document.getElementById('lang'))`))
	phone.Wait(`document.documentElement.dir === 'rtl' && document.getElementById('invite-heading').textContent !== 'Invite a friend'`, 5*time.Second)
	phone.Screenshot(filepath.Join(ShotDir(t), "online-invite-phone-fa-dark.png"))
	if w := Eval[int](phone, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("the invitation on a 360 px phone in Persian is %d px wide", w)
	}

	// The friend joins; the creator's tab is hidden when the friend moves
	// after the creator's first move.
	friend := NewPage(t, 1000, 800, `{"anim":"off"}`)
	friend.Do(chromedp.Navigate(link))
	friend.Wait(`document.getElementById('online')?.hidden === false && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	rng := rand.New(rand.NewPCG(11, 12))
	MoveOnline(t, rng, a, a, friend)
	a.Do(chromedp.Evaluate[chromedp.Void](`Object.defineProperty(document, 'hidden', {configurable: true, get: () => true}); document.dispatchEvent(new Event('visibilitychange'))`))
	MoveOnline(t, rng, friend, a, friend)
	a.Wait(`document.title.startsWith('Your turn')`, 5*time.Second)
	a.Do(chromedp.Evaluate[chromedp.Void](`Object.defineProperty(document, 'hidden', {configurable: true, get: () => false}); document.dispatchEvent(new Event('visibilitychange'))`))
	a.Wait(`document.title === 'Ô Ăn Quan'`, 5*time.Second)

	// Your games: both of the creator's games, whose turn it is in each;
	// a click opens one.
	Click(a, "#nav-games")
	a.Wait(`document.getElementById('games')?.open && document.querySelectorAll('#games-list .game-row').length >= 2`, 10*time.Second)
	rows := Eval[[]string](a, `[...document.querySelectorAll('#games-list .game-row')].map(b => b.textContent)`)
	if !strings.Contains(rows[0], "Play a friend online") || !strings.Contains(rows[0], "Your turn") || !strings.Contains(rows[0], "2 moves") {
		t.Errorf("the online game in the list: %q", rows[0])
	}
	if !slices.ContainsFunc(rows[1:], func(r string) bool { return strings.Contains(r, "Against the computer") }) {
		t.Errorf("the game against the computer is missing from %q", rows)
	}
	Click(a, `#games-list li:last-child .game-row`)
	a.Wait(fmt.Sprintf(`(%s) === %q && !document.getElementById('games').open && document.getElementById('online').hidden`, GameID, aiGame), 10*time.Second)
	if Eval[bool](a, `location.search.includes('`+id+`')`) {
		t.Error("the address still names the online game")
	}
}

// TestOnlineAbortAndDeclinedRematch: the friend aborts before anyone has
// moved: nobody wins, and both pages say so; a rematch offered by the
// creator and declined by the friend is announced, and the creator may
// offer again.
func TestOnlineAbortAndDeclinedRematch(t *testing.T) {
	a := NewPage(t, 1200, 900, `{"mode":"online","first":0,"anim":"off"}`)
	Click(a, "#new")
	a.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	Click(a, "#newgame-start")
	a.Wait(`document.getElementById('invite')?.hidden === false`, 10*time.Second)
	link := Eval[string](a, `document.getElementById('invite-link').value`)
	b := NewPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b.Do(chromedp.Navigate(link))
	b.Wait(`document.getElementById('abort')?.hidden === false && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	Click(b, "#abort")
	Click(b, "#abort")
	for _, p := range []*Page{a, b} {
		p.Wait(`document.getElementById('result').open && document.getElementById('winner').textContent === 'Game aborted: nobody wins.'`, 10*time.Second)
		if why := Text(p, "result-why"); !strings.Contains(why, "aborted before it really began") {
			t.Errorf("why the game ended: %q", why)
		}
		if Eval[bool](p, `!document.getElementById('tallies').hidden`) {
			t.Error("an aborted game shows a final count")
		}
	}
	b.Screenshot(filepath.Join(ShotDir(t), "online-aborted-phone.png"))
	Click(a, "#result-rematch")
	b.Wait(`document.getElementById('result-rematch').textContent === 'Accept the rematch' && document.getElementById('offer-decline')?.hidden === false`, 10*time.Second)
	Click(b, "#result-close")
	Click(b, "#offer-decline")
	a.Wait(`document.getElementById('announce').textContent.includes('declined the rematch') && document.getElementById('result-rematch').textContent === 'Rematch' && !document.getElementById('result-rematch').disabled`, 10*time.Second)
}
