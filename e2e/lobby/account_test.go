package lobby

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	. "oanquan/e2e/internal/browsertest"
	"oanquan/internal/account"
	"oanquan/internal/server"
	"oanquan/internal/store/sqlite"
	"oanquan/web"
)

// accountSite starts the game server with accounts, its games in a SQLite
// file, for the test's pages (E2E_URL): argon2id made cheap and the
// limits of sign-ups and sign-ins lifted, as the server's own tests do,
// so that a test can make the accounts it needs from one address.
func accountSite(t *testing.T) string {
	t.Helper()
	if ChromiumPath() == "" && os.Getenv("CI") != "true" {
		t.Skip("chromium not found: apt-get install -y chromium")
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	inf := server.Rate{PerMinute: math.Inf(1)}
	s := server.New(server.Config{Store: st,
		Limits:   server.Limits{Creates: server.Rate{PerMinute: 1e6, Burst: 1000}, SignIns: inf, SignUps: inf, SignInFailures: inf},
		Accounts: server.Accounts{Hashing: account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}}})
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		s.Close()
		st.Close()
	})
	t.Setenv("E2E_URL", ts.URL)
	return ts.URL
}

// accountForm fills the account dialog's fields (name → value) and
// submits it, waiting until the page has its answer.
func accountForm(p *Page, fields map[string]string) {
	p.T.Helper()
	js, _ := json.Marshal(fields)
	p.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const f = document.querySelector('#account form');
		for (const [k, v] of Object.entries(%s)) f.elements[k].value = v;
		window.answered = false;
		f.querySelector('button[type=submit]').click();
	})()`, js)))
	p.Wait(`!document.querySelector('#account form button[type=submit]')?.disabled`, 10*time.Second)
}

// accountError is what the account dialog says went wrong.
func accountError(p *Page) string {
	return Eval[string](p, `document.getElementById('account-error')?.textContent || ''`)
}

// openAccount presses the header's account button and waits for the
// dialog's panel with that title.
func openAccount(p *Page, titleKey string) {
	p.T.Helper()
	Click(p, "#nav-account")
	p.Wait(fmt.Sprintf(`document.getElementById('account')?.open && document.getElementById('account-title').textContent === %q`, English(p.T, titleKey)), 10*time.Second)
}

// menuItem presses the account menu's item of key.
func menuItem(p *Page, key string) {
	p.T.Helper()
	Click(p, fmt.Sprintf(`#account [data-i18n=%q]`, key))
}

