package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"oanquan/internal/account"
	"oanquan/internal/api"
	"oanquan/internal/rating"
	"oanquan/internal/store"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/postgres"
	"oanquan/internal/store/sqlite"
	"oanquan/internal/wire"
)

// fastHashing keeps argon2id cheap in tests: the parameters travel with
// each hash, and the code that runs is the same.
var fastHashing = account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// noLimits lifts every limit but those a test sets.
var noLimits = Limits{Creates: Rate{PerMinute: 1e6, Burst: 1000}, Hints: Rate{PerMinute: 1e6, Burst: 1000},
	SignIns: Rate{PerMinute: math.Inf(1)}, SignUps: Rate{PerMinute: math.Inf(1)}, SignInFailures: Rate{PerMinute: math.Inf(1)}}

// accountServer serves a server with accounts over loopback, its games
// in a SQLite file.
func accountServer(t *testing.T, lim Limits) (*Server, *httptest.Server) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return accountServerOn(t, st, lim)
}

func accountServerOn(t *testing.T, st Store, lim Limits) (*Server, *httptest.Server) {
	t.Helper()
	s := newServer(t, Config{Store: st, Limits: lim, Accounts: Accounts{Hashing: fastHashing}})
	return s, newTestServer(t, s)
}

// browser is one browser over real HTTP: its own cookies.
type browser struct {
	t    *testing.T
	base string
	c    *http.Client
}

func newBrowser(t *testing.T, ts *httptest.Server) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t, ts.URL, &http.Client{Jar: jar, Timeout: guard}}
}

// call sends a request with the browser's cookies; a body that is not a
// string is sent as JSON; header pairs follow.
func (b *browser) call(method, path string, body any, header ...string) response {
	b.t.Helper()
	var rd io.Reader
	switch v := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(v)
	default:
		data, _ := json.Marshal(v)
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, b.base+path, rd)
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, data}
}

func creds(name, pw string) map[string]string {
	return map[string]string{"username": name, "password": pw}
}

// signUp makes an account in b and checks the answer and its cookie.
func (b *browser) signUp(name, pw string) {
	b.t.Helper()
	r := b.call("POST", "/api/accounts", creds(name, pw))
	p := must[api.Player](b.t, r, http.StatusCreated)
	if p.Username != name || len(p.Ratings) != 0 {
		b.t.Fatalf("signed up as %+v, want %s with no ratings", p, name)
	}
	checkCookie(b.t, r)
}

// checkCookie checks the session cookie r sets: HttpOnly, SameSite=Lax,
// Path=/, not Secure over plain HTTP.
func checkCookie(t *testing.T, r response) {
	t.Helper()
	c := r.header.Get("Set-Cookie")
	for _, want := range []string{account.CookieName + "=", "Path=/", "HttpOnly", "SameSite=Lax"} {
		if !strings.Contains(c, want) {
			t.Errorf("Set-Cookie %q: want %s", c, want)
		}
	}
	if strings.Contains(c, "Secure") {
		t.Errorf("Set-Cookie %q: Secure over plain HTTP", c)
	}
}

func (b *browser) me() (api.Player, int) {
	b.t.Helper()
	r := b.call("GET", "/api/me", nil)
	if r.status != 200 {
		return api.Player{}, r.status
	}
	return decodeAs[api.Player](b.t, r), 200
}

