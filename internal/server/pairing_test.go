package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/store"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/wire"
)

// TestQuickPairing: one player waits in the pool, holding its ticket on
// the lobby's socket; a second joins and is paired at once; the first's
// socket is told "paired" with the same game, the other seat and its
// ticket's secret; the game is played with the secrets. On a SQLite
// file over loopback.
func TestQuickPairing(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	la := dialLobby(t, a)
	ta := must[api.Ticket](t, a.call("POST", "/api/pairing", `{"clock":{"initial":180,"increment":2}}`), 201)
	if ta.Game != nil || ta.ID == "" || ta.Secret == "" || ta.Speed != "blitz" {
		t.Fatalf("the first ticket: %+v", ta)
	}
	// A second click, with the ticket's secret: the same ticket, not
	// a second one to be paired with.
	again := must[api.Ticket](t, a.call("POST", "/api/pairing", `{"clock":{"initial":180,"increment":2}}`, "Authorization", "Bearer "+ta.Secret), 201)
	if again.ID != ta.ID || again.Game != nil {
		t.Fatalf("joining again with the ticket's secret: %+v, want ticket %s", again, ta.ID)
	}
	la.hold(api.SeekPosted{SeekView: api.SeekView{ID: ta.ID}, Secret: ta.Secret})
	if listed(b.seeks(), ta.ID) {
		t.Error("a ticket of the pool is listed in the lobby")
	}
	wantError(t, b.call("POST", "/api/seeks/"+ta.ID+"/accept", ""), 404, "not_found")
	// Another time control: no pairing.
	other := must[api.Ticket](t, b.call("POST", "/api/pairing", `{"clock":{"initial":60,"increment":0}}`), 201)
	if other.Game != nil {
		t.Fatalf("paired across time controls: %+v", other)
	}
	tb := must[api.Ticket](t, b.call("POST", "/api/pairing", `{"clock":{"initial":180,"increment":2}}`), 201)
	if tb.Game == nil || tb.Seat == nil {
		t.Fatalf("the second ticket was not paired: %+v", tb)
	}
	p := la.until("paired", func(m lobbyMsg) bool { return m.Type == "paired" })
	if p.Seek != ta.ID || p.Game != tb.Game.ID || p.Seat != 1-*tb.Seat || p.Secret != ta.Secret {
		t.Fatalf("paired %+v, want game %s, seat %d", p, tb.Game.ID, 1-*tb.Seat)
	}
	var ps [2]player
	ps[p.Seat] = player{ta.Secret, p.Seat}
	ps[*tb.Seat] = player{tb.Secret, *tb.Seat}
	if st := playOut(t, a, p.Game, ps); !st.Over {
		t.Errorf("not over: %+v", st)
	}
	wantError(t, a.call("POST", "/api/pairing", `{"clock":{"initial":180,"increment":2},"rated":true}`), 401, "signed_out")
	wantField(t, a.call("POST", "/api/pairing", `{"rated":false}`), "clock", "missing")
}

// TestQuickPairingWidens: two tickets 150 points apart, both held on
// lobby sockets, are not paired at once, and are paired by the server
// once the wait widens the reach (5 s); on PostgreSQL.
func TestQuickPairingWidens(t *testing.T) {
	if testing.Short() {
		t.Skip("waits 5 s")
	}
	st := openPostgresURL(t, pgtest.Start(t))
	s, ts := accountServerOn(t, st, noLimits)
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	la, lb := dialLobby(t, a), dialLobby(t, b)
	now := time.Now()
	var secrets [2]string
	for i, r := range []float64{1500, 1650} {
		secrets[i] = newSecret()
		k := store.Seek{ID: newID(), Key: hashSecret(secrets[i]), Address: "192.0.2.1", Initial: 180, Increment: 2, Speed: "blitz",
			Pool: true, Rating: r, Created: now, Expires: now.Add(seekTTL)}
		if err := s.store.(store.Seeks).CreateSeek(context.Background(), k); err != nil {
			t.Fatal(err)
		}
		l := []*lobbyClient{la, lb}[i]
		l.hold(api.SeekPosted{SeekView: api.SeekView{ID: k.ID}, Secret: secrets[i]})
	}
	start := time.Now()
	pa := la.until("paired", func(m lobbyMsg) bool { return m.Type == "paired" })
	if waited := time.Since(start); waited < 4*time.Second {
		t.Errorf("paired after %v, before the reach could widen to 150", waited)
	}
	pb := lb.until("paired", func(m lobbyMsg) bool { return m.Type == "paired" })
	if pa.Game != pb.Game || pa.Seat == pb.Seat || pa.Secret != secrets[0] || pb.Secret != secrets[1] {
		t.Fatalf("paired %+v and %+v", pa, pb)
	}
	g := must[wire.Game](t, a.call("GET", "/api/games/"+pa.Game, nil), 200)
	if g.Clock == nil || g.Clock.Initial == nil || *g.Clock.Initial != 180 {
		t.Errorf("the game's clock: %+v", g.Clock)
	}
}