// TestAccountLifecycle: on a phone, a player makes an account from the
// header (a common password and a short name refused, each said in the
// player's terms), signs out, fails to sign in with a wrong password and
// with an unknown name (the same words for both), signs in, changes the
// password (the wrong old one said), signs out everywhere, signs in with
// the new password and deletes the account (a wrong password first):
// the server no longer knows the name.
func TestAccountLifecycle(t *testing.T) {
	base := accountSite(t)
	p := NewPage(t, 390, 844, `{"mode":"ai","level":"easy","anim":"off","first":0}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	// The refusals this test asks for are logged by the browser.
	t.Cleanup(func() { p.DropErrors(accountRefusal) })
	p.Do(chromedp.Evaluate[chromedp.Void](keepSaid))
	if got := Eval[string](p, `document.getElementById('nav-account').getAttribute('aria-label')`); got != English(t, "account.signIn") {
		t.Fatalf("header's account button is named %q", got)
	}
	if w := Eval[float64](p, `document.getElementById('nav-account').getBoundingClientRect().width`); w > 60 {
		t.Errorf("on a phone the header's account button is %v px wide: want its icon alone", w)
	}
	openAccount(p, "account.signInTitle")
	Click(p, `#account [data-i18n="account.newHere"]`)
	p.Wait(`document.getElementById('account-title').textContent === 'Create an account'`, 5*time.Second)
	accountForm(p, map[string]string{"username": "Lan", "password": "password"})
	if got, want := accountError(p), English(t, "account.err.password.common"); got != want {
		t.Errorf("a common password: %q, want %q", got, want)
	}
	if Eval[string](p, `document.activeElement.name`) != "password" || Eval[string](p, `document.getElementById('account-password').getAttribute('aria-invalid')`) != "true" {
		t.Error("the refused password is not marked and focused")
	}
	accountForm(p, map[string]string{"username": "L", "password": "trâu ăn cỏ non"})
	if got, want := accountError(p), English(t, "account.err.username.too_short", "min", "3"); got != want {
		t.Errorf("a short name: %q, want %q", got, want)
	}
	accountForm(p, map[string]string{"username": "Lan", "password": "trâu ăn cỏ non"})
	p.Wait(`!document.getElementById('account').open && document.getElementById('nav-account').textContent === 'Lan'`, 10*time.Second)
	saidOnce(p, English(t, "account.created", "name", "Lan"))
	if got := Eval[string](p, `document.getElementById('nav-account').getAttribute('aria-label')`); got != English(t, "account.menuOf", "name", "Lan") {
		t.Errorf("signed in, the header's account button is named %q", got)
	}
	openAccount(p, "account.menuTitle")
	menuItem(p, "account.signOut")
	p.Wait(`document.getElementById('nav-account').textContent === 'Sign in'`, 10*time.Second)

	openAccount(p, "account.signInTitle")
	accountForm(p, map[string]string{"username": "Lan", "password": "trâu ăn cỏ già"})
	wrong := accountError(p)
	accountForm(p, map[string]string{"username": "Nobody", "password": "trâu ăn cỏ già"})
	unknown := accountError(p)
	if want := English(t, "account.err.credentials"); wrong != want || unknown != want {
		t.Errorf("a wrong password: %q; an unknown name: %q; want both %q", wrong, unknown, want)
	}
	accountForm(p, map[string]string{"username": "lan", "password": "trâu ăn cỏ non"})
	p.Wait(`document.getElementById('nav-account').textContent === 'Lan'`, 10*time.Second)

	openAccount(p, "account.menuTitle")
	menuItem(p, "account.changePassword")
	p.Wait(`document.getElementById('account-title').textContent === 'Change password'`, 5*time.Second)
	accountForm(p, map[string]string{"old": "not it at all", "new": "gà trống gáy sáng"})
	if got, want := accountError(p), English(t, "account.err.wrongPassword"); got != want {
		t.Errorf("a wrong old password: %q, want %q", got, want)
	}
	accountForm(p, map[string]string{"old": "trâu ăn cỏ non", "new": "gà trống gáy sáng"})
	p.Wait(`document.getElementById('account-title').textContent === 'Your account' && document.getElementById('account-error').textContent === 'Password changed.'`, 10*time.Second)
	menuItem(p, "account.signOutAll")
	p.Wait(`document.getElementById('nav-account').textContent === 'Sign in'`, 10*time.Second)
	if code := statusOf(t, base, "GET", "/api/me", nil); code != 401 {
		t.Errorf("GET /api/me without a session: %d", code)
	}

	openAccount(p, "account.signInTitle")
	accountForm(p, map[string]string{"username": "Lan", "password": "gà trống gáy sáng"})
	p.Wait(`document.getElementById('nav-account').textContent === 'Lan'`, 10*time.Second)
	openAccount(p, "account.menuTitle")
	menuItem(p, "account.delete")
	accountForm(p, map[string]string{"password": "trâu ăn cỏ non"})
	if got, want := accountError(p), English(t, "account.err.wrongPassword"); got != want {
		t.Errorf("deleting with a wrong password: %q, want %q", got, want)
	}
	accountForm(p, map[string]string{"password": "gà trống gáy sáng"})
	p.Wait(`document.getElementById('nav-account').textContent === 'Sign in' && !document.getElementById('account').open`, 10*time.Second)
	if code := statusOf(t, base, "GET", "/api/players/Lan", nil); code != 404 {
		t.Errorf("GET /api/players/Lan after deleting: %d, want 404", code)
	}
	shotAccount(p, "account-deleted")
}

// accountRefusal reports whether a console error is the browser's note
// of a refused request of an account's (a test's wrong password).
func accountRefusal(msg string) bool {
	return strings.Contains(msg, "Failed to load resource") && (strings.Contains(msg, "/api/accounts") || strings.Contains(msg, "/api/session") || strings.Contains(msg, "/api/me"))
}

// statusOf sends a request with client c (nil: no cookies) and returns its
// status.
func statusOf(t *testing.T, base, method, path string, c *http.Client) int {
	t.Helper()
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	req, _ := http.NewRequest(method, base+path, nil)
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// shotAccount saves the page's screenshot as name.png under
// SCREENSHOT_DIR, when it is set.
func shotAccount(p *Page, name string) {
	if os.Getenv("SCREENSHOT_DIR") != "" {
		p.Screenshot(filepath.Join(ShotDir(p.T), name+".png")) // ShotDir makes the folder
	}
}

// member is an account used through the API, with its own cookies.
type member struct {
	t    *testing.T
	base string
	name string
	c    *http.Client
}

// memberSignUp makes account name through the API.
func memberSignUp(t *testing.T, base, name, password string) *member {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	m := &member{t, base, name, &http.Client{Jar: jar, Timeout: 10 * time.Second}}
	m.call("POST", "/api/accounts", "", fmt.Sprintf(`{"username":%q,"password":%q}`, name, password), nil)
	return m
}

// call sends a request with m's session (and a seat's secret, if given),
// decoding a JSON answer into out; any status but 2xx fails the test.
func (m *member) call(method, path, secret, body string, out any) {
	m.t.Helper()
	req, _ := http.NewRequest(method, m.base+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	res, err := m.c.Do(req)
	if err != nil {
		m.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		b, _ := io.ReadAll(res.Body)
		m.t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, b)
	}
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			m.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// ratedGameOf has a make a rated 3+2 game and b join it, each side play
// moves moves (the first legal one) and then loser resign; it returns
// the game's id.
func ratedGameOf(a, b *member, moves int, loser *member) string {
	a.t.Helper()
	var made struct {
		ID, Secret string
		Seat       int
	}
	a.call("POST", "/api/games", "", `{"mode":"online","clock":{"initial":180,"increment":2},"rated":true}`, &made)
	var joined struct {
		Secret string
		Seat   int
	}
	b.call("POST", "/api/games/"+made.ID+"/join", "", "", &joined)
	secrets := map[int]string{made.Seat: made.Secret, joined.Seat: joined.Secret}
	seats := map[*member]int{a: made.Seat, b: joined.Seat}
	for i := 0; i < 2*moves; i++ {
		var st struct {
			ToMove int
			Legal  []string
			Over   bool
		}
		a.call("GET", "/api/games/"+made.ID, "", "", &st)
		if st.Over {
			return made.ID
		}
		a.call("POST", "/api/games/"+made.ID+"/moves", secrets[st.ToMove], fmt.Sprintf(`{"move":%q}`, st.Legal[0]), nil)
	}
	loser.call("POST", "/api/games/"+made.ID+"/resign", secrets[seats[loser]], "", nil)
	return made.ID
}

// playerRating is a player's rating in one speed, as GET /api/players gives it.
type playerRating struct {
	Rating, RD  float64
	Provisional bool
	Games       int
}

// ratingOf returns name's rating in speed.
func ratingOf(t *testing.T, base, name, speed string) playerRating {
	t.Helper()
	var p struct{ Ratings map[string]playerRating }
	APICall(t, base, "GET", "/api/players/"+name, "", "", &p)
	return p.Ratings[speed]
}

// seedLeaders has Nam and Lan play rated blitz games through the API,
// each winning in turn, until Nam's rating is no longer provisional
// (RD ≤ 110); it returns the two.
func seedLeaders(t *testing.T, base string) (nam, lan *member) {
	t.Helper()
	nam = memberSignUp(t, base, "Nam", "gà trống gáy sáng")
	lan = memberSignUp(t, base, "Lan", "trâu ăn cỏ non")
	for i := 0; ratingOf(t, base, "Nam", "blitz").Provisional || ratingOf(t, base, "Nam", "blitz").Games == 0; i++ {
		if i == 80 {
			t.Fatalf("Nam still provisional after 80 games: %+v", ratingOf(t, base, "Nam", "blitz"))
		}
		loser := lan
		if i%3 == 2 {
			loser = nam
		}
		ratedGameOf(nam, lan, 0, loser)
	}
	return nam, lan
}

// TestLeaderboard: two players made sure of their blitz ratings by rated
// games through the API are on the blitz leaderboard, highest first, with
// the ratings the server gives; the tabs go to another speed by keyboard
// (empty there), and a name opens the player's profile at its address.
func TestLeaderboard(t *testing.T) {
	base := accountSite(t)
	seedLeaders(t, base)
	nam, lan := ratingOf(t, base, "Nam", "blitz"), ratingOf(t, base, "Lan", "blitz")
	t.Logf("Nam %+v, Lan %+v", nam, lan)
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Do(chromedp.Navigate(base + "/leaderboard"))
	p.Wait(`document.querySelectorAll('#leaders-panel tbody tr').length > 0`, 20*time.Second)
	rows := Eval[[][]string](p, `[...document.querySelectorAll('#leaders-panel tbody tr')].map(r => [...r.children].map(c => c.textContent))`)
	want := [][]string{{"1", "Nam", fmt.Sprint(math.Round(nam.Rating)), fmt.Sprint(nam.Games)}, {"2", "Lan", fmt.Sprint(math.Round(lan.Rating)), fmt.Sprint(lan.Games)}}
	if lan.Rating > nam.Rating {
		want[0], want[1] = want[1], want[0]
		want[0][0], want[1][0] = "1", "2"
	}
	if lan.Provisional {
		want = want[:1]
		want[0][0] = "1"
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("blitz leaderboard shows %q, want %q", rows, want)
	}
	if got := Eval[string](p, `document.querySelector('[role=tab][aria-selected=true]').textContent`); got != "Blitz" {
		t.Errorf("the tab selected is %q", got)
	}
	shotAccount(p, "leaderboard-desktop")
	Click(p, "#leaders-tab-blitz")
	p.Do(chromedp.KeyEvent(kb.ArrowRight))
	p.Wait(`location.pathname === '/leaderboard/rapid' && document.activeElement.id === 'leaders-tab-rapid' && document.querySelector('#leaders-panel .none')`, 10*time.Second)
	if got, want := Text(p, "leaders-panel"), English(t, "leaders.none"); got != want {
		t.Errorf("rapid: %q, want %q", got, want)
	}
	p.Do(chromedp.Navigate(base + "/leaderboard/blitz"))
	SetLang(p, "fa")
	p.Do(ColorScheme(true), chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	p.Wait(`document.querySelectorAll('#leaders-panel tbody tr').length > 0`, 20*time.Second)
	shotAccount(p, "leaderboard-phone-fa-dark")
	SetLang(p, "en")
	Click(p, `#leaders-panel tbody a`)
	p.Wait(`location.pathname.startsWith('/@/') && document.getElementById('profile-title')`, 10*time.Second)
}

// TestProfile: Nam's profile after three rated games played through the
// API shows his blitz rating with "?" (provisional), the history graph
// with a point a game and its summary, the wins and losses the server
// counts, the games newest first with their results and rating changes;
// one opens at the board, finished, to go through with ← and review; back
// returns to the profile; the records download is the server's file.
// Signed in as Lan, the profile offers block and report, and both reach
// the server. An unknown name says so.
func TestProfile(t *testing.T) {
	base := accountSite(t)
	nam := memberSignUp(t, base, "Nam", "gà trống gáy sáng")
	lan := memberSignUp(t, base, "Lan", "trâu ăn cỏ non")
	for _, loser := range []*member{lan, nam, lan} {
		ratedGameOf(nam, lan, 3, loser)
	}
	var prof struct {
		Ratings map[string]playerRating
		Results struct{ Wins, Draws, Losses int }
	}
	APICall(t, base, "GET", "/api/players/Nam", "", "", &prof)
	var games struct {
		Games []struct {
			ID, Result string
			RatingDiff float64
		}
	}
	APICall(t, base, "GET", "/api/players/Nam/games", "", "", &games)
	if len(games.Games) != 3 || prof.Results.Wins != 2 || prof.Results.Losses != 1 {
		t.Fatalf("the server has %+v, games %+v: want 2 wins and 1 loss in 3 games", prof.Results, games.Games)
	}

	dir := t.TempDir()
	p := NewPage(t, 1200, 900, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
	p.Wait(Ready, 20*time.Second)
	PlayByKeyboard(p, rand.New(rand.NewPCG(21, 1))) // a game of this browser's, for Your games
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir})
		return err
	}), chromedp.Navigate(base+"/@/nam"))
	p.Wait(`document.querySelector('#profile-games-part .game-row')`, 20*time.Second)
	// The page has settled (its game loaded, its strings): the profile alone is shown.
	p.Wait(`document.querySelector('#game-board .cell') && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	if Eval[bool](p, `!document.getElementById('game-view').hidden || document.getElementById('result').open`) {
		t.Error("the game is shown beside the profile")
	}
	if got := Text(p, "profile-title"); got != "Nam" {
		t.Errorf("the profile's title is %q", got)
	}
	r := prof.Ratings["blitz"]
	wantRating := fmt.Sprint(math.Round(r.Rating), "?")
	if got := Eval[[]string](p, `[...document.querySelector('.ratings tbody tr').children].map(c => c.textContent)`); fmt.Sprint(got) != fmt.Sprint([]string{"Blitz", wantRating, "3"}) {
		t.Errorf("the ratings row says %q, want Blitz %s 3", got, wantRating)
	}
	if n := Eval[int](p, `document.querySelectorAll('svg.graph circle').length`); n != 3 {
		t.Errorf("the graph has %d points, want 3", n)
	}
	var hist struct{ History map[string][]playerRating }
	APICall(t, base, "GET", "/api/players/Nam/history", "", "", &hist)
	if b := hist.History["blitz"]; len(b) != 3 {
		t.Fatalf("the server's history: %+v", hist)
	}
	if got := Eval[string](p, `document.querySelector('svg.graph title').textContent`); !strings.HasPrefix(got, fmt.Sprintf("Blitz: from %v to %v over 3 rated games", math.Round(hist.History["blitz"][0].Rating), math.Round(r.Rating))) {
		t.Errorf("the graph's summary is %q", got)
	}
	if got := Eval[[]string](p, `[...document.querySelectorAll('.results li')].map(l => l.textContent)`); fmt.Sprint(got) != "[2 wins 0 draws 1 loss]" {
		t.Errorf("results %q, want 2 wins, 0 draws, 1 loss", got)
	}
	outcomes := Eval[[]string](p, `[...document.querySelectorAll('#profile-games-part .game-row .turn')].map(l => l.textContent)`)
	for i, g := range games.Games {
		d := math.Round(g.RatingDiff)
		sign := "+"
		if d < 0 {
			sign = "−"
		}
		want := map[string]string{"win": "Won", "loss": "Lost"}[g.Result] + fmt.Sprintf(" (%s%v)", sign, math.Abs(d))
		if i >= len(outcomes) || outcomes[i] != want {
			t.Errorf("game %d shown %q, want %q", i, outcomes, want)
		}
	}
	shotAccount(p, "profile-desktop")

	// The records, downloaded as the server gives them.
	Click(p, "#profile-download")
	file := filepath.Join(dir, "Nam-games.txt")
	deadline := time.Now().Add(10 * time.Second)
	for _, err := os.Stat(file); err != nil; _, err = os.Stat(file) {
		if time.Now().After(deadline) {
			entries, _ := os.ReadDir(dir)
			t.Fatalf("no %s downloaded: %v", file, entries)
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	got, _ := os.ReadFile(file)
	res, err := http.Get(base + "/api/players/Nam/records")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if len(want) == 0 || string(got) != string(want) {
		t.Errorf("downloaded %d bytes, the server gives %d", len(got), len(want))
	}

	// A game opens at the board, finished: replay and review.
	Click(p, "#profile-games-part .game-row")
	p.Wait(fmt.Sprintf(`location.search === '?game=%s' && !document.getElementById('game-view').hidden && document.getElementById('account-view').hidden && document.getElementById('result').open`, games.Games[0].ID), 10*time.Second)
	Click(p, "#result-close")
	p.Do(chromedp.KeyEvent(kb.ArrowLeft))
	p.Wait(`!document.getElementById('replay-bar').hidden && /5/.test(document.querySelector('#replay-bar .where').textContent)`, 5*time.Second)
	Click(p, "#replay-review")
	p.Wait(`document.getElementById('review-status')`, 10*time.Second)
	Click(p, "#review-close")
	p.Do(chromedp.NavigateBack())
	p.Wait(`location.pathname === '/@/nam' && !document.getElementById('account-view').hidden && document.getElementById('game-view').hidden && document.querySelector('#profile-games-part .game-row')`, 10*time.Second)
	// Your games, from the profile, opens a game at the board.
	Click(p, "#nav-games")
	p.Wait(`document.querySelectorAll('#games-list .game-row').length > 0`, 10*time.Second)
	Click(p, "#games-list .game-row")
	p.Wait(`!document.getElementById('game-view').hidden && document.getElementById('account-view').hidden && location.pathname === '/'`, 10*time.Second)
	p.Do(chromedp.NavigateBack())
	p.Wait(`location.pathname === '/@/nam' && !document.getElementById('account-view').hidden && document.getElementById('game-view').hidden`, 10*time.Second)

	// Lan signs in: block and report.
	openAccount(p, "account.signInTitle")
	accountForm(p, map[string]string{"username": "Lan", "password": "trâu ăn cỏ non"})
	p.Wait(`document.getElementById('profile-block') && document.getElementById('profile-report')`, 10*time.Second)
	Click(p, "#profile-block")
	p.Wait(`document.getElementById('profile-said').textContent === 'Nam is blocked: you will never be paired.' && document.getElementById('profile-block').textContent === 'Unblock'`, 10*time.Second)
	var blocks struct{ Blocks []string }
	lan.call("GET", "/api/me/blocks", "", "", &blocks)
	if fmt.Sprint(blocks.Blocks) != "[Nam]" {
		t.Errorf("Lan blocks %v, want [Nam]", blocks.Blocks)
	}
	// The account's list of blocked players has Nam, and unblocks him.
	openAccount(p, "account.menuTitle")
	menuItem(p, "account.blocks")
	p.Wait(`[...document.querySelectorAll('#account .blocks li')].map(l => l.textContent).join() === 'NamUnblock'`, 10*time.Second)
	Click(p, "#account .blocks button")
	p.Wait(fmt.Sprintf(`document.querySelector('#account .blocks').textContent === %q`, English(t, "account.noBlocks")), 10*time.Second)
	lan.call("GET", "/api/me/blocks", "", "", &blocks)
	if len(blocks.Blocks) != 0 {
		t.Errorf("Lan still blocks %v", blocks.Blocks)
	}
	Click(p, `#account [data-i18n="account.back"]`)
	Click(p, `#account [data-i18n="button.close"]`)
	p.Wait(`document.getElementById('profile-block')?.textContent === 'Block'`, 10*time.Second)
	p.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#profile-safety-part details').open = true; document.getElementById('profile-reason').value = 'stalling'; document.getElementById('profile-game').selectedIndex = 1`))
	Click(p, "#profile-report")
	p.Wait(`document.getElementById('profile-said').textContent === 'Report sent. Thank you.'`, 10*time.Second)
	SetLang(p, "fa")
	p.Do(ColorScheme(true), chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	shotAccount(p, "profile-phone-fa-dark")
	p.Do(chromedp.Evaluate[chromedp.Void](`document.getElementById('profile-games-part').scrollIntoView()`))
	shotAccount(p, "profile-phone-fa-dark-games")
	p.Do(chromedp.Evaluate[chromedp.Void](`document.getElementById('profile-safety-part').scrollIntoView()`))
	shotAccount(p, "profile-phone-fa-dark-safety")
	SetLang(p, "en")

	p.Do(chromedp.Navigate(base + "/@/Nobody"))
	p.Wait(`document.querySelector('#account-view .error')?.textContent === 'There is no player of that name.'`, 10*time.Second)
	p.Forget("/api/players/Nobody")
}

// TestAccountAxe audits, with axe-core as TestAxe does (AXE_JS), the
// sign-in dialog with a refusal said, the account menu, a profile and the
// leaderboard: on a desktop and a phone, light and dark, in English and
// Persian. Screenshots of each under SCREENSHOT_DIR.
func TestAccountAxe(t *testing.T) {
	file := os.Getenv("AXE_JS")
	if file == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("AXE_JS is not set: CI must run the accessibility audit (.ci/run fetches axe-core)")
		}
		t.Skip("set AXE_JS=/path/to/axe.min.js to run axe-core")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	base := accountSite(t)
	seedLeaders(t, base)
	for _, c := range []struct {
		name string
		w, h int
		dark bool
		lang string
	}{{"desktop", 1200, 900, false, "en"}, {"phone-dark", 390, 844, true, "en"}, {"phone-fa", 390, 844, false, "fa"}, {"desktop-fa-dark", 1200, 900, true, "fa"}} {
		t.Run(c.name, func(t *testing.T) {
			p := NewPage(t, c.w, c.h, `{"mode":"ai","level":"easy","anim":"off","first":0}`)
			t.Cleanup(func() { p.DropErrors(accountRefusal) })
			p.Do(ColorScheme(c.dark))
			SetLang(p, c.lang)
			audit := func(what string) {
				t.Helper()
				p.Do(chromedp.Evaluate[chromedp.Void](string(src)))
				for _, v := range Eval[[]string](p, AxeRun) {
					t.Errorf("%s: %s", what, v)
				}
				shotAccount(p, "account-"+c.name+"-"+strings.ReplaceAll(what, " ", "-"))
			}
			Click(p, "#nav-account")
			p.Wait(`document.getElementById('account')?.open`, 10*time.Second)
			accountForm(p, map[string]string{"username": "Nam", "password": "not his password"})
			p.Wait(`document.getElementById('account-error').textContent !== ''`, 5*time.Second)
			audit("sign in refused")
			accountForm(p, map[string]string{"username": "Nam", "password": "gà trống gáy sáng"})
			p.Wait(`!document.getElementById('account').open`, 10*time.Second)
			Click(p, "#nav-account")
			p.Wait(`document.querySelector('#account .account-menu')`, 10*time.Second)
			audit("account menu")
			Click(p, `#account .account-menu a`)
			p.Wait(`document.querySelector('#profile-games-part .game-row')`, 10*time.Second)
			p.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#profile-history-part details').open = true`))
			audit("own profile")
			p.Do(chromedp.Navigate(base + "/@/Lan"))
			p.Wait(`document.querySelector('#profile-games-part .game-row') && document.getElementById('profile-block')`, 10*time.Second)
			p.Wait(`document.querySelector('#game-board .cell') && document.documentElement.dataset.live === 'on'`, 10*time.Second)
			if Eval[bool](p, `!document.getElementById('game-view').hidden`) {
				t.Error("the game is shown beside the profile")
			}
			p.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#profile-safety-part details').open = true`))
			audit("another's profile")
			Click(p, "#account-view .page-nav a[href='/leaderboard']")
			p.Wait(`document.querySelectorAll('#leaders-panel tbody tr').length > 0`, 10*time.Second)
			audit("leaderboard")
		})
	}
}

// TestProfileOffline: with the page's files kept by the service worker
// and the network cut, a profile's and the leaderboard's addresses still
// open the page (the service worker serves it for them), which says that
// they need the server, in the player's words; the leaderboard too.
func TestProfileOffline(t *testing.T) {
	base := accountSite(t)
	memberSignUp(t, base, "Nam", "gà trống gáy sáng")
	p := NewPage(t, 390, 844, `{"mode":"ai","level":"easy","anim":"off","first":0}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	p.Wait(Controlled, 30*time.Second)
	p.Offline(true)
	t.Cleanup(p.DropRefused)
	p.Do(chromedp.Navigate(base + "/@/Nam"))
	want := English(t, "account.err.needsNetwork")
	p.Wait(fmt.Sprintf(`document.querySelector('#account-view .error')?.textContent === %q && document.getElementById('game-view').hidden`, want), 20*time.Second)
	shotAccount(p, "profile-offline")
	p.Do(chromedp.Navigate(base + "/leaderboard"))
	p.Wait(fmt.Sprintf(`document.querySelector('#leaders-panel .error')?.textContent === %q`, want), 20*time.Second)
}

// rawKey finds a translation key shown as text (a string missing).
const rawKey = `(document.body.innerText.match(/\b(account|profile|leaders)\.[A-Za-z_.]+/) || [''])[0]`

// TestAccountLanguages: the sign-in dialog with a refusal, the account
// menu, a profile and the leaderboard in each of the six languages: no
// key shown raw, the words the language's own (not English), Persian
// right to left; a language changed while a profile is shown redraws it.
func TestAccountLanguages(t *testing.T) {
	base := accountSite(t)
	seedLeaders(t, base)
	p := NewPage(t, 390, 844, `{"mode":"ai","level":"easy","anim":"off","first":0}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	t.Cleanup(func() { p.DropErrors(accountRefusal) })
	b, err := fs.ReadFile(web.FS(), "i18n/en.json")
	if err != nil {
		t.Fatal(err)
	}
	var en map[string]string
	json.Unmarshal(b, &en)
	check := func(lang, what, id, key string) {
		t.Helper()
		if k := Eval[string](p, rawKey); k != "" {
			t.Errorf("%s, %s: %s shown raw", lang, what, k)
		}
		if got := Text(p, id); lang != "en" && got == en[key] {
			t.Errorf("%s, %s: %q is English", lang, what, got)
		}
	}
	for _, lang := range []string{"en", "vi", "fr", "de", "ca", "fa"} {
		p.Do(chromedp.Navigate(base + "/"))
		p.Wait(`document.querySelectorAll('#game-board .cell').length === 12`, 10*time.Second)
		SetLang(p, lang)
		if dir := Eval[string](p, `document.documentElement.dir`); dir != map[bool]string{true: "rtl", false: "ltr"}[lang == "fa"] {
			t.Errorf("%s: dir %s", lang, dir)
		}
		Click(p, "#nav-account")
		p.Wait(`document.querySelector('#account form')`, 10*time.Second)
		accountForm(p, map[string]string{"username": "Nam", "password": "gà"})
		check(lang, "sign-in refused", "account-error", "account.err.credentials")
		accountForm(p, map[string]string{"username": "Nam", "password": "gà trống gáy sáng"})
		p.Wait(`!document.getElementById('account').open`, 10*time.Second)
		Click(p, "#nav-account")
		p.Wait(`document.querySelector('#account .account-menu')`, 10*time.Second)
		check(lang, "account menu", "account-title", "account.menuTitle")
		Click(p, `#account .account-menu a`)
		p.Wait(`document.querySelector('#profile-games-part .game-row')`, 10*time.Second)
		check(lang, "profile", "profile-ratings", "profile.ratings")
		Click(p, "#account-view .page-nav a[href='/leaderboard']")
		p.Wait(`document.querySelectorAll('#leaders-panel tbody tr').length > 0`, 10*time.Second)
		check(lang, "leaderboard", "leaders-title", "leaders.heading")
		p.Do(chromedp.Navigate(base + "/@/Nam"))
		p.Wait(`document.querySelector('#profile-games-part .game-row')`, 10*time.Second)
		Click(p, "#nav-account")
		p.Wait(`document.querySelector('#account .account-menu')`, 10*time.Second)
		menuItem(p, "account.signOut")
		p.Wait(`!document.getElementById('account').open`, 10*time.Second)
	}
	// A language changed on a profile redraws it at once.
	SetLang(p, "de")
	p.Wait(fmt.Sprintf(`document.getElementById('profile-ratings').textContent === %q`, "Wertungen"), 5*time.Second)
}

// created counts the page's requests that made a game (POST /api/games:
// the only request to that address without more after it).
const created = `performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname === '/api/games').length`

// TestProfileFirstVisit: a first visit straight to a profile's address
// starts no computer game behind the profile; the game starts when the
// player goes back to the board, and is kept for the next visit.
func TestProfileFirstVisit(t *testing.T) {
	base := accountSite(t)
	memberSignUp(t, base, "Nam", "gà trống gáy sáng")
	p := NewPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	p.Do(chromedp.Evaluate[chromedp.Void](`localStorage.clear()`), chromedp.Navigate(base+"/@/Nam"))
	p.Wait(`document.getElementById('profile-ratings-part') && document.readyState === 'complete'`, 10*time.Second)
	time.Sleep(500 * time.Millisecond) // a game made at the start would be made by now
	if n := Eval[int](p, created); n != 0 || Eval[bool](p, `localStorage.getItem('oanquan.game') !== null`) {
		t.Errorf("a first visit to a profile made %d games (kept: %v), want none", n, Eval[string](p, `localStorage.getItem('oanquan.game') || ''`))
	}
	Click(p, "#account-view .page-nav a[href='/']")
	p.Wait(`location.pathname === '/' && !document.getElementById('game-view').hidden && document.querySelectorAll('#game-board button.cell.legal').length > 0 && localStorage.getItem('oanquan.game')`, 20*time.Second)
	if n := Eval[int](p, created); n != 1 {
		t.Errorf("back at the board, %d games made, want 1", n)
	}
}