// TestAccountLifecycle: sign up, sign out, sign in, sign out
// everywhere, change the password, delete the account; over HTTP, on a
// SQLite file.
func TestAccountLifecycle(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	a.signUp("Nguyễn", "gà trống gáy sáng")
	if p, st := a.me(); st != 200 || p.Username != "Nguyễn" {
		t.Fatalf("me = %+v, %d", p, st)
	}
	if _, st := b.me(); st != 401 {
		t.Errorf("me without a session = %d, want 401", st)
	}
	if r := a.call("DELETE", "/api/session", nil); r.status != 204 || !strings.Contains(r.header.Get("Set-Cookie"), "Max-Age=0") {
		t.Errorf("sign out: %s, Set-Cookie %q", r, r.header.Get("Set-Cookie"))
	}
	if _, st := a.me(); st != 401 {
		t.Errorf("me after signing out = %d, want 401", st)
	}
	wantError(t, a.call("DELETE", "/api/session", nil), 401, "signed_out")
	// Sign in with the name in another case: one account.
	wantError(t, a.call("POST", "/api/session", creds("NGUYỄN", "wrong password!")), 401, "bad_credentials")
	checkCookie(t, a.call("POST", "/api/session", creds("NGUYỄN", "gà trống gáy sáng")))
	checkCookie(t, b.call("POST", "/api/session", creds("nguyễn", "gà trống gáy sáng")))
	// Everywhere: b's session goes too.
	if r := a.call("DELETE", "/api/sessions", nil); r.status != 204 {
		t.Fatalf("sign out everywhere: %s", r)
	}
	for _, x := range []*browser{a, b} {
		if _, st := x.me(); st != 401 {
			t.Errorf("me after signing out everywhere = %d, want 401", st)
		}
	}
	// A password change ends the other sessions, not this one.
	a.call("POST", "/api/session", creds("Nguyễn", "gà trống gáy sáng"))
	b.call("POST", "/api/session", creds("Nguyễn", "gà trống gáy sáng"))
	r := a.call("PUT", "/api/me/password", map[string]string{"old": "nope nope nope", "new": "trâu ăn cỏ non"})
	wantError(t, r, 401, "bad_credentials")
	r = a.call("PUT", "/api/me/password", map[string]string{"old": "gà trống gáy sáng", "new": "password"})
	wantField(t, r, "new", "common")
	if r := a.call("PUT", "/api/me/password", map[string]string{"old": "gà trống gáy sáng", "new": "trâu ăn cỏ non"}); r.status != 204 {
		t.Fatalf("change password: %s", r)
	}
	if _, st := a.me(); st != 200 {
		t.Errorf("me after changing the password = %d, want 200", st)
	}
	if _, st := b.me(); st != 401 {
		t.Errorf("the other session after a password change: me = %d, want 401", st)
	}
	wantError(t, b.call("POST", "/api/session", creds("Nguyễn", "gà trống gáy sáng")), 401, "bad_credentials")
	if r := b.call("POST", "/api/session", creds("Nguyễn", "trâu ăn cỏ non")); r.status != 200 {
		t.Errorf("sign in with the new password: %s", r)
	}
	// Deletion: wrong password refused; then gone, and the name free.
	wantError(t, a.call("DELETE", "/api/me", map[string]string{"password": "gà trống gáy sáng"}), 401, "bad_credentials")
	if r := a.call("DELETE", "/api/me", map[string]string{"password": "trâu ăn cỏ non"}); r.status != 204 {
		t.Fatalf("delete: %s", r)
	}
	for _, x := range []*browser{a, b} {
		if _, st := x.me(); st != 401 {
			t.Errorf("me after the deletion = %d, want 401", st)
		}
	}
	wantError(t, a.call("GET", "/api/players/Nguyễn", nil), 404, "not_found")
	a.signUp("nguyễn", "một con vịt xòe ra hai cái cánh")
}

// wantField checks a 400 naming field and the rule broken.
func wantField(t *testing.T, r response, field, reason string) {
	t.Helper()
	if r.status != 400 {
		t.Errorf("status %d, want 400 (%s %s): %s", r.status, field, reason, r.body)
		return
	}
	e := decodeAs[api.ErrorBody](t, r)
	if e.Error.Code != "bad_request" || e.Error.Field != field || e.Error.Reason != reason {
		t.Errorf("error %+v, want bad_request on %s for %s", e.Error, field, reason)
	}
}

// TestSignUpRefusals: each field refused says which and why; a name
// taken in any spelling of its key is 409 username_taken.
func TestSignUpRefusals(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	b := newBrowser(t, ts)
	b.signUp("Nam", "gà trống gáy sáng")
	for _, c := range []struct {
		body          any
		field, reason string
	}{
		{creds("ab", "gà trống gáy sáng"), "username", "too_short"},
		{creds("admin", "gà trống gáy sáng"), "username", "reserved"},
		{creds("Lan", "short"), "password", "too_short"},
		{creds("Lan", "password1"), "password", "common"},
		{creds("Lanlan", "Lanlan"), "password", "too_short"},
		{map[string]string{"password": "gà trống gáy sáng"}, "username", "missing"},
		{map[string]string{"username": "Lan"}, "password", "missing"},
	} {
		wantField(t, b.call("POST", "/api/accounts", c.body), c.field, c.reason)
	}
	wantError(t, b.call("POST", "/api/accounts", creds("NAM", "một hai ba bốn năm")), 409, "username_taken")
	wantError(t, b.call("POST", "/api/accounts", creds("nam", "một hai ba bốn năm")), 409, "username_taken")
	wantError(t, b.call("POST", "/api/accounts", `{"username":"x","password":"y","extra":1}`), 400, "bad_request")
}

