package lobby

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	. "oanquan/e2e/internal/browsertest"
)

// Two strangers meet through the page alone (issue 21): everything a
// player does is a click on the page; the API is only read, to check
// what the page shows against the server.

// strangerSignUp makes an account in p's browser through the header's
// account button and the sign-in dialog's "Create an account".
func strangerSignUp(p *Page, name, password string) {
	p.T.Helper()
	openAccount(p, "account.signInTitle")
	Click(p, `#account [data-i18n="account.newHere"]`)
	p.Wait(fmt.Sprintf(`document.getElementById('account-title').textContent === %q`, English(p.T, "account.createTitle")), 5*time.Second)
	accountForm(p, map[string]string{"username": name, "password": password})
	p.Wait(fmt.Sprintf(`!document.getElementById('account').open && document.querySelector('#nav-account .who').textContent === %q`, name), 10*time.Second)
}

// boardInView checks that p shows the whole board and both stores
// without scrolling, the page no wider than its window.
func boardInView(t *testing.T, p *Page, what string) {
	t.Helper()
	s := Eval[ShownHeader](p, HeaderShown)
	in := func(b [4]float64) bool { return b[0] >= 0 && b[1] >= 0 && b[2] <= s.W && b[3] <= s.H && b[2] > b[0] }
	if !in(s.Board) || !in(s.Stores[0]) || !in(s.Stores[1]) || s.ScrollX > 0 {
		t.Errorf("%s: the board at %v, the stores at %v, %.0f px too wide: want all in the %.0f×%.0f window", what, s.Board, s.Stores, s.ScrollX, s.W, s.H)
	}
	if y := Eval[float64](p, `scrollY`); y != 0 {
		t.Errorf("%s: the page is scrolled %.0f px down", what, y)
	}
}

