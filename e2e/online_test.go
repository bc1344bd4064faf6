package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// program is the real server program, serving games from a SQLite file, that a
// test can kill with SIGKILL and start again on the same address.
type program struct {
	t    *testing.T
	bin  string
	args []string
	base string
	cmd  *exec.Cmd
	log  bytes.Buffer
}

// buildServer builds cmd/oanquan and starts it on a free loopback port
// with its games in a new SQLite file.
func buildServer(t *testing.T) *program {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "oanquan")
	if out, err := exec.Command("go", "build", "-o", bin, "oanquan/cmd/oanquan").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := &program{t: t, bin: bin, base: "http://" + addr,
		args: []string{"--addr", addr, "--db", filepath.Join(dir, "games.db"), "--new-games-per-minute", "0"}}
	s.start()
	t.Cleanup(func() {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		if t.Failed() {
			t.Logf("server log:\n%s", s.log.String())
		}
	})
	return s
}

// start runs the server and waits until it answers /api/health.
func (s *program) start() {
	s.t.Helper()
	s.cmd = exec.Command(s.bin, s.args...)
	s.cmd.Stdout, s.cmd.Stderr = &s.log, &s.log
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	client := http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if res, err := client.Get(s.base + "/api/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
	}
	s.t.Fatalf("the server did not come up:\n%s", s.log.String())
}

// kill ends the server with SIGKILL: nothing is given up cleanly.
func (s *program) kill() {
	s.t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		s.t.Fatal(err)
	}
	s.cmd.Wait()
}

const (
	// onlineReady: this page's player may move (a square is offered).
	onlineReady = `document.querySelectorAll('#game-board button.cell.legal').length > 0`
	gameID      = `new URLSearchParams(location.search).get('game') || localStorage.getItem('oanquan.game')`
)

func text(p *page, id string) string {
	return eval[string](p, fmt.Sprintf(`document.getElementById(%q).textContent`, id))
}

// click presses the element of the CSS selector.
func click(p *page, sel string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(sel)))
}

// now is the page's clock in milliseconds since 1970, to the
// microsecond: the browsers of one test share the machine's clock.
const now = `(performance.timeOrigin + performance.now())`