// TestSignInSameAnswer: a wrong password and an unknown username get the
// same status and body, and each runs one argon2id (the dummy hash for
// the unknown name).
func TestSignInSameAnswer(t *testing.T) {
	s, ts := accountServer(t, noLimits)
	b := newBrowser(t, ts)
	b.signUp("Nam", "gà trống gáy sáng")
	var bodies []string
	for _, name := range []string{"Nam", "Ghost"} {
		before := s.accounts.Verifies()
		r := newBrowser(t, ts).call("POST", "/api/session", creds(name, "not the password"))
		if n := s.accounts.Verifies() - before; n != 1 {
			t.Errorf("sign-in as %s ran %d hashes, want 1", name, n)
		}
		if r.status != 401 || r.header.Get("Set-Cookie") != "" {
			t.Errorf("sign-in as %s: %s, Set-Cookie %q", name, r, r.header.Get("Set-Cookie"))
		}
		bodies = append(bodies, string(r.body))
	}
	if bodies[0] != bodies[1] {
		t.Errorf("answers differ:\n%s\n%s", bodies[0], bodies[1])
	}
}

// TestSignInLimits: sign-ins per address, wrong passwords per name
// (unknown names alike, and the right password refused while the name
// waits), and sign-ups per address: 429 with Retry-After.
func TestSignInLimits(t *testing.T) {
	t.Run("address", func(t *testing.T) {
		lim := noLimits
		lim.SignIns = Rate{PerMinute: 10, Burst: 5}
		_, ts := accountServer(t, lim)
		b := newBrowser(t, ts)
		for range 5 {
			wantError(t, b.call("POST", "/api/session", creds("Ghost", "not the password")), 401, "bad_credentials")
		}
		r := b.call("POST", "/api/session", creds("Ghost", "not the password"))
		wantError(t, r, 429, "rate_limited")
		if r.header.Get("Retry-After") == "" {
			t.Error("no Retry-After")
		}
	})
	t.Run("name", func(t *testing.T) {
		lim := noLimits
		lim.SignInFailures = Rate{PerMinute: 1.0 / 3, Burst: 5}
		_, ts := accountServer(t, lim)
		b := newBrowser(t, ts)
		b.signUp("Nam", "gà trống gáy sáng")
		var answers []string
		for _, name := range []string{"Nam", "Ghost"} {
			for range 5 {
				wantError(t, b.call("POST", "/api/session", creds(name, "not the password")), 401, "bad_credentials")
			}
			r := b.call("POST", "/api/session", creds(name, "gà trống gáy sáng"))
			wantError(t, r, 429, "rate_limited")
			if s := r.header.Get("Retry-After"); s == "" || s > "180" && len(s) >= 3 {
				t.Errorf("Retry-After %q, want at most 180 s", s)
			}
			answers = append(answers, string(r.body))
		}
		if answers[0] != answers[1] {
			t.Errorf("the limit's answers tell the names apart:\n%s\n%s", answers[0], answers[1])
		}
		// Another name is not held up.
		wantError(t, b.call("POST", "/api/session", creds("Lan", "not the password")), 401, "bad_credentials")
	})
	t.Run("sign-ups", func(t *testing.T) {
		lim := noLimits
		lim.SignUps = Rate{PerMinute: 3.0 / 60, Burst: 3}
		_, ts := accountServer(t, lim)
		b := newBrowser(t, ts)
		for _, n := range []string{"Nam", "Lan", "Minh"} {
			b.signUp(n, "gà trống gáy sáng")
		}
		r := b.call("POST", "/api/accounts", creds("Hoa", "gà trống gáy sáng"))
		wantError(t, r, 429, "rate_limited")
		if r.header.Get("Retry-After") == "" {
			t.Error("no Retry-After")
		}
	})
}

// TestAccountsCrossSite: a request from another site that carries the
// session cookie (a form posted there, a fetch with credentials) cannot
// act with it: 403, and the session is as it was.
func TestAccountsCrossSite(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	b := newBrowser(t, ts)
	b.signUp("Nam", "gà trống gáy sáng")
	evil := []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}
	for _, c := range []struct{ method, path, body string }{
		{"DELETE", "/api/session", ""},
		{"DELETE", "/api/sessions", ""},
		{"POST", "/api/session", `{"username":"Nam","password":"gà trống gáy sáng"}`},
		{"PUT", "/api/me/password", `{"old":"gà trống gáy sáng","new":"trâu ăn cỏ non"}`},
		{"DELETE", "/api/me", `{"password":"gà trống gáy sáng"}`},
		{"POST", "/api/games", `{"mode":"online","clock":{"initial":180,"increment":2},"rated":true}`},
	} {
		wantError(t, b.call(c.method, c.path, c.body, evil...), 403, "forbidden")
	}
	// Without Sec-Fetch-Site (an older browser), the Origin alone.
	wantError(t, b.call("DELETE", "/api/me", `{"password":"gà trống gáy sáng"}`, "Origin", "https://evil.example"), 403, "forbidden")
	if p, st := b.me(); st != 200 || p.Username != "Nam" {
		t.Errorf("after the cross-site requests: me = %+v, %d", p, st)
	}
	// The page's own requests pass.
	if r := b.call("DELETE", "/api/session", nil, "Origin", b.base, "Sec-Fetch-Site", "same-origin"); r.status != 204 {
		t.Errorf("a same-origin sign-out: %s", r)
	}
}

