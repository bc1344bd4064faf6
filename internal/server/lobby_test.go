package server

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/store"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/postgres"
	"oanquan/internal/store/sqlite"
)

// post posts a seek from b and returns it.
func (b *browser) post(body string) api.SeekPosted {
	b.t.Helper()
	return must[api.SeekPosted](b.t, b.call("POST", "/api/seeks", body), http.StatusCreated)
}

// seeks lists the seeks b may accept.
func (b *browser) seeks(header ...string) []api.SeekView {
	b.t.Helper()
	return must[api.SeekList](b.t, b.call("GET", "/api/seeks", nil, header...), 200).Seeks
}

func listed(l []api.SeekView, id string) bool {
	for _, v := range l {
		if v.ID == id {
			return true
		}
	}
	return false
}

// TestSeekPostListAccept: a seek posted anonymously is listed for
// others but not its poster, accepted by another, who gets a seat of an
// online clocked game; the poster learns the game and its seat from the
// seek, and both play it with their secrets; on a SQLite file.
func TestSeekPostListAccept(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	k := a.post(`{"clock":{"initial":180,"increment":2}}`)
	if k.ID == "" || k.Secret == "" || k.Poster != "anonymous" || k.Speed != "blitz" || k.Rated || k.Clock.Initial != 180 {
		t.Fatalf("posted %+v", k)
	}
	mine := []string{"Authorization", "Bearer " + k.Secret}
	if listed(a.seeks(mine...), k.ID) {
		t.Error("the poster's own seek is listed for it")
	}
	if !listed(b.seeks(), k.ID) {
		t.Fatal("the seek is not listed for another")
	}
	wantError(t, a.call("POST", "/api/seeks/"+k.ID+"/accept", "", mine...), 409, "own_seek")
	j := must[api.Joined](t, b.call("POST", "/api/seeks/"+k.ID+"/accept", ""), 200)
	if j.Secret == "" || j.Game.ID == "" || j.Game.Mode != "online" || j.Game.Clock == nil {
		t.Fatalf("accepted: %+v", j)
	}
	if listed(b.seeks(), k.ID) {
		t.Error("an accepted seek is still listed")
	}
	wantError(t, newBrowser(t, ts).call("POST", "/api/seeks/"+k.ID+"/accept", ""), 409, "seek_taken")
	wantError(t, b.call("GET", "/api/seeks/"+k.ID, nil), 404, "not_found") // only its poster sees a seek taken
	v := must[api.SeekView](t, a.call("GET", "/api/seeks/"+k.ID, nil, mine...), 200)
	if v.Game != j.Game.ID || v.Seat == nil || *v.Seat != 1-j.Seat {
		t.Fatalf("the poster sees %+v, want game %s, seat %d", v, j.Game.ID, 1-j.Seat)
	}
	ps := [2]player{}
	ps[j.Seat] = player{j.Secret, j.Seat}
	ps[1-j.Seat] = player{k.Secret, 1 - j.Seat}
	st := playOut(t, a, j.Game.ID, ps)
	if !st.Over {
		t.Errorf("the game did not end: %+v", st)
	}
}

// TestSeekRefusals: a seek needs a clock; a rated seek a session;
// bad ranges are named; only the poster cancels.
func TestSeekRefusals(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	wantField(t, a.call("POST", "/api/seeks", `{"rated":false}`), "clock", "missing")
	wantField(t, a.call("POST", "/api/seeks", `{"clock":{"initial":180,"increment":2},"range":[1700,1500]}`), "range", "order")
	wantField(t, a.call("POST", "/api/seeks", `{"clock":{"initial":180,"increment":2},"range":[1500]}`), "range", "shape")
	wantError(t, a.call("POST", "/api/seeks", `{"clock":{"initial":1,"increment":2}}`), 400, "bad_request")
	wantError(t, a.call("POST", "/api/seeks", `{"clock":{"initial":180,"increment":2},"rated":true}`), 401, "signed_out")
	k := a.post(`{"clock":{"days":3}}`)
	wantError(t, b.call("DELETE", "/api/seeks/"+k.ID, nil), 403, "not_your_seat")
	wantError(t, b.call("DELETE", "/api/seeks/nosuchseek", nil), 404, "not_found")
	if r := a.call("DELETE", "/api/seeks/"+k.ID, nil, "Authorization", "Bearer "+k.Secret); r.status != 204 {
		t.Fatalf("cancel: %v", r)
	}
	if listed(b.seeks(), k.ID) {
		t.Error("a cancelled seek is listed")
	}
	wantError(t, b.call("POST", "/api/seeks/"+k.ID+"/accept", ""), 404, "not_found")
}

