package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"oanquan/internal/api"
	"oanquan/internal/lobby"
	"oanquan/internal/store"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/wire"
)

// lobbyClient is one lobby WebSocket over loopback.
type lobbyClient struct {
	t *testing.T
	c *websocket.Conn
}

// lobbyMsg is any message of the lobby's socket.
type lobbyMsg struct {
	Type    string         `json:"type"`
	Seeks   []api.SeekView `json:"seeks"`
	Seek    string         `json:"seek"`
	Game    string         `json:"game"`
	Seat    int            `json:"seat"`
	Secret  string         `json:"secret"`
	Message string         `json:"message"`
}

// dialLobby opens the lobby's socket as browser b.
func dialLobby(t *testing.T, b *browser) *lobbyClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(b.base, "http")+"/api/lobby/ws", &websocket.DialOptions{HTTPClient: b.c})
	if err != nil {
		t.Fatalf("dialling the lobby: %v", err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return &lobbyClient{t, c}
}

// until reads messages until one satisfies ok, and returns it; it fails
// the test after guard.
func (l *lobbyClient) until(what string, ok func(lobbyMsg) bool) lobbyMsg {
	l.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	for {
		_, data, err := l.c.Read(ctx)
		if err != nil {
			l.t.Fatalf("waiting for %s: %v", what, err)
		}
		var m lobbyMsg
		if err := json.Unmarshal(data, &m); err != nil {
			l.t.Fatalf("decoding %s: %v", data, err)
		}
		if ok(m) {
			return m
		}
	}
}

// hold has the socket hold seek k.
func (l *lobbyClient) hold(k api.SeekPosted) {
	l.t.Helper()
	msg, _ := json.Marshal(map[string]string{"type": "hold", "seek": k.ID, "secret": k.Secret})
	if err := l.c.Write(context.Background(), websocket.MessageText, msg); err != nil {
		l.t.Fatal(err)
	}
	l.until("held", func(m lobbyMsg) bool { return m.Type == "held" && m.Seek == k.ID })
}

// lists waits for a list that has seek id (or, if !has, lacks it).
func (l *lobbyClient) lists(id string, has bool) {
	l.t.Helper()
	l.until("the list", func(m lobbyMsg) bool { return m.Type == "seeks" && listed(m.Seeks, id) == has })
}

// TestLobbyPaired: the poster's lobby socket holds its seek and is told
// "paired" with the game, its seat and its secret when another accepts;
// the other's socket lists the seek, then no longer; both play the game
// to its end with their secrets. On a SQLite file, over loopback.
func TestLobbyPaired(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	la, lb := dialLobby(t, a), dialLobby(t, b)
	k := a.post(`{"clock":{"initial":300,"increment":0}}`)
	la.hold(k)
	lb.lists(k.ID, true)
	j := must[api.Joined](t, b.call("POST", "/api/seeks/"+k.ID+"/accept", ""), 200)
	p := la.until("paired", func(m lobbyMsg) bool { return m.Type == "paired" })
	if p.Seek != k.ID || p.Game != j.Game.ID || p.Seat != 1-j.Seat || p.Secret != k.Secret {
		t.Fatalf("paired %+v, want seek %s, game %s, seat %d and the seek's secret", p, k.ID, j.Game.ID, 1-j.Seat)
	}
	lb.lists(k.ID, false)
	var ps [2]player
	ps[p.Seat] = player{p.Secret, p.Seat}
	ps[j.Seat] = player{j.Secret, j.Seat}
	if st := playOut(t, a, j.Game.ID, ps); !st.Over {
		t.Errorf("not over: %+v", st)
	}
}

// TestLobbyPosterLeaves: when the poster's socket closes, its seek is
// withdrawn after the grace, and the others' sockets and GET /api/seeks
// no longer list it; a socket that holds it again within the grace (a
// reload) keeps it.
func TestLobbyPosterLeaves(t *testing.T) {
	s, ts := accountServer(t, noLimits)
	s.lobby.SetGrace(300 * time.Millisecond)
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	k := a.post(`{"clock":{"initial":300,"increment":0}}`)

	// A reload: closed, and held again within the grace.
	la := dialLobby(t, a)
	la.hold(k)
	la.c.Close(websocket.StatusNormalClosure, "")
	waitSockets(t, s, 0) // the server has seen it go
	la = dialLobby(t, a)
	la.hold(k)
	time.Sleep(3 * s.lobby.Grace())
	if !listed(b.seeks(), k.ID) {
		t.Fatal("a seek held again within the grace was withdrawn")
	}

	lb := dialLobby(t, b)
	lb.lists(k.ID, true)
	la.c.Close(websocket.StatusNormalClosure, "")
	lb.lists(k.ID, false)
	if listed(b.seeks(), k.ID) {
		t.Error("a seek whose poster left is still listed")
	}
	wantError(t, b.call("POST", "/api/seeks/"+k.ID+"/accept", ""), 404, "not_found")
}

// TestLobbyHoldRefused: a socket cannot hold a seek without its secret.
func TestLobbyHoldRefused(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	k := a.post(`{"clock":{"initial":300,"increment":0}}`)
	lb := dialLobby(t, b)
	msg, _ := json.Marshal(map[string]string{"type": "hold", "seek": k.ID, "secret": "not-the-secret"})
	if err := lb.c.Write(context.Background(), websocket.MessageText, msg); err != nil {
		t.Fatal(err)
	}
	m := lb.until("an answer", func(m lobbyMsg) bool { return m.Type == "held" || m.Type == "error" })
	if m.Type != "error" {
		t.Fatalf("holding with a wrong secret: %+v", m)
	}
}

// TestLobbyTwoServers: two servers on one PostgreSQL share the lobby: a
// seek posted and held on A is listed on B (by GET and by B's socket,
// through the store's notices), accepted on B, and A's poster socket is
// told "paired"; A's poster then plays through A.
func TestLobbyTwoServers(t *testing.T) {
	url := pgtest.Start(t)
	_, tsA := accountServerOn(t, openPostgresURL(t, url), noLimits)
	_, tsB := accountServerOn(t, openPostgresURL(t, url), noLimits)
	a, b := newBrowser(t, tsA), newBrowser(t, tsB)
	la, lb := dialLobby(t, a), dialLobby(t, b)
	lb.until("the first list", func(m lobbyMsg) bool { return m.Type == "seeks" })
	k := a.post(`{"clock":{"initial":300,"increment":0}}`)
	la.hold(k)
	lb.lists(k.ID, true)
	if !listed(b.seeks(), k.ID) {
		t.Fatal("B's GET /api/seeks does not list A's seek")
	}
	j := must[api.Joined](t, b.call("POST", "/api/seeks/"+k.ID+"/accept", ""), 200)
	p := la.until("paired", func(m lobbyMsg) bool { return m.Type == "paired" })
	if p.Game != j.Game.ID || p.Seat != 1-j.Seat || p.Secret != k.Secret {
		t.Fatalf("paired on A: %+v, want game %s, seat %d", p, j.Game.ID, 1-j.Seat)
	}
	st := must[wire.Game](t, a.call("GET", "/api/games/"+p.Game, nil), 200)
	mover := player{j.Secret, j.Seat}
	who := b
	if st.ToMove == p.Seat {
		mover, who = player{p.Secret, p.Seat}, a
	}
	must[wire.Turn](t, who.act(mover, "POST", "/api/games/"+p.Game+"/moves", `{"move":"`+st.Legal[0]+`"}`), 200)
}

// waitSockets waits until s has n lobby sockets.
func waitSockets(t testing.TB, s *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		got := s.lobby.Sockets()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d lobby sockets, want %d", got, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestLobbyHoldMovesServer: two servers on one PostgreSQL; a poster's
// page holding its seek on A reconnects to B within the grace (a reload
// sent elsewhere by the balancer): A does not withdraw the seek, which
// stays listed on both for many graces while B holds it; once B's socket
// closes too, the seek goes after the grace, from both lobbies.
func TestLobbyHoldMovesServer(t *testing.T) {
	url := pgtest.Start(t)
	sA, tsA := accountServerOn(t, openPostgresURL(t, url), noLimits)
	sB, tsB := accountServerOn(t, openPostgresURL(t, url), noLimits)
	grace := 400 * time.Millisecond
	sA.lobby.SetGrace(grace)
	sB.lobby.SetGrace(grace)
	a, a2, b := newBrowser(t, tsA), newBrowser(t, tsB), newBrowser(t, tsB)
	k := a.post(`{"clock":{"initial":300,"increment":0}}`)
	la := dialLobby(t, a)
	la.hold(k)
	la.c.Close(websocket.StatusNormalClosure, "")
	waitSockets(t, sA, 0)
	la2 := dialLobby(t, a2)
	la2.hold(k)
	time.Sleep(4 * grace)
	if !listed(b.seeks(), k.ID) || !listed(newBrowser(t, tsA).seeks(), k.ID) {
		t.Fatal("a seek held on B within the grace was withdrawn after its socket on A closed")
	}
	lb := dialLobby(t, b)
	lb.lists(k.ID, true)
	la2.c.Close(websocket.StatusNormalClosure, "")
	lb.lists(k.ID, false)
	if listed(newBrowser(t, tsA).seeks(), k.ID) {
		t.Error("A still lists a seek no server holds")
	}
}

// TestLobbyHolderStops: a server shutting down leaves the seeks its
// sockets held; their holds lapse, and the other server's sweep deletes
// them within a few graces, while a seek that was never held stays (to
// its expiry).
func TestLobbyHolderStops(t *testing.T) {
	url := pgtest.Start(t)
	sA, tsA := accountServerOn(t, openPostgresURL(t, url), noLimits)
	sB, tsB := accountServerOn(t, openPostgresURL(t, url), noLimits)
	grace := 300 * time.Millisecond
	sA.lobby.SetGrace(grace)
	sB.lobby.SetGrace(grace)
	a, b := newBrowser(t, tsA), newBrowser(t, tsB)
	held := a.post(`{"clock":{"initial":300,"increment":0}}`)
	never := a.post(`{"clock":{"initial":600,"increment":0}}`)
	la := dialLobby(t, a)
	la.hold(held)
	lb := dialLobby(t, b)
	lb.lists(held.ID, true)
	sA.Close()
	lb.lists(held.ID, false)
	time.Sleep(3 * grace)
	if l := b.seeks(); listed(l, held.ID) || !listed(l, never.ID) {
		t.Errorf("after A stopped, B lists held %v (want no), never held %v (want yes)", listed(l, held.ID), listed(l, never.ID))
	}
}

// TestLobbyHoldGuesses: a lobby socket's holds that name no seek of the
// sender's (a wrong id or secret) count against its address's allowance
// of requests naming what does not exist (Limits.Unknown), as GET
// /api/seeks/{id} does: each costs the store a read, and a socket could
// send them without end. Past it, even a right hold is refused, saying
// to wait, until the allowance fills again.
func TestLobbyHoldGuesses(t *testing.T) {
	lim := noLimits
	lim.Unknown = Rate{PerMinute: 1e-6, Burst: 3}
	_, ts := accountServer(t, lim)
	b := newBrowser(t, ts)
	k := b.post(`{"clock":{"initial":300,"increment":0}}`)
	lb := dialLobby(t, b)
	send := func(id, secret string) lobbyMsg {
		t.Helper()
		msg, _ := json.Marshal(map[string]string{"type": "hold", "seek": id, "secret": secret})
		if err := lb.c.Write(context.Background(), websocket.MessageText, msg); err != nil {
			t.Fatal(err)
		}
		return lb.until("an answer", func(m lobbyMsg) bool { return m.Type == "held" || m.Type == "error" })
	}
	for _, guess := range [][2]string{{"aaaaaaaaaaaaaaaaaaaa", k.Secret}, {k.ID, "not-the-secret"}, {"nonsense", ""}} {
		if m := send(guess[0], guess[1]); m.Type != "error" {
			t.Fatalf("hold %q: %+v, want an error", guess, m)
		}
	}
	m := send(k.ID, k.Secret)
	if m.Type != "error" || !strings.Contains(m.Message, "try again") {
		t.Errorf("the right hold past the allowance: %+v, want an error saying to wait", m)
	}
	wantError(t, b.call("GET", "/api/seeks/"+k.ID, nil), 429, "rate_limited")
}

// TestLobbyPairedWaitsForGame: two servers on one PostgreSQL. A seek
// held on A is accepted through B, whose store tells A at once, before
// B has made the game: A's poster socket must not be told "paired"
// then (its page would ask A for a game that does not exist yet), but
// once B has made the game and said so. Nor may GET /api/seeks/{id}
// tell the poster of the game before.
func TestLobbyPairedWaitsForGame(t *testing.T) {
	url := pgtest.Start(t)
	_, tsA := accountServerOn(t, openPostgresURL(t, url), noLimits)
	sB, _ := accountServerOn(t, openPostgresURL(t, url), noLimits)
	a := newBrowser(t, tsA)
	la := dialLobby(t, a)
	k := a.post(`{"clock":{"initial":300,"increment":0}}`)
	la.hold(k)
	msgs := make(chan lobbyMsg, 64)
	go func() {
		defer close(msgs)
		for {
			_, data, err := la.c.Read(context.Background())
			if err != nil {
				return
			}
			var m lobbyMsg
			if json.Unmarshal(data, &m) == nil {
				msgs <- m
			}
		}
	}()
	// B accepts: the seek's row says the game, which B has not made yet.
	ctx := context.Background()
	gameID, now := newID(), time.Now()
	if err := sB.store.(store.Seeks).AcceptSeek(ctx, k.ID, gameID, 0, "", now, now.Add(lobby.SeekKeep)); err != nil {
		t.Fatal(err)
	}
	// Nor does the seek tell its poster of the game yet.
	if v := must[api.SeekView](t, a.call("GET", "/api/seeks/"+k.ID, nil, "Authorization", "Bearer "+k.Secret), 200); v.Game != "" {
		t.Fatalf("GET /api/seeks/%s tells the poster of game %s, not made yet", k.ID, v.Game)
	}
	quiet := time.After(700 * time.Millisecond) // A has heard of it, and refreshed, by then
	for waiting := true; waiting; {
		select {
		case m := <-msgs:
			if m.Type == "paired" {
				r := a.call("GET", "/api/games/"+m.Game, nil)
				t.Fatalf("told paired before the game was made: GET /api/games/%s is %d", m.Game, r.status)
			}
		case <-quiet:
			waiting = false
		}
	}
	// B makes the game, as AcceptSeek does, and says so.
	cfg, err := api.Settings{Mode: "online", Clock: &api.ClockSetting{Initial: 300}}.Config()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Seed, cfg.Created = newSeed(), now
	if _, err := sB.newMatch(ctx, gameID, cfg, [2][]byte{hashSecret(k.Secret), hashSecret(newSecret())}, [2]string{}); err != nil {
		t.Fatal(err)
	}
	sB.lobby.GameMade(ctx, gameID, lobby.SeekSeat{Seek: k.ID, Seat: 0})
	deadline := time.After(guard)
	for {
		select {
		case m, ok := <-msgs:
			if !ok {
				t.Fatal("the socket closed")
			}
			if m.Type != "paired" {
				continue
			}
			if m.Game != gameID || m.Seat != 0 || m.Secret != k.Secret {
				t.Fatalf("paired %+v, want game %s, seat 0", m, gameID)
			}
			must[wire.Game](t, a.call("GET", "/api/games/"+m.Game, nil), 200)
			if v := must[api.SeekView](t, a.call("GET", "/api/seeks/"+k.ID, nil, "Authorization", "Bearer "+k.Secret), 200); v.Game != gameID {
				t.Errorf("GET /api/seeks/%s once the game is made: game %q, want %s", k.ID, v.Game, gameID)
			}
			return
		case <-deadline:
			t.Fatal("never told paired once the game was made")
		}
	}
}

// closeCode reads l until its socket closes, and returns the close's
// status; it fails the test after guard.
func (l *lobbyClient) closeCode() websocket.StatusCode {
	l.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	for {
		if _, _, err := l.c.Read(ctx); err != nil {
			if ctx.Err() != nil {
				l.t.Fatal("the lobby socket stayed open")
			}
			return websocket.CloseStatus(err)
		}
	}
}

// TestLobbySessionEnds: a lobby socket of a session that ends — signed
// out, signed out everywhere, the account deleted — is closed (1013: the
// page reconnects, and lists as whoever it is now), at once on the
// server that ended it; another session's socket stays. Through another
// server sharing the store (PostgreSQL), within that server's check of
// its sockets' sessions.
func TestLobbySessionEnds(t *testing.T) {
	t.Run("one server", func(t *testing.T) {
		_, ts := accountServer(t, noLimits)
		a, a2, other := newBrowser(t, ts), newBrowser(t, ts), newBrowser(t, ts)
		a.signUp("Nam", "gà trống gáy sáng")
		must[api.Player](t, a2.call("POST", "/api/session", creds("Nam", "gà trống gáy sáng")), 200)
		la, la2 := dialLobby(t, a), dialLobby(t, a2)
		la.until("the first list", func(m lobbyMsg) bool { return m.Type == "seeks" })
		la2.until("the first list", func(m lobbyMsg) bool { return m.Type == "seeks" })
		if r := a.call("DELETE", "/api/session", nil); r.status != 204 {
			t.Fatalf("sign out: %s", r)
		}
		if code := la.closeCode(); code != websocket.StatusTryAgainLater {
			t.Errorf("the signed-out session's socket closed with %d, want 1013", code)
		}
		k := other.post(`{"clock":{"initial":300,"increment":0}}`)
		la2.lists(k.ID, true) // the other session's socket is still there
		if r := a2.call("DELETE", "/api/sessions", nil); r.status != 204 {
			t.Fatalf("sign out everywhere: %s", r)
		}
		if code := la2.closeCode(); code != websocket.StatusTryAgainLater {
			t.Errorf("after signing out everywhere, the socket closed with %d, want 1013", code)
		}
		b := newBrowser(t, ts)
		b.signUp("Lan", "trâu ăn cỏ non")
		lb := dialLobby(t, b)
		lb.until("the first list", func(m lobbyMsg) bool { return m.Type == "seeks" })
		if r := b.call("DELETE", "/api/me", map[string]string{"password": "trâu ăn cỏ non"}); r.status != 204 {
			t.Fatalf("delete: %s", r)
		}
		if code := lb.closeCode(); code != websocket.StatusTryAgainLater {
			t.Errorf("after the deletion, the socket closed with %d, want 1013", code)
		}
	})
	t.Run("two servers", func(t *testing.T) {
		url := pgtest.Start(t)
		_, tsA := accountServerOn(t, openPostgresURL(t, url), noLimits)
		sB := newServer(t, Config{Store: openPostgresURL(t, url), Limits: noLimits, Accounts: Accounts{Hashing: fastHashing}})
		sB.lobby.SetSessionCheck(50 * time.Millisecond)
		tsB := newTestServer(t, sB)
		a := newBrowser(t, tsA)
		a.signUp("Nam", "gà trống gáy sáng")
		a.base = tsB.URL // the same cookies (a cookie is the host's, whatever the port)
		lb := dialLobby(t, a)
		lb.until("the first list", func(m lobbyMsg) bool { return m.Type == "seeks" })
		a.base = tsA.URL
		if r := a.call("DELETE", "/api/session", nil); r.status != 204 {
			t.Fatalf("sign out: %s", r)
		}
		if code := lb.closeCode(); code != websocket.StatusTryAgainLater {
			t.Errorf("the other server's socket closed with %d, want 1013", code)
		}
	})
}