// TestQuickPairingRaceTwoServers: eight tickets join the rated 3+2 pool
// at once through two servers on one PostgreSQL, two of them one
// account's from two browsers. Every game made holds exactly two
// tickets, each ticket is in one game at most, and the two browsers of
// one account are never paired with each other.
func TestQuickPairingRaceTwoServers(t *testing.T) {
	url := pgtest.Start(t)
	lim := noLimits
	lim.ClientIPHeader = "X-Real-IP" // each entrant its own address: an address has 5 seeks open at most
	var ts [2]*httptest.Server
	var ks store.Seeks
	for i := range ts {
		st := openPostgresURL(t, url)
		ks = st.(store.Seeks)
		_, ts[i] = accountServerOn(t, st, lim)
	}
	type entrant struct {
		b    *browser
		name string
	}
	var es []entrant
	for i := range 6 {
		b := newBrowser(t, ts[i%2])
		name := fmt.Sprintf("Player%d", i)
		b.signUp(name, "gà trống gáy sáng")
		es = append(es, entrant{b, name})
	}
	twin := newBrowser(t, ts[0])
	twin.signUp("Twin", "gà trống gáy sáng")
	twin2 := newBrowser(t, ts[1])
	must[api.Player](t, twin2.call("POST", "/api/session", creds("Twin", "gà trống gáy sáng")), 200)
	es = append(es, entrant{twin, "Twin"}, entrant{twin2, "Twin"})
	// Four pools, one after the other: a race each.
	for _, clock := range []string{`{"initial":180,"increment":2}`, `{"initial":300,"increment":0}`, `{"initial":600,"increment":5}`, `{"initial":60,"increment":1}`} {
		tickets := make([]api.Ticket, len(es))
		answers := make([]response, len(es))
		var wg sync.WaitGroup
		for i, e := range es {
			wg.Add(1)
			go func() {
				defer wg.Done()
				answers[i] = e.b.call("POST", "/api/pairing", `{"clock":`+clock+`,"rated":true}`, "X-Real-IP", fmt.Sprintf("192.0.2.%d", i+1))
				if answers[i].status == 201 {
					json.Unmarshal(answers[i].body, &tickets[i])
				}
			}()
		}
		wg.Wait()
		byGame := map[string][]string{} // the names in each game
		for i, e := range es {
			k := tickets[i]
			if k.ID == "" {
				t.Fatalf("pool %s: %s's ticket was refused: %s", clock, e.name, answers[i])
			}
			// As the store has it: the game of a ticket another request
			// paired may not be made yet.
			v, err := ks.Seek(context.Background(), k.ID)
			if err != nil {
				t.Fatal(err)
			}
			if k.Game != nil && v.Game != k.Game.ID {
				t.Errorf("pool %s: %s's ticket: answered game %s, the seek says %q", clock, e.name, k.Game.ID, v.Game)
			}
			if v.Game != "" {
				byGame[v.Game] = append(byGame[v.Game], e.name)
			}
			// Out of the pool, for the next: its ticket withdrawn, or
			// its game ended (an address has 5 seeks open at most).
			e.b.call("DELETE", "/api/seeks/"+k.ID, nil, "Authorization", "Bearer "+k.Secret, "X-Real-IP", fmt.Sprintf("192.0.2.%d", i+1))
		}
		if len(byGame) == 0 {
			t.Fatalf("pool %s: no game was made", clock)
		}
		for g, names := range byGame {
			if len(names) != 2 || names[0] == names[1] {
				t.Errorf("pool %s: game %s holds the tickets of %q, want two players", clock, g, names)
			}
		}
	}
}

// stallRefresh makes every refresh of s's lobby lists wait for its
// bound (storeTimeout) and fail, as on a starved machine whose store
// does not answer the lists' reads in time.
func stallRefresh(s *Server) {
	s.lobby.SetBlocksReader(func(ctx context.Context, _ []string) (map[string]map[string]bool, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
}

// TestPairedWithoutRefresh: a waiting player's socket is told "paired"
// within a second though every refresh of the lobby's lists stalls and
// fails: on a SQLite file, paired by the server holding the ticket; on
// PostgreSQL, paired through another server, the holder's server told
// by the store's notice. (Before, the notices went out with the lists:
// none until a refresh succeeded.)
func TestPairedWithoutRefresh(t *testing.T) {
	run := func(t *testing.T, sA *Server, tsA, tsB *httptest.Server) {
		a, b := newBrowser(t, tsA), newBrowser(t, tsB)
		la := dialLobby(t, a)
		la.until("the first list", func(m lobbyMsg) bool { return m.Type == "seeks" })
		stallRefresh(sA)
		ta := must[api.Ticket](t, a.call("POST", "/api/pairing", `{"clock":{"initial":180,"increment":2}}`), 201)
		la.hold(api.SeekPosted{SeekView: api.SeekView{ID: ta.ID}, Secret: ta.Secret})
		time.Sleep(100 * time.Millisecond) // the refresh the hold asked for is stalled by now
		start := time.Now()
		tb := must[api.Ticket](t, b.call("POST", "/api/pairing", `{"clock":{"initial":180,"increment":2}}`), 201)
		if tb.Game == nil || tb.Seat == nil {
			t.Fatalf("the second ticket was not paired: %+v", tb)
		}
		p := la.until("paired", func(m lobbyMsg) bool { return m.Type == "paired" })
		if took := time.Since(start); took > time.Second {
			t.Errorf("told paired %v after the pairing, want within a second", took)
		}
		if p.Seek != ta.ID || p.Game != tb.Game.ID || p.Seat != 1-*tb.Seat || p.Secret != ta.Secret {
			t.Fatalf("paired %+v, want game %s, seat %d", p, tb.Game.ID, 1-*tb.Seat)
		}
	}
	t.Run("sqlite", func(t *testing.T) {
		s, ts := accountServer(t, noLimits)
		run(t, s, ts, ts)
	})
	t.Run("postgres", func(t *testing.T) {
		url := pgtest.Start(t)
		sA, tsA := accountServerOn(t, openPostgresURL(t, url), noLimits)
		_, tsB := accountServerOn(t, openPostgresURL(t, url), noLimits)
		run(t, sA, tsA, tsB)
	})
}