// TestRatedSeek: a rated seek is listed for accounts alone, refused to
// its poster's account, and makes a rated game; its range holds out a
// player whose rating is outside it.
func TestRatedSeek(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	a, b := ratedPair(t, ts)
	anon := newBrowser(t, ts)
	k := a.post(`{"clock":{"initial":180,"increment":2},"rated":true,"range":[1400,1600]}`)
	if k.Poster != "Nam" || k.Rating == nil || k.Rating.Rating != 1500 || !k.Rating.Provisional || !k.Rated {
		t.Fatalf("posted %+v", k)
	}
	if listed(a.seeks(), k.ID) {
		t.Error("listed for its poster's account")
	}
	wantError(t, a.call("POST", "/api/seeks/"+k.ID+"/accept", ""), 409, "own_seek")
	if listed(anon.seeks(), k.ID) {
		t.Error("a rated seek is listed for a player with no account")
	}
	wantError(t, anon.call("POST", "/api/seeks/"+k.ID+"/accept", ""), 401, "signed_out")
	high := b.post(`{"clock":{"initial":180,"increment":2},"rated":true,"range":[1600,1800]}`)
	if listed(a.seeks(), high.ID) {
		t.Error("a seek whose range is above the player's rating is listed for it")
	}
	wantError(t, a.call("POST", "/api/seeks/"+high.ID+"/accept", ""), 403, "out_of_range")
	j := must[api.Joined](t, b.call("POST", "/api/seeks/"+k.ID+"/accept", ""), 200)
	if !j.Game.Rated {
		t.Errorf("the game of a rated seek is not rated: %+v", j.Game)
	}
}

// TestSeekRace: 20 players accept one seek at once: exactly one gets
// the game, the others 409 seek_taken, and the seek names the one game
// made; on a SQLite file and on PostgreSQL.
func TestSeekRace(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) { testSeekRace(t, openSQLiteFile(t)) })
	t.Run("PostgreSQL", func(t *testing.T) { testSeekRace(t, openPostgresURL(t, pgtest.Start(t))) })
}