// moveOnline plays a random offered move on mover's page and waits until
// every page shows it; it returns the time from the click on the arrow
// to the move list showing the move on the slowest of the other pages.
func moveOnline(t *testing.T, rng *rand.Rand, mover *page, pages ...*page) time.Duration {
	t.Helper()
	before := eval[int](mover, movesShown)
	cells := eval[[]int](mover, `[...document.querySelectorAll('#game-board button.cell.legal')].map(b => Number(b.dataset.cell))`)
	if len(cells) == 0 {
		t.Fatal("no square offered to the player to move")
	}
	c := cells[rng.IntN(len(cells))]
	dir := []string{"left", "right"}[rng.IntN(2)]
	mover.do(
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#game-board button.cell[data-cell="%d"]`, c))),
		chromedp.WaitVisible(chromedp.CSS(`.arrows .arrow[data-dir="`+dir+`"]`)),
	)
	for _, p := range pages {
		p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.shownAt = 0; new MutationObserver((_, o) => {
			if ((%s) > %d) { window.shownAt = %s; o.disconnect(); }
		}).observe(document.getElementById('moves'), {childList: true, subtree: true})`, movesShown, before, now)))
	}
	mover.do(chromedp.Evaluate[chromedp.Void](`document.addEventListener('click', () => { window.clickedAt = ` + now + ` }, {capture: true, once: true})`))
	click(mover, `.arrows .arrow[data-dir="`+dir+`"]`)
	var took float64
	for _, p := range pages {
		p.wait(fmt.Sprintf(`(%s) > %d && window.shownAt > 0`, movesShown, before), 20*time.Second)
		if p != mover {
			took = max(took, eval[float64](p, `window.shownAt`)-eval[float64](mover, `window.clickedAt`))
		}
	}
	checkDirection(mover, before, c, dir)
	return time.Duration(took * float64(time.Millisecond))
}

// toMove returns whichever of a and b may move now, waiting for one.
func toMove(t *testing.T, a, b *page) *page {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(30 * time.Millisecond) {
		if eval[bool](a, onlineReady) {
			return a
		}
		if eval[bool](b, onlineReady) {
			return b
		}
	}
	t.Fatalf("neither player may move: %q / %q", text(a, "status"), text(b, "status"))
	return nil
}

// TestOnlineFriends: two friends in two browsers play online, and a third
// browser watches. The creator invites (a link, a QR code), a phone opens
// the link and takes the free seat, the watcher follows live; a takeback
// is asked and accepted, a draw offered and declined; the server is killed
// with SIGKILL and started again in the middle of the game and both go on
// without reloading; one resigns; a rematch is agreed, everyone lands in
// the new game, and it is played to its final count.
func TestOnlineFriends(t *testing.T) {
	if chromiumPath() == "" && os.Getenv("CI") != "true" {
		t.Skip("chromium not found: apt-get install -y chromium")
	}
	if testing.Short() {
		t.Skip("builds the program and plays whole games")
	}
	srv := buildServer(t)
	t.Setenv("E2E_URL", srv.base)
	rng := rand.New(rand.NewPCG(9, 10))
	shots := shotDir(t)

	// The creator, on a desktop: a new game with a friend, who starts at
	// random.
	a := newPage(t, 1200, 900, `{"mode":"online","first":"random","anim":"off"}`)
	click(a, "#new")
	a.wait(`document.getElementById('newgame').open`, 5*time.Second)
	if !eval[bool](a, `document.querySelector('#newgame-form input[name=mode][value=online]').checked && !document.getElementById('first-random').hidden && document.getElementById('newgame-level').hidden`) {
		t.Error("new game dialog: online mode not chosen, or 'at random' hidden, or the level shown")
	}
	click(a, "#newgame-start")
	a.wait(`document.getElementById('invite')?.hidden === false && document.getElementById('invite-link')?.value.includes('?game=') && document.getElementById('invite-qr')?.complete && document.getElementById('invite-qr')?.naturalWidth > 0`, 10*time.Second)
	link := eval[string](a, `document.getElementById('invite-link')?.value`)
	id := link[strings.Index(link, "?game=")+len("?game="):]
	if strings.Contains(link, "seat=") || strings.Contains(link, eval[string](a, `JSON.parse(localStorage.getItem('oanquan.secrets'))[`+fmt.Sprintf("%q", id)+`]`)) {
		t.Fatalf("the invitation %q carries a secret", link)
	}
	if got := text(a, "presence"); !strings.Contains(got, "not opened the link") {
		t.Errorf("before the friend comes, presence says %q", got)
	}
	a.screenshot(filepath.Join(shots, "online-invite-desktop.png"))

	// The friend, on a phone, opens the link and takes the free seat.
	b := newPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b.do(chromedp.Navigate(link))
	b.wait(`document.getElementById('online')?.hidden === false && document.getElementById('watching').hidden && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	if seat := eval[string](b, `JSON.stringify(JSON.parse(localStorage.getItem('oanquan.seats'))[`+fmt.Sprintf("%q", id)+`])`); seat != "0" && seat != "1" {
		t.Fatalf("the friend's page holds seat %s", seat)
	}
	a.wait(`document.getElementById('invite')?.hidden && document.getElementById('presence')?.textContent.includes('Your friend is here')`, 10*time.Second)
	if w := eval[int](b, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the friend's phone page is %d px wide in a 390 px viewport", w)
	}

	// A watcher opens the same link: both seats are taken.
	w := newPage(t, 1000, 800, `{"anim":"off"}`)
	w.do(chromedp.Navigate(link))
	w.wait(`!document.getElementById('watching').hidden && document.documentElement.dataset.live === 'on' && document.getElementById('presence')?.textContent.includes('●')`, 10*time.Second)
	a.wait(`document.getElementById('presence')?.textContent.includes('1 watching')`, 10*time.Second)
	if n := eval[int](w, `document.querySelectorAll('#game-board button.cell.legal, #resign:not([hidden]), #abort:not([hidden]), #offer-draw:not([hidden])').length`); n != 0 {
		t.Errorf("the watcher is offered %d things to do", n)
	}

	// Whoever starts, the other page says it is their friend's turn, and
	// neither page offers abort once it has moved.
	var times []time.Duration
	for range 4 {
		m := toMove(t, a, b)
		other := map[*page]*page{a: b, b: a}[m]
		if got := text(other, "status"); got != "Your friend's turn." {
			t.Errorf("the waiting player's status: %q", got)
		}
		times = append(times, moveOnline(t, rng, m, a, b, w))
	}
	b.screenshot(filepath.Join(shots, "online-phone.png"))

	// A takeback, asked and accepted.
	m := toMove(t, a, b)
	other := map[*page]*page{a: b, b: a}[m]
	moveOnline(t, rng, m, a, b, w)
	plies := eval[int](m, movesShown)
	click(m, "#offer-takeback")
	other.wait(`document.getElementById('offer')?.hidden === false && document.getElementById('offer-text')?.textContent.includes('take back')`, 10*time.Second)
	other.wait(`document.getElementById('announce').textContent.includes('take back')`, 5*time.Second)
	other.screenshot(filepath.Join(shots, "online-offer.png"))
	click(other, "#offer-accept")
	for _, p := range []*page{a, b, w} {
		// The one who asked reads the answer where the offer was.
		banner := `document.getElementById('offer')?.hidden`
		if p == m {
			banner = `document.getElementById('offer-text')?.textContent.includes('taken back')`
		}
		p.wait(fmt.Sprintf(`(%s) === %d && %s`, movesShown, plies-1, banner), 10*time.Second)
	}
	m.wait(`document.getElementById('announce').textContent.includes('taken back')`, 5*time.Second)
	if !eval[bool](m, onlineReady) {
		t.Error("after the takeback, the player who took back is not to move")
	}

	// A draw offered and declined.
	click(other, "#offer-draw")
	m.wait(`document.getElementById('offer')?.hidden === false && document.getElementById('offer-text')?.textContent.includes('draw') && document.getElementById('offer-decline')?.hidden === false`, 10*time.Second)
	click(m, "#offer-decline")
	other.wait(`!document.getElementById('offer')?.hidden && document.getElementById('offer-text')?.textContent === 'Your friend declined the draw.' && document.getElementById('announce').textContent.includes('declined the draw')`, 10*time.Second)
	m.wait(`document.getElementById('offer')?.hidden`, 5*time.Second)

	// The server dies and comes back; nobody reloads.
	srv.kill()
	for _, p := range []*page{a, b, w} {
		p.wait(`document.documentElement.dataset.live === 'off'`, 10*time.Second)
		p.do(chromedp.Evaluate[chromedp.Void](`window.samePage = true`))
	}
	// A move made while the server is down is sent again until it lands,
	// and is played once.
	m = toMove(t, a, b)
	shown := eval[int](m, movesShown)
	cells := eval[[]int](m, `[...document.querySelectorAll('#game-board button.cell.legal')].map(b => Number(b.dataset.cell))`)
	m.do(
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#game-board button.cell[data-cell="%d"]`, cells[0]))),
		chromedp.WaitVisible(chromedp.CSS(`.arrows .arrow[data-dir="left"]`)),
		chromedp.Click(chromedp.CSS(`.arrows .arrow[data-dir="left"]`)),
	)
	m.wait(`document.getElementById('status').textContent.includes('sending your move again') && document.querySelector('#game-board .cell.pending')`, 10*time.Second)
	if got := eval[int](m, movesShown); got != shown {
		t.Errorf("the page shows %d moves while the server is down, want the %d the server has", got, shown)
	}
	srv.start()
	for _, p := range []*page{a, b, w} {
		p.wait(`document.documentElement.dataset.live === 'on' && window.samePage`, 20*time.Second)
		p.wait(fmt.Sprintf(`(%s) === %d`, movesShown, shown+1), 20*time.Second)
	}
	var after struct{ Moves []string }
	apiCall(t, srv.base, "GET", "/api/games/"+id, "", "", &after)
	if len(after.Moves) != shown+1 {
		t.Errorf("the server has %d moves after the move sent again, want %d", len(after.Moves), shown+1)
	}
	a.wait(`document.getElementById('presence')?.textContent.includes('Your friend is here')`, 10*time.Second)
	for range 2 {
		moveOnline(t, rng, toMove(t, a, b), a, b, w)
	}
	for _, p := range []*page{a, b, w} {
		logMatchesMoves(p, "after the restart and a takeback")
	}

	// One resigns (a second press confirms); the other wins.
	loser := toMove(t, a, b)
	winner := map[*page]*page{a: b, b: a}[loser]
	click(loser, "#resign")
	if got := text(loser, "resign"); !strings.Contains(got, "again") {
		t.Errorf("the first press of resign says %q, want a request to confirm", got)
	}
	click(loser, "#resign")
	winner.wait(`document.getElementById('result').open && document.getElementById('winner').textContent === 'You win!'`, 10*time.Second)
	if why := text(winner, "result-why"); why != "Your friend resigned." {
		t.Errorf("why the game ended, for the winner: %q", why)
	}
	w.wait(`document.getElementById('result').open`, 10*time.Second)

	// A rematch: offered by the winner, accepted by the loser; the
	// watcher follows.
	click(winner, "#result-rematch")
	loser.wait(`document.getElementById('result-rematch')?.textContent === 'Accept the rematch'`, 10*time.Second)
	click(loser, "#result-rematch")
	for _, p := range []*page{a, b, w} {
		p.wait(fmt.Sprintf(`(%s) !== %q && (%s) === 0 && !document.getElementById('result').open`, gameID, id, movesShown), 15*time.Second)
	}
	next := eval[string](a, gameID)
	if eval[string](b, gameID) != next || eval[string](w, gameID) != next {
		t.Fatalf("after the rematch the pages show %s, %s and %s", next, eval[string](b, gameID), eval[string](w, gameID))
	}
	if !eval[bool](w, `!document.getElementById('watching').hidden`) {
		t.Error("the watcher plays in the rematch")
	}

	// The rematch is played to the end.
	for i := 0; ; i++ {
		if eval[bool](a, `document.getElementById('result').open`) {
			break
		}
		if i == 400 {
			t.Fatal("no end after 400 moves")
		}
		times = append(times, moveOnline(t, rng, toMove(t, a, b), a, b, w))
	}
	for _, p := range []*page{a, b, w} {
		p.wait(`document.getElementById('result').open`, 10*time.Second)
		checkFinalCount(p)
		logMatchesMoves(p, "the rematch")
	}
	// The first game's link opened again in the page: its turns alone.
	a.do(chromedp.Evaluate[chromedp.Void](`document.getElementById('result').close()`))
	click(a, "#nav-games")
	a.wait(`[...document.querySelectorAll('#games-list .game-row')].length > 1`, 10*time.Second)
	click(a, `#games-list li:nth-child(2) .game-row`)
	a.wait(fmt.Sprintf(`(%s) === %q && document.getElementById('result').open`, gameID, id), 10*time.Second)
	logMatchesMoves(a, "the first game opened again after the rematch")
	for _, p := range []*page{a, b, w} {
		p.dropRefused()
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
	t.Parallel() // waits more than it works: runs beside another (doc.go)
	a := newPage(t, 1200, 900, `{"mode":"online","first":0,"anim":"off"}`)
	aiGame := eval[string](a, gameID) // the first visit's game, against the computer
	a.wait(ready, 20*time.Second)
	playByKeyboard(a, rand.New(rand.NewPCG(3, 4))) // begun: Your games lists it
	click(a, "#new")
	a.wait(`document.getElementById('newgame').open`, 5*time.Second)
	click(a, "#newgame-start")
	a.wait(`document.getElementById('invite')?.hidden === false`, 10*time.Second)
	link := eval[string](a, `document.getElementById('invite-link').value`)
	id := link[strings.Index(link, "?game=")+len("?game="):]

	// The private link: shown only in "Play this game on another device",
	// with its warning.
	click(a, "#seat-move-summary")
	seatLink := eval[string](a, `document.getElementById('seat-link').value`)
	if !strings.HasPrefix(seatLink, link+"#seat=") || !strings.Contains(text(a, "seat-link-text"), "never share it") {
		t.Fatalf("private link %q (invitation %q), warning %q", seatLink, link, text(a, "seat-link-text"))
	}

	// The creator's phone opens it: it plays the creator's seat, and the
	// secret leaves the address bar.
	phone := newPage(t, 360, 740, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	phone.do(chromedp.Navigate(seatLink))
	phone.wait(`document.getElementById('invite')?.hidden === false && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	if h := eval[string](phone, `location.hash`); h != "" {
		t.Errorf("the secret stays in the address bar: %q", h)
	}
	if !eval[bool](phone, onlineReady) {
		t.Error("the phone with the creator's seat may not move, though the creator starts")
	}
	// In Persian and dark, on the phone: looked at in the screenshots.
	phone.do(colorScheme(true), chromedp.Evaluate[chromedp.Void](`(s => { s.value = 'fa'; s.dispatchEvent(new Event('change')); })(document.getElementById('lang'))`))
	phone.wait(`document.documentElement.dir === 'rtl' && document.getElementById('invite-heading').textContent !== 'Invite a friend'`, 5*time.Second)
	phone.screenshot(filepath.Join(shotDir(t), "online-invite-phone-fa-dark.png"))
	if w := eval[int](phone, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("the invitation on a 360 px phone in Persian is %d px wide", w)
	}

	// The friend joins; the creator's tab is hidden when the friend moves
	// after the creator's first move.
	friend := newPage(t, 1000, 800, `{"anim":"off"}`)
	friend.do(chromedp.Navigate(link))
	friend.wait(`document.getElementById('online')?.hidden === false && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	rng := rand.New(rand.NewPCG(11, 12))
	moveOnline(t, rng, a, a, friend)
	a.do(chromedp.Evaluate[chromedp.Void](`Object.defineProperty(document, 'hidden', {configurable: true, get: () => true}); document.dispatchEvent(new Event('visibilitychange'))`))
	moveOnline(t, rng, friend, a, friend)
	a.wait(`document.title.startsWith('Your turn')`, 5*time.Second)
	a.do(chromedp.Evaluate[chromedp.Void](`Object.defineProperty(document, 'hidden', {configurable: true, get: () => false}); document.dispatchEvent(new Event('visibilitychange'))`))
	a.wait(`document.title === 'Ô Ăn Quan'`, 5*time.Second)

	// Your games: both of the creator's games, whose turn it is in each;
	// a click opens one.
	click(a, "#nav-games")
	a.wait(`document.getElementById('games')?.open && document.querySelectorAll('#games-list .game-row').length >= 2`, 10*time.Second)
	rows := eval[[]string](a, `[...document.querySelectorAll('#games-list .game-row')].map(b => b.textContent)`)
	if !strings.Contains(rows[0], "Play a friend online") || !strings.Contains(rows[0], "Your turn") || !strings.Contains(rows[0], "2 moves") {
		t.Errorf("the online game in the list: %q", rows[0])
	}
	if !slices.ContainsFunc(rows[1:], func(r string) bool { return strings.Contains(r, "Against the computer") }) {
		t.Errorf("the game against the computer is missing from %q", rows)
	}
	click(a, `#games-list li:last-child .game-row`)
	a.wait(fmt.Sprintf(`(%s) === %q && !document.getElementById('games').open && document.getElementById('online').hidden`, gameID, aiGame), 10*time.Second)
	if eval[bool](a, `location.search.includes('`+id+`')`) {
		t.Error("the address still names the online game")
	}
}

// apiCall sends a request to the server as a program would, with the
// seat's secret if one is given, and decodes the JSON answer into out
// (if not nil). Any status but 2xx fails the test.
func apiCall(t *testing.T, base, method, path, secret, body string, out any) {
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

// TestOnlineAbortAndDeclinedRematch: the friend aborts before anyone has
// moved: nobody wins, and both pages say so; a rematch offered by the
// creator and declined by the friend is announced, and the creator may
// offer again.
func TestOnlineAbortAndDeclinedRematch(t *testing.T) {
	a := newPage(t, 1200, 900, `{"mode":"online","first":0,"anim":"off"}`)
	click(a, "#new")
	a.wait(`document.getElementById('newgame').open`, 5*time.Second)
	click(a, "#newgame-start")
	a.wait(`document.getElementById('invite')?.hidden === false`, 10*time.Second)
	link := eval[string](a, `document.getElementById('invite-link').value`)
	b := newPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b.do(chromedp.Navigate(link))
	b.wait(`document.getElementById('abort')?.hidden === false && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	click(b, "#abort")
	click(b, "#abort")
	for _, p := range []*page{a, b} {
		p.wait(`document.getElementById('result').open && document.getElementById('winner').textContent === 'Game aborted: nobody wins.'`, 10*time.Second)
		if why := text(p, "result-why"); !strings.Contains(why, "aborted before it really began") {
			t.Errorf("why the game ended: %q", why)
		}
		if eval[bool](p, `!document.getElementById('tallies').hidden`) {
			t.Error("an aborted game shows a final count")
		}
	}
	b.screenshot(filepath.Join(shotDir(t), "online-aborted-phone.png"))
	click(a, "#result-rematch")
	b.wait(`document.getElementById('result-rematch').textContent === 'Accept the rematch' && document.getElementById('offer-decline')?.hidden === false`, 10*time.Second)
	click(b, "#result-close")
	click(b, "#offer-decline")
	a.wait(`document.getElementById('announce').textContent.includes('declined the rematch') && document.getElementById('result-rematch').textContent === 'Rematch' && !document.getElementById('result-rematch').disabled`, 10*time.Second)
}
