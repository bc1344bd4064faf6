package server

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"oanquan/internal/match"
	"oanquan/internal/store"
	"oanquan/internal/store/memory"
	"oanquan/rules"
)

// TestUnknownGames: a client that names too many games that do not exist
// is refused (429 with Retry-After) before any lookup, a game that exists
// included; another client is not; the server logs the client once, and
// never the ids it tried. IPv6 clients count by /64.
func TestUnknownGames(t *testing.T) {
	var logged bytes.Buffer
	s := newServer(t, Config{
		Limits: Limits{Creates: Rate{PerMinute: 1e6, Burst: 1000}, Unknown: Rate{PerMinute: 1, Burst: 3}},
		Log:    slog.New(slog.NewTextHandler(&logged, nil)),
	})
	g := create(t, s, map[string]any{"mode": "local"})
	from := func(addr, id string) response {
		req := httptest.NewRequest("GET", "/api/games/"+id, nil)
		req.RemoteAddr = addr
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return response{w.Code, w.Header(), w.Body.Bytes()}
	}
	for _, c := range []struct{ name, addr, same, other string }{
		{"IPv4", "192.0.2.7:1000", "192.0.2.7:2000", "192.0.2.8:1000"},
		{"IPv6", "[2001:db8:1:2::1]:1000", "[2001:db8:1:2:ffff::9]:1000", "[2001:db8:1:3::1]:1000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for i := range 3 {
				wantError(t, from(c.addr, "guess"+strconv.Itoa(i)+c.name), 404, "not_found")
			}
			r := from(c.same, "guess9")
			wantError(t, r, 429, "rate_limited")
			if ra, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || ra < 1 || ra > 60 {
				t.Errorf("Retry-After %q, want 1 to 60 seconds", r.header.Get("Retry-After"))
			}
			wantError(t, from(c.same, g.ID), 429, "rate_limited") // found or not: the client learns nothing
			if r := from(c.other, g.ID); r.status != 200 {
				t.Errorf("another client asking for a game: %s", r)
			}
			wantError(t, from(c.other, "guess1"), 404, "not_found")
		})
	}
	if n := strings.Count(logged.String(), "too many requests for games that do not exist"); n != 2 {
		t.Errorf("logged %d warnings, want one for each client:\n%s", n, logged.String())
	}
	if !strings.Contains(logged.String(), "client=192.0.2.7 ") || !strings.Contains(logged.String(), "client=2001:db8:1:2::/64 ") {
		t.Errorf("the warnings do not name the clients:\n%s", logged.String())
	}
	if strings.Contains(logged.String(), "guess") {
		t.Errorf("the log holds an id tried:\n%s", logged.String())
	}
}

// TestGameIDs: a new game's id holds 96 random bits or more; a game saved
// with an id of the old length (48 bits) is still found.
func TestGameIDs(t *testing.T) {
	st := memory.New()
	s := newServer(t, Config{Store: st})
	g := create(t, s, map[string]any{"mode": "local"})
	if bits := len(g.ID) * 5; bits < 96 || !validID(g.ID) {
		t.Errorf("new game id %q: %d bits, want 96 or more", g.ID, bits)
	}
	start := rules.Rules{}.Start()
	old := toStored(match.Config{ID: "abcdefgh23", Mode: match.Local, Start: &start, Created: time.Now()})
	if err := st.Create(context.Background(), old); err != nil {
		t.Fatal(err)
	}
	if got := get(t, s, old.ID); got.ID != old.ID {
		t.Errorf("the old game's id: %q, want %q", got.ID, old.ID)
	}
}

// TestUnknownGamesAtOnce: guesses sent at once may all be looked up, but
// every one counts: the client then waits for all of them, so it guesses
// no faster than the limit over time. (Counted after the lookup, a refusal
// would otherwise have given the tokens back.)
func TestUnknownGamesAtOnce(t *testing.T) {
	s := newServer(t, Config{Store: slowStore{memory.New()}, Limits: Limits{Creates: Rate{PerMinute: 1e6, Burst: 1000}, Unknown: Rate{PerMinute: 1, Burst: 3}}})
	from := func(id string) response {
		req := httptest.NewRequest("GET", "/api/games/"+id, nil)
		req.RemoteAddr = "192.0.2.9:1000"
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return response{w.Code, w.Header(), w.Body.Bytes()}
	}
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			r := from("guess" + strconv.Itoa(i))
			mu.Lock()
			codes[r.status]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if codes[404]+codes[429] != 40 {
		t.Fatalf("40 guesses at once: %v, want each 404 or 429", codes)
	}
	// Each guess looked up costs a minute at this rate: the next is
	// refused until they are all paid for.
	r := from("guess99")
	wantError(t, r, 429, "rate_limited")
	ra, err := strconv.Atoi(r.header.Get("Retry-After"))
	if min := (codes[404] - 3) * 60; err != nil || ra < min {
		t.Errorf("after %d guesses looked up with 3 allowed, Retry-After %q, want at least %d s", codes[404], r.header.Get("Retry-After"), min)
	}
}

// slowStore is a store whose reads take 20 ms, as a busy database's: the
// guesses sent at once are all looked up together.
type slowStore struct{ Store }

func (s slowStore) Get(ctx context.Context, id string) (store.Game, error) {
	time.Sleep(20 * time.Millisecond)
	return s.Store.Get(ctx, id)
}