// TestRehash: a password hashed with other parameters than the server's
// is hashed again at its next sign-in, the sessions kept.
func TestRehash(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	_, old := accountServerOn(t, st, noLimits)
	a := newBrowser(t, old)
	a.signUp("Nam", "gà trống gáy sáng")
	raised := fastHashing
	raised.Memory *= 2
	s := newServer(t, Config{Store: st, Limits: noLimits, Accounts: Accounts{Hashing: raised}})
	b := newBrowser(t, newTestServer(t, s))
	if r := b.call("POST", "/api/session", creds("Nam", "gà trống gáy sáng")); r.status != 200 {
		t.Fatalf("sign in: %s", r)
	}
	acc, err := st.AccountByKey(context.Background(), account.UsernameKey("Nam"))
	if err != nil || !strings.Contains(acc.Hash, "m=128,") {
		t.Errorf("hash after signing in = %q, %v; want m=128", acc.Hash, err)
	}
	if _, st := a.me(); st != 200 {
		t.Errorf("the first session after the rehash: me = %d", st)
	}
	if r := a.call("POST", "/api/session", creds("Nam", "gà trống gáy sáng")); r.status != 200 {
		t.Errorf("sign in on the first server after the rehash: %s", r)
	}
}

// TestSecureCookieBehindTLS: behind a proxy that terminates TLS the
// session cookie is Secure, with the __Host- prefix.
func TestSecureCookieBehindTLS(t *testing.T) {
	s := newServer(t, Config{Accounts: Accounts{BehindTLS: true, Hashing: fastHashing}, Limits: noLimits})
	r := do(t, s, "POST", "/api/accounts", creds("Nam", "gà trống gáy sáng"))
	c := r.header.Get("Set-Cookie")
	if r.status != 201 || !strings.HasPrefix(c, account.SecureCookieName+"=") || !strings.Contains(c, "Secure") {
		t.Errorf("behind TLS: %d, Set-Cookie %q", r.status, c)
	}
}

// ratedPair signs up two players in two browsers.
func ratedPair(t *testing.T, ts *httptest.Server) (a, b *browser) {
	a, b = newBrowser(t, ts), newBrowser(t, ts)
	a.signUp("Nam", "gà trống gáy sáng")
	b.signUp("Lan", "trâu ăn cỏ non")
	return a, b
}

// ratedGame has a create a rated 3+2 game and b join it; it returns the
// game and each browser's seat and secret.
func ratedGame(t *testing.T, a, b *browser) (string, [2]player) {
	t.Helper()
	c := must[api.Created](t, a.call("POST", "/api/games", `{"mode":"online","clock":{"initial":180,"increment":2},"rated":true}`), 201)
	if !c.Rated {
		t.Fatalf("created %+v: not rated", c.Game)
	}
	j := must[api.Joined](t, b.call("POST", "/api/games/"+c.ID+"/join", ""), 200)
	var ps [2]player
	ps[c.Seat] = player{c.Secret, c.Seat}
	ps[j.Seat] = player{j.Secret, j.Seat}
	return c.ID, ps
}

// act sends a request for seat p's player in browser b.
func (b *browser) act(p player, method, path, body string) response {
	b.t.Helper()
	return b.call(method, path, body, "Authorization", "Bearer "+p.secret)
}

// playOut plays game id to its end by the rules, each side the first
// legal move, and returns the final state.
func playOut(t *testing.T, a *browser, id string, ps [2]player) wire.Game {
	t.Helper()
	st := must[wire.Game](t, a.call("GET", "/api/games/"+id, nil), 200)
	for !st.Over {
		turn := must[wire.Turn](t, a.act(ps[st.ToMove], "POST", "/api/games/"+id+"/moves", `{"move":"`+st.Legal[0]+`"}`), 200)
		st = turn.State
	}
	return st
}