// TestStrangers: two strangers on phones (320×568 and 390×844) each make
// an account with the sign-in dialog, open the lobby from the header and
// quick-pair at 3+2, rated; the time from the click that makes the pair
// to both boards shown is logged, and both boards are whole in their
// windows. They play by clicking the moves the page offers, to the
// game's end: a game that runs past 160 plies is resigned through the
// page instead (rated all the same); the log says which. Both ending
// dialogs show the rating change, from 1500? to the rating the server
// then holds. Each opens their own profile from the account menu: the
// rating is the server's (GET /api/players/{name}), the game is in the
// recent games with its result and change, it opens at the board and in
// review; back on the profile, the game's line links to the other's
// profile, which shows their rating as the server has it.
func TestStrangers(t *testing.T) {
	base := accountSite(t) // one server for both browsers
	shots := ShotDir(t)
	a := NewPage(t, 320, 568, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b := NewPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	names := map[*Page]string{a: "Lan", b: "Minh"}
	other := map[*Page]*Page{a: b, b: a}
	for _, p := range []*Page{a, b} {
		strangerSignUp(p, names[p], "pebbles and mandarins "+names[p])
		Click(p, "#nav-lobby")
		p.Wait(fmt.Sprintf(`document.getElementById('lobby-view')?.hidden === false && document.getElementById('lobby-who').textContent.includes(%q) && document.querySelector('#quick button[data-clock="180+2"]')`, names[p]), 10*time.Second)
	}

	// Quick pairing: a waits, b's click makes the pair.
	watchBoard(a)
	watchBoard(b)
	Click(a, `#quick button[data-clock="180+2"]`)
	a.Wait(`document.getElementById('lobby-wait').hidden === false`, 10*time.Second)
	Click(b, `#quick button[data-clock="180+2"]`)
	for _, p := range []*Page{a, b} {
		p.Wait(`window.boardAt > 0`, 20*time.Second)
	}
	took := max(Eval[float64](a, `window.boardAt`), Eval[float64](b, `window.boardAt`)) - Eval[float64](b, `window.clickedAt`)
	t.Logf("quick pairing at 3+2 rated, from the click that makes the pair to both boards shown: %.0f ms", took)
	id := Eval[string](a, GameID)
	if got := Eval[string](b, GameID); got != id {
		t.Fatalf("the strangers were shown games %s and %s", id, got)
	}
	if st := a.GameState(); st["rated"] != true {
		t.Fatalf("quick pairing at 3+2 rated made a game rated %v", st["rated"])
	}
	for _, p := range []*Page{a, b} {
		// Once the page has heard who is here: until its socket's first
		// word it says for a moment, on two lines, that it cannot tell.
		p.Wait(`document.getElementById('presence').textContent.includes(' is here')`, 10*time.Second)
		boardInView(t, p, names[p]+"'s board")
		p.Screenshot(filepath.Join(shots, "strangers-paired-"+names[p]+".png"))
	}

	// The game, by clicks on the moves offered.
	rng := rand.New(rand.NewPCG(8, 21))
	plies, resigned := 0, false
	for ; ; plies++ {
		mover := nextMover(t, a, b)
		if mover == nil {
			break
		}
		if plies == 160 {
			Click(mover, "#resign")
			Click(mover, "#resign") // the confirmation
			resigned = true
			continue
		}
		MoveOnline(t, rng, mover, a, b)
		if plies == 3 {
			for _, p := range []*Page{a, b} {
				boardInView(t, p, names[p]+"'s board after 4 moves")
				p.Screenshot(filepath.Join(shots, "strangers-playing-"+names[p]+".png"))
			}
		}
	}
	t.Logf("the game %s: %d plies, resigned %v", id, plies, resigned)

	// The ending dialogs: from 1500? to the server's rating now.
	after := map[*Page]playerRating{}
	for _, p := range []*Page{a, b} {
		r := ratingOf(t, base, names[p], "blitz")
		after[p] = r
		if r.Games != 1 {
			t.Fatalf("%s has %d rated blitz games on the server, want 1", names[p], r.Games)
		}
		mark := ""
		if r.Provisional {
			mark = "?"
		}
		want := fmt.Sprintf("Blitz rating: 1500? → %v%s (%+d)", math.Round(r.Rating), mark, int(math.Round(r.Rating))-1500)
		p.Wait(`document.getElementById('result').open && document.getElementById('result-rating')?.hidden === false`, 10*time.Second)
		if got := Text(p, "result-rating"); got != want {
			t.Errorf("%s's ending dialog says %q, want %q", names[p], got, want)
		}
		p.Screenshot(filepath.Join(shots, "strangers-ending-"+names[p]+".png"))
	}

	for _, p := range []*Page{a, b} {
		name := names[p]
		var list struct {
			Games []struct {
				ID, Result, Opponent string
				RatingDiff           float64
			}
		}
		APICall(t, base, "GET", "/api/players/"+name+"/games", "", "", &list)
		if len(list.Games) != 1 || list.Games[0].ID != id {
			t.Fatalf("%s's games on the server: %+v, want the one game %s", name, list.Games, id)
		}
		g := list.Games[0]
		Click(p, "#result-close")
		// The own profile, from the account menu.
		openAccount(p, "account.menuTitle")
		Click(p, `#account .account-menu a`)
		p.Wait(`document.querySelector('#profile-games-part .game-row')`, 10*time.Second)
		if got := Text(p, "profile-title"); got != name {
			t.Errorf("%s's profile is titled %q", name, got)
		}
		r := after[p]
		shown := fmt.Sprint(math.Round(r.Rating))
		if r.Provisional {
			shown += "?"
		}
		if got := Eval[[]string](p, `[...document.querySelector('.ratings tbody tr').children].map(c => c.textContent)`); fmt.Sprint(got) != fmt.Sprint([]string{"Blitz", shown, "1"}) {
			t.Errorf("%s's profile shows the rating %q, want Blitz %s 1 (the server's)", name, got, shown)
		}
		d := math.Round(g.RatingDiff)
		sign := map[bool]string{true: "+", false: "−"}[d >= 0]
		if d == 0 {
			sign = "±"
		}
		want := English(t, "profile.result."+g.Result) + fmt.Sprintf(" (%s%v)", sign, math.Abs(d))
		vs := English(t, "profile.vs", "name", names[other[p]])
		rows := Eval[[][]string](p, `[...document.querySelectorAll('#profile-games-part .game-row')].map(r => [r.querySelector('.what').textContent, r.querySelector('.turn').textContent])`)
		if len(rows) != 1 || !strings.HasPrefix(rows[0][0], vs) || rows[0][1] != want {
			t.Errorf("%s's recent games read %q, want one: %s…, %s", name, rows, vs, want)
		}
		p.Do(chromedp.Evaluate[chromedp.Void](`document.getElementById('profile-games-part').scrollIntoView()`))
		p.Screenshot(filepath.Join(shots, "strangers-profile-"+name+".png"))

		// The game opens at the board, and in review.
		Click(p, "#profile-games-part .game-row")
		p.Wait(fmt.Sprintf(`location.search === '?game=%s' && !document.getElementById('game-view').hidden && document.getElementById('result').open`, id), 10*time.Second)
		Click(p, "#result-review")
		p.Wait(`document.getElementById('review-status')`, 10*time.Second)
		p.Screenshot(filepath.Join(shots, "strangers-review-"+name+".png"))
		Click(p, "#review-close")
		p.Do(chromedp.NavigateBack())
		p.Wait(fmt.Sprintf(`location.pathname === %q && document.querySelector('#profile-games-part .opponent a')`, "/@/"+name), 10*time.Second)

		// The other's profile, from the game's line.
		Click(p, "#profile-games-part .opponent a")
		them := names[other[p]]
		p.Wait(fmt.Sprintf(`location.pathname === %q && document.getElementById('profile-title')?.textContent === %q && document.querySelector('.ratings tbody tr')`, "/@/"+them, them), 10*time.Second)
		r = after[other[p]]
		shown = fmt.Sprint(math.Round(r.Rating))
		if r.Provisional {
			shown += "?"
		}
		if got := Eval[string](p, `document.querySelector('.ratings tbody tr td').textContent`); got != shown {
			t.Errorf("%s sees %s's rating as %q, want %s (the server's)", name, them, got, shown)
		}
	}
}