// openSQLiteFile opens a new SQLite file, closed when t ends.
func openSQLiteFile(t testing.TB) Store {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// openPostgresURL opens the database at url, closed when t ends.
func openPostgresURL(t testing.TB, url string) Store {
	st, err := postgres.Open(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func testSeekRace(t *testing.T, st Store) {
	s, srv := accountServerOn(t, st, noLimits)
	a := newBrowser(t, srv)
	k := a.post(`{"clock":{"initial":60,"increment":0}}`)
	const n = 20
	rs := make([]response, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rs[i] = newBrowser(t, srv).call("POST", "/api/seeks/"+k.ID+"/accept", "")
		}()
	}
	wg.Wait()
	var won []api.Joined
	for _, r := range rs {
		switch r.status {
		case 200:
			won = append(won, decodeAs[api.Joined](t, r))
		case 409:
			wantError(t, r, 409, "seek_taken")
		default:
			t.Errorf("accept: %v, want 200 or 409", r)
		}
	}
	if len(won) != 1 {
		t.Fatalf("%d accepted the seek, want 1", len(won))
	}
	saved, err := s.store.(store.Seeks).Seek(context.Background(), k.ID)
	if err != nil || saved.Game != won[0].Game.ID {
		t.Fatalf("the seek names game %q (%v), want %s", saved.Game, err, won[0].Game.ID)
	}
	if _, err := s.store.Get(context.Background(), won[0].Game.ID); err != nil {
		t.Errorf("the game: %v", err)
	}
}

// TestSeekLimits: an address may have 5 seeks open at once, and post
// no faster than Limits.Seeks: beyond, 429 with Retry-After.
func TestSeekLimits(t *testing.T) {
	lim := noLimits
	lim.Seeks = Rate{PerMinute: 0.5, Burst: 7}
	_, ts := accountServer(t, lim)
	a := newBrowser(t, ts)
	const body = `{"clock":{"initial":300,"increment":0}}`
	var ks []api.SeekPosted
	for range maxOpenSeeks {
		ks = append(ks, a.post(body))
	}
	r := a.call("POST", "/api/seeks", body)
	wantError(t, r, 429, "rate_limited")
	if r.header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	// One cancelled, one more may be posted; then the rate's burst (7)
	// is spent.
	for range 2 {
		if r := a.call("DELETE", "/api/seeks/"+ks[0].ID, nil, "Authorization", "Bearer "+ks[0].Secret); r.status != 204 {
			t.Fatalf("cancel: %v", r)
		}
		ks = append(ks[1:], a.post(body))
	}
	if r := a.call("DELETE", "/api/seeks/"+ks[0].ID, nil, "Authorization", "Bearer "+ks[0].Secret); r.status != 204 {
		t.Fatalf("cancel: %v", r)
	}
	r = a.call("POST", "/api/seeks", body)
	wantError(t, r, 429, "rate_limited")
	if r.header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
}

// FuzzSeekRequests: any body of POST /api/seeks or /api/pairing is
// answered without a fault; a refused one leaves the lobby unchanged.
func FuzzSeekRequests(f *testing.F) {
	for _, seed := range []string{
		`{"clock":{"initial":180,"increment":2},"rated":false,"range":[1400,1700]}`,
		`{"clock":{"days":3}}`,
		`{"clock":{"initial":180,"increment":2},"range":[1700,1400]}`,
		`{"clock":{"initial":180,"increment":2},"range":[1.5,2e3]}`,
		`{"clock":{"initial":180,"increment":2},"range":null}`,
		`{"clock":null,"rated":"yes"}`,
		`{"range":[0,4001]}`,
		"\xff\xfe",
	} {
		f.Add(false, []byte(seed))
		f.Add(true, []byte(seed))
	}
	lim := noLimits
	lim.Seeks = Rate{PerMinute: math.Inf(1)}
	s := New(Config{Engine: first{}, Limits: lim, Accounts: Accounts{Hashing: fastHashing}})
	f.Cleanup(s.Close)
	ks := s.store.(store.Seeks)
	f.Fuzz(func(t *testing.T, pool bool, body []byte) {
		path := "/api/seeks"
		if pool {
			path = "/api/pairing"
		}
		before, err := ks.OpenSeeks(context.Background(), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest("POST", path, bytes.NewReader(body))
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("POST %s %q: %d %s", path, body, w.Code, w.Body)
		}
		after, err := ks.OpenSeeks(context.Background(), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if w.Code >= 400 && len(after) != len(before) {
			t.Fatalf("POST %s %q refused (%d), and the lobby changed: %d seeks, then %d", path, body, w.Code, len(before), len(after))
		}
		for _, k := range after { // the open seeks an address may have: cancel them all
			ks.DeleteSeek(context.Background(), k.ID)
		}
	})
}

// TestSeekLimitsAcrossServers: the seeks an address posts are limited
// over every server sharing the store (two on one PostgreSQL), as the
// seeks it has open are: posting through the other server gets no new
// allowance.
func TestSeekLimitsAcrossServers(t *testing.T) {
	lim := noLimits
	lim.Seeks = Rate{PerMinute: 1e-6, Burst: 3}
	sa, sb := postgresPair(t)
	var on [2]*browser
	for i, st := range []Store{sa, sb} {
		on[i] = newBrowser(t, newTestServer(t, newServer(t, Config{Store: st, ID: string(rune('a' + i)), Limits: lim, Accounts: Accounts{Hashing: fastHashing}})))
	}
	const body = `{"clock":{"initial":300,"increment":0}}`
	for i := range 3 {
		k := on[i%2].post(body)
		if r := on[i%2].call("DELETE", "/api/seeks/"+k.ID, nil, "Authorization", "Bearer "+k.Secret); r.status != 204 {
			t.Fatalf("cancel: %v", r)
		}
	}
	for i := range on {
		r := on[i].call("POST", "/api/seeks", body)
		wantError(t, r, 429, "rate_limited")
		if r.header.Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
	}
}

// TestSeekOpenLimitRace: an address posting many seeks at once still has
// no more than maxOpenSeeks open: the count and the insert are one step
// of the store, on SQLite and on PostgreSQL.
func TestSeekOpenLimitRace(t *testing.T) {
	for _, tc := range []struct {
		name string
		st   func(t *testing.T) Store
	}{
		{"SQLite", func(t *testing.T) Store {
			st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"), nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		}},
		{"PostgreSQL", func(t *testing.T) Store { return openPostgresURL(t, pgtest.Start(t)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := noLimits
			lim.Seeks = Rate{PerMinute: math.Inf(1)}
			_, ts := accountServerOn(t, tc.st(t), lim)
			a := newBrowser(t, ts)
			var wg sync.WaitGroup
			var posted atomic.Int32
			for range 4 * maxOpenSeeks {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if a.call("POST", "/api/seeks", `{"clock":{"initial":300,"increment":0}}`).status == 201 {
						posted.Add(1)
					}
				}()
			}
			wg.Wait()
			open := newBrowser(t, ts).seeks()
			if posted.Load() > maxOpenSeeks || len(open) > maxOpenSeeks {
				t.Errorf("%d seeks posted at once answered 201, %d open; want at most %d", posted.Load(), len(open), maxOpenSeeks)
			}
		})
	}
}

// TestLobbyFloodBounds: the open seeks of an IPv6 /48 are bounded over
// all its /64s (maxOpenSeeksWide), so that one holder of a /48 cannot
// fill the lobby from 65,536 /64s; and the open seeks of all addresses
// are bounded (Limits.OpenSeeks): past it, 503 unavailable with
// Retry-After. On SQLite and PostgreSQL.
func TestLobbyFloodBounds(t *testing.T) {
	for _, tc := range []struct {
		name string
		st   func(t *testing.T) Store
	}{
		{"SQLite", func(t *testing.T) Store {
			st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"), nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		}},
		{"PostgreSQL", func(t *testing.T) Store { return openPostgresURL(t, pgtest.Start(t)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := noLimits
			lim.Seeks = Rate{PerMinute: math.Inf(1)}
			lim.ClientIPHeader = "X-Real-IP"
			lim.OpenSeeks = maxOpenSeeksWide + 10
			_, ts := accountServerOn(t, tc.st(t), lim)
			a := newBrowser(t, ts)
			const body = `{"clock":{"initial":300,"increment":0}}`
			post := func(addr string) response {
				return a.call("POST", "/api/seeks", body, "X-Real-IP", addr)
			}
			open := 0
			for n := 0; open < maxOpenSeeksWide; n++ {
				for range maxOpenSeeks {
					must[api.SeekPosted](t, post(fmt.Sprintf("2001:db8:7:%x::1", n)), 201)
					open++
				}
			}
			// The /48 is full, from a /64 that has none open.
			r := post("2001:db8:7:ffff::1")
			wantError(t, r, 429, "rate_limited")
			if r.header.Get("Retry-After") == "" || !strings.Contains(string(r.body), "network") {
				t.Errorf("a full /48's refusal: %s, Retry-After %q", r.body, r.header.Get("Retry-After"))
			}
			// Another /48 may post.
			must[api.SeekPosted](t, post("2001:db8:8::1"), 201)
			open++
			for i := 1; open < lim.OpenSeeks; i++ {
				must[api.SeekPosted](t, post(fmt.Sprintf("192.0.2.%d", i)), 201)
				open++
			}
			// The lobby is full, for an address with none open.
			r = post("198.51.100.1")
			wantError(t, r, 503, "unavailable")
			if r.header.Get("Retry-After") == "" {
				t.Error("503 without Retry-After")
			}
			if got := len(newBrowser(t, ts).seeks()); got != lim.OpenSeeks {
				t.Errorf("%d seeks open, want %d", got, lim.OpenSeeks)
			}
		})
	}
}