// checkRated checks that the players' ratings moved from new ones as
// rating.Game says for seat 0's score, and that the game's players show
// the change.
func checkRated(t *testing.T, s *Server, b *browser, id string, score0 float64, names [2]string) {
	t.Helper()
	saved, err := s.store.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	rc := saved.RatingChange
	if rc == nil || rc.Speed != "blitz" {
		t.Fatalf("saved rating change %+v, want blitz", rc)
	}
	wantA, wantB, _ := rating.System{}.Game(rating.New(), rating.New(), score0, rc.After[0].Updated)
	want := [2]rating.Rating{wantA, wantB}
	seats := must[api.Seats](t, b.call("GET", "/api/games/"+id+"/players", nil), 200)
	for p := range 2 {
		got := must[api.Player](t, b.call("GET", "/api/players/"+names[p], nil), 200).Ratings["blitz"]
		if math.Abs(got.Rating-want[p].Rating) > 1e-6 || math.Abs(got.RD-want[p].RD) > 0.01 || got.Games != 1 || !got.Provisional {
			t.Errorf("%s's blitz rating %+v, want %+v", names[p], got, want[p])
		}
		if u := seats.Players[p].Username; u == nil || *u != names[p] || seats.Players[p].After == nil ||
			math.Abs(seats.Players[p].After.Rating-want[p].Rating) > 1e-6 || seats.Players[p].Before.Rating != 1500 {
			t.Errorf("seat %d: %+v", p, seats.Players[p])
		}
	}
	if seats.Rated != "blitz" {
		t.Errorf("players' rated = %q", seats.Rated)
	}
	// The game's state carries the change too, for the ending dialog.
	st := must[wire.Game](t, b.call("GET", "/api/games/"+id, nil), 200)
	if r := st.Ratings; r == nil || r.Speed != "blitz" || r.Before != [2]float64{1500, 1500} ||
		math.Abs(r.After[0]-want[0].Rating) > 1e-6 || math.Abs(r.After[1]-want[1].Rating) > 1e-6 {
		t.Errorf("state's ratings %+v, want after %v and %v", st.Ratings, want[0].Rating, want[1].Rating)
	}
}

// TestRatedGame: a rated game between two accounts played to its end by
// the rules updates both ratings as rating.Game says, saved with the
// game's end; on SQLite and on PostgreSQL.
func TestRatedGame(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			s, ts := accountServer(t, noLimits)
			url := ""
			if db == "postgres" {
				url = pgtest.Start(t)
				st, err := postgres.Open(context.Background(), url, nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { st.Close() })
				s, ts = accountServerOn(t, st, noLimits)
			}
			a, b := ratedPair(t, ts)
			id, ps := ratedGame(t, a, b)
			saved, err := s.store.Get(context.Background(), id)
			if err != nil || saved.Players[0] == "" || saved.Players[1] == "" || saved.Players[0] == saved.Players[1] {
				t.Fatalf("seats' players %q, %v", saved.Players, err)
			}
			end := playOut(t, a, id, ps)
			if end.Ratings == nil || end.Ratings.Speed != "blitz" {
				t.Errorf("the last move's answer: ratings %+v, want blitz", end.Ratings)
			}
			// A later change of the ended game's status rates nothing again.
			if r := a.act(ps[0], "POST", "/api/games/"+id+"/rematch", `{"action":"offer"}`); r.status != 200 {
				t.Fatalf("rematch offer: %s", r)
			}
			score := 0.5
			if w := end.Result.Winner; w != nil && *w == 0 {
				score = 1
			} else if w != nil && *w == 1 {
				score = 0
			}
			checkRated(t, s, b, id, score, saved.Players)
			if url != "" {
				// Another server reads the ended game from the database,
				// with what it did to the ratings.
				st, err := postgres.Open(context.Background(), url, nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { st.Close() })
				_, other := accountServerOn(t, st, noLimits)
				g := must[wire.Game](t, newBrowser(t, other).call("GET", "/api/games/"+id, nil), 200)
				if g.Ratings == nil || *g.Ratings != *end.Ratings {
					t.Errorf("through another server: ratings %+v, want %+v", g.Ratings, end.Ratings)
				}
			}
		})
	}
}

