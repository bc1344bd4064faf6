package online

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"math/rand/v2"

	"github.com/chromedp/chromedp"

	. "oanquan/e2e/internal/browsertest"
	"oanquan/internal/server"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/postgres"
)

// TestOnlineTwoServers: two servers share one PostgreSQL database, as
// behind a load balancer. The creator plays through one, the friend
// through the other: the join, who is here, every move and the end
// reach each of them through the other server, and the time from a
// click to the other player's screen is measured across the two.
func TestOnlineTwoServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL and plays a whole game")
	}
	url := pgtest.Start(t)
	var bases [2]string
	for i := range bases {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		st, err := postgres.Open(ctx, url, nil)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		s := server.New(server.Config{Store: st, ID: []string{"one", "two"}[i]})
		ts := httptest.NewServer(s)
		t.Cleanup(func() {
			ts.Close()
			s.Close()
			st.Close()
		})
		bases[i] = ts.URL
	}

	t.Setenv("E2E_URL", bases[0])
	a := NewPage(t, 1200, 900, `{"mode":"online","first":0,"anim":"off"}`)
	Click(a, "#new")
	a.Wait(`document.getElementById('newgame').open`, 5*time.Second)
	Click(a, "#newgame-start")
	a.Wait(`document.getElementById('invite')?.hidden === false`, 10*time.Second)
	id := Eval[string](a, GameID)

	t.Setenv("E2E_URL", bases[1])
	b := NewPage(t, 390, 844, `{"anim":"off"}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b.Do(chromedp.Navigate(bases[1] + "/?game=" + id))
	b.Wait(`document.getElementById('online')?.hidden === false && document.getElementById('watching').hidden && document.documentElement.dataset.live === 'on'`, 10*time.Second)
	// The join, through the other server, reaches the creator at once;
	// each sees the other here.
	a.Wait(`document.getElementById('invite').hidden && document.getElementById('presence').textContent.includes('Your friend is here')`, 10*time.Second)
	b.Wait(`document.getElementById('presence').textContent.includes('Your friend is here')`, 10*time.Second)

	rng := rand.New(rand.NewPCG(13, 14))
	var times []time.Duration
	for i := 0; !Eval[bool](a, `document.getElementById('result').open`); i++ {
		if i == 300 {
			t.Fatal("no end after 300 moves")
		}
		times = append(times, MoveOnline(t, rng, ToMove(t, a, b), a, b))
	}
	b.Wait(`document.getElementById('result').open`, 10*time.Second)
	CheckFinalCount(a)
	CheckFinalCount(b)

	// The friend leaves the page (which the browser may keep in its
	// back-forward cache): the creator, on the other server, sees it.
	b.Do(chromedp.Navigate("about:blank"))
	a.Wait(`document.getElementById('presence').textContent.includes('not on the game page')`, 15*time.Second)

	slices.Sort(times)
	t.Logf("across two servers, from a click on an arrow to the move on the other player's page (animation off): median %v, worst %v over %d moves",
		times[len(times)/2].Round(100*time.Microsecond), times[len(times)-1].Round(100*time.Microsecond), len(times))
}