// TestRatedResignAndAbort: a resignation rates the game; an abort does
// not, nor does a casual game.
func TestRatedResignAndAbort(t *testing.T) {
	s, ts := accountServer(t, noLimits)
	a, b := ratedPair(t, ts)
	id, ps := ratedGame(t, a, b)
	if r := a.act(ps[0], "POST", "/api/games/"+id+"/abort", ""); r.status != 200 {
		t.Fatalf("abort: %s", r)
	}
	for _, n := range []string{"Nam", "Lan"} {
		if r := must[api.Player](t, a.call("GET", "/api/players/"+n, nil), 200); len(r.Ratings) != 0 {
			t.Errorf("after an abort, %s's ratings %+v", n, r.Ratings)
		}
	}
	id, ps = ratedGame(t, a, b)
	st := must[wire.Game](t, a.call("GET", "/api/games/"+id, nil), 200)
	must[wire.Turn](t, a.act(ps[st.ToMove], "POST", "/api/games/"+id+"/moves", `{"move":"`+st.Legal[0]+`"}`), 200)
	if r := a.act(ps[1], "POST", "/api/games/"+id+"/resign", ""); r.status != 200 {
		t.Fatalf("resign: %s", r)
	}
	saved, _ := s.store.Get(context.Background(), id)
	checkRated(t, s, b, id, 1, saved.Players) // seat 1 resigned: seat 0 scores 1
	// The rematch: the same players on their seats, casual.
	if r := a.act(ps[0], "POST", "/api/games/"+id+"/rematch", `{"action":"offer"}`); r.status != 200 {
		t.Fatalf("rematch offer: %s", r)
	}
	next := must[wire.Game](t, b.act(ps[1], "POST", "/api/games/"+id+"/rematch", `{"action":"accept"}`), 200).Next
	seats := must[api.Seats](t, a.call("GET", "/api/games/"+next+"/players", nil), 200)
	if seats.Rated != "" || seats.Players[0].Username == nil || seats.Players[1].Username == nil {
		t.Errorf("the rematch's players: %+v", seats)
	}
}

// TestRatedRefusals: a rated game needs a clock, a creator signed in,
// and a second player signed in who is someone else.
func TestRatedRefusals(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	a, _ := ratedPair(t, ts)
	anon := newBrowser(t, ts)
	wantField(t, a.call("POST", "/api/games", `{"mode":"online","rated":true}`), "rated", "clock")
	wantError(t, anon.call("POST", "/api/games", `{"mode":"online","clock":{"initial":180,"increment":2},"rated":true}`), 401, "signed_out")
	c := must[api.Created](t, a.call("POST", "/api/games", `{"mode":"online","clock":{"initial":180,"increment":2},"rated":true}`), 201)
	wantError(t, anon.call("POST", "/api/games/"+c.ID+"/join", ""), 401, "signed_out")
	wantError(t, a.call("POST", "/api/games/"+c.ID+"/join", ""), 409, "conflict")
}

// FuzzAccountRequests sends arbitrary bodies to the routes of accounts
// that read one, signed in: whatever the body, never a 5xx, and a
// refused request leaves the session as it was.
func FuzzAccountRequests(f *testing.F) {
	for _, seed := range []struct {
		endpoint uint8
		body     string
	}{
		{0, `{"username":"Nguyễn","password":"gà trống gáy sáng"}`},
		{0, `{"username":"a\u0301bc","password":"x"}`},
		{1, `{"username":"fz1","password":"not it"}`},
		{1, `{"username":null,"password":7}`},
		{2, `{"old":"not it","new":"trâu ăn cỏ non"}`},
		{2, `{"old":"","new":""}`},
		{3, `{"password":"not it"}`},
		{3, "\xff\xfe"},
	} {
		f.Add(seed.endpoint, []byte(seed.body))
	}
	s := New(Config{Engine: first{}, Limits: noLimits, Accounts: Accounts{Hashing: fastHashing}})
	f.Cleanup(s.Close)
	n := 0
	f.Fuzz(func(t *testing.T, endpoint uint8, body []byte) {
		n++
		name := "fz" + strings.Repeat("x", n%5) + string(rune('a'+n%26)) + strconv.Itoa(n)
		r := do(t, s, "POST", "/api/accounts", creds(name, "gà trống gáy sáng"))
		if r.status != 201 {
			t.Fatalf("sign-up: %s", r)
		}
		cookie := strings.SplitN(r.header.Get("Set-Cookie"), ";", 2)[0]
		route := []struct{ method, path string }{
			{"POST", "/api/accounts"}, {"POST", "/api/session"}, {"PUT", "/api/me/password"}, {"DELETE", "/api/me"},
		}[endpoint%4]
		req := httptest.NewRequest(route.method, route.path, bytes.NewReader(body))
		req.Header.Set("Cookie", cookie)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("%s %s %q: %d %s", route.method, route.path, body, w.Code, w.Body)
		}
		if w.Code >= 400 {
			me := httptest.NewRequest("GET", "/api/me", nil)
			me.Header.Set("Cookie", cookie)
			w := httptest.NewRecorder()
			s.ServeHTTP(w, me)
			if w.Code != 200 {
				t.Fatalf("%s %s %q refused, and the session is gone: %d", route.method, route.path, body, w.Code)
			}
		}
	})
}

// BenchmarkSignIn measures a sign-in over loopback with the server's
// own argon2id parameters (account.DefaultParams), for a wrong password
// of an account and for a name with no account: the two should cost the
// same.
func BenchmarkSignIn(b *testing.B) {
	for _, name := range []string{"Nam", "Ghost"} {
		b.Run(name, func(b *testing.B) {
			s := newServer(b, Config{Limits: noLimits})
			ts := httptest.NewServer(s)
			defer ts.Close()
			do(b, s, "POST", "/api/accounts", creds("Nam", "gà trống gáy sáng"))
			body := `{"username":"` + name + `","password":"not the password"}`
			b.ResetTimer()
			for b.Loop() {
				resp, err := http.Post(ts.URL+"/api/session", "application/json", strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 401 {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
		})
	}
}

// TestErrorFields: every refusal of a field of issue 21's requests names
// the field, for the page to say it in the player's language: a wrong
// password where the request has two (old and new) or one (a deletion),
// still 401 bad_credentials, and a field of the wrong JSON type in any
// body (a sign-up's username, a seek's clock).
func TestErrorFields(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	a := newBrowser(t, ts)
	a.signUp("Nam", "gà trống gáy sáng")
	field := func(r response, status int, code, field, reason string) {
		t.Helper()
		wantError(t, r, status, code)
		if e := decodeAs[api.ErrorBody](t, r); e.Error.Field != field || e.Error.Reason != reason {
			t.Errorf("field %q, reason %q; want %q, %q: %s", e.Error.Field, e.Error.Reason, field, reason, r.body)
		}
	}
	field(a.call("PUT", "/api/me/password", map[string]string{"old": "nope nope nope", "new": "trâu ăn cỏ non"}), 401, "bad_credentials", "old", "wrong")
	field(a.call("DELETE", "/api/me", map[string]string{"password": "nope nope nope"}), 401, "bad_credentials", "password", "wrong")
	field(a.call("POST", "/api/accounts", `{"username":5,"password":"gà trống gáy sáng"}`), 400, "bad_request", "username", "type")
	field(a.call("PUT", "/api/me/password", `{"old":"gà trống gáy sáng","new":["x"]}`), 400, "bad_request", "new", "type")
	field(a.call("POST", "/api/seeks", `{"clock":{"initial":"180","increment":2}}`), 400, "bad_request", "clock.initial", "not_whole")
	field(a.call("POST", "/api/pairing", `{"clock":{"initial":180,"increment":2},"rated":"yes"}`), 400, "bad_request", "rated", "type")
	// A sign-in says no more than "wrong pair": no field.
	field(newBrowser(t, ts).call("POST", "/api/session", creds("Nam", "nope nope nope")), 401, "bad_credentials", "", "")
}

// TestSignInLimitsAcrossServers: the limits of accounts hold over every
// server sharing a store (two on one PostgreSQL), not on each: the
// accounts one address makes, the sign-ins it tries, and the wrong
// passwords given for a username from any address. Each is spread over
// both servers; the request past the limit is refused on either.
func TestSignInLimitsAcrossServers(t *testing.T) {
	lim := noLimits
	lim.SignUps = Rate{PerMinute: 1e-6, Burst: 2}
	lim.SignIns = Rate{PerMinute: 1e-6, Burst: 4}
	lim.SignInFailures = Rate{PerMinute: 1e-6, Burst: 3}
	lim.ClientIPHeader = "X-Real-IP"
	sa, sb := postgresPair(t)
	var ts [2]*httptest.Server
	for i, st := range []Store{sa, sb} {
		ts[i] = newTestServer(t, newServer(t, Config{Store: st, ID: string(rune('a' + i)), Limits: lim, Accounts: Accounts{Hashing: fastHashing}}))
	}
	var on [2]*browser
	for i := range on {
		on[i] = newBrowser(t, ts[i])
	}
	// Accounts made by one address: two, through either server.
	home := "X-Real-IP"
	for i, name := range []string{"Nam", "Lan"} {
		must[api.Player](t, on[i].call("POST", "/api/accounts", creds(name, "gà trống gáy sáng"), home, "203.0.113.1"), 201)
	}
	wantError(t, on[0].call("POST", "/api/accounts", creds("Minh", "gà trống gáy sáng"), home, "203.0.113.1"), 429, "rate_limited")
	// Wrong passwords for Nam, each from another address: three, then
	// Nam is refused on both, the right password too.
	for i := range 3 {
		addr := fmt.Sprintf("198.51.100.%d", i+1)
		wantError(t, on[i%2].call("POST", "/api/session", creds("Nam", "nope nope nope"), home, addr), 401, "bad_credentials")
	}
	for i := range on {
		wantError(t, on[i].call("POST", "/api/session", creds("Nam", "gà trống gáy sáng"), home, "198.51.100.9"), 429, "rate_limited")
	}
	// Sign-ins from one address (each for another name): four.
	for i := range 4 {
		wantError(t, on[i%2].call("POST", "/api/session", creds(fmt.Sprintf("Nobody%d", i), "nope nope nope"), home, "192.0.2.7"), 401, "bad_credentials")
	}
	wantError(t, on[0].call("POST", "/api/session", creds("Lan", "gà trống gáy sáng"), home, "192.0.2.7"), 429, "rate_limited")
	must[api.Player](t, on[1].call("POST", "/api/session", creds("Lan", "gà trống gáy sáng"), home, "192.0.2.8"), 200)
}

// TestEveryChangeCrossSite: every route of the API that changes
// anything (each but GET's), issue 21's lobby, pairing, blocks and
// reports among them, refuses a request from another site that carries
// the session cookie, before reading it; and the lobby's WebSocket,
// which knows its listener by that cookie, refuses another site's page.
func TestEveryChangeCrossSite(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	b := newBrowser(t, ts)
	b.signUp("Nam", "gà trống gáy sáng")
	newBrowser(t, ts).signUp("Lan", "trâu ăn cỏ non")
	n := 0
	for _, rt := range api.Routes {
		if rt.Method == "GET" {
			continue
		}
		path := strings.ReplaceAll(rt.Pattern, "{id}", "Lan")
		wantError(t, b.call(rt.Method, path, `{}`, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"), 403, "forbidden")
		n++
	}
	if n < 20 {
		t.Errorf("%d routes that change anything, want the 20 and more of the API", n)
	}
	if p, st := b.me(); st != 200 || p.Username != "Nam" {
		t.Errorf("after the cross-site requests: me = %+v, %d", p, st)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/lobby/ws",
		&websocket.DialOptions{HTTPClient: b.c, HTTPHeader: http.Header{"Origin": {"https://evil.example"}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("the lobby's socket from another site: %v, %v; want 403", resp, err)
	}
}

// TestDeleteAccountResignsRated: deleting an account resigns its rated
// games in play first, rated as a loss as a resignation is, so that the
// opponent has the win; a casual game in play is left as it is. On
// SQLite, and on PostgreSQL with the deletion sent through another
// server than the one the game is live on.
func TestDeleteAccountResignsRated(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			s, ts := accountServer(t, noLimits)
			other := ts
			if db == "postgres" {
				url := pgtest.Start(t)
				open := func() Store {
					st, err := postgres.Open(context.Background(), url, nil)
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { st.Close() })
					return st
				}
				s, ts = accountServerOn(t, open(), noLimits)
				_, other = accountServerOn(t, open(), noLimits)
			}
			a, b := ratedPair(t, ts)
			id, ps := ratedGame(t, a, b)
			st := must[wire.Game](t, a.call("GET", "/api/games/"+id, nil), 200)
			must[wire.Turn](t, a.act(ps[st.ToMove], "POST", "/api/games/"+id+"/moves", `{"move":"`+st.Legal[0]+`"}`), 200)
			c := must[api.Created](t, a.call("POST", "/api/games", `{"mode":"online"}`), 201)
			must[api.Joined](t, b.call("POST", "/api/games/"+c.ID+"/join", ""), 200)
			saved, err := s.store.Get(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			lanSeat := slices.Index(saved.Players[:], "Lan")

			b.base = other.URL // the deletion through the other server
			if r := b.call("DELETE", "/api/me", map[string]string{"password": "trâu ăn cỏ non"}); r.status != 204 {
				t.Fatalf("delete: %s", r)
			}
			saved, err = s.store.Get(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if saved.RatingChange == nil || saved.Result != store.Won0+store.Result(1-lanSeat) {
				t.Fatalf("after Lan's deletion: rating change %+v, result %v; want rated, won by seat %d", saved.RatingChange, saved.Result, 1-lanSeat)
			}
			if !strings.Contains(saved.Status, "resign") {
				t.Errorf("status %q: want a resignation", saved.Status)
			}
			nam := must[api.Player](t, a.call("GET", "/api/players/Nam", nil), 200).Ratings["blitz"]
			if nam.Games != 1 || nam.Rating <= 1500 {
				t.Errorf("Nam's blitz rating after the win: %+v", nam)
			}
			if casual, err := s.store.Get(context.Background(), c.ID); err != nil || strings.Contains(casual.Status, "resign") {
				t.Errorf("the casual game: status %q, %v; want it left as it was", casual.Status, err)
			}
		})
	}
}
