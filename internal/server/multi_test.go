package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"oanquan/internal/api"
	"oanquan/internal/store"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/postgres"
	"oanquan/internal/store/sqlite"
	"oanquan/internal/wire"
)

// postgresPair opens two stores on one new PostgreSQL database, as two
// servers would.
func postgresPair(t testing.TB) (Store, Store) {
	t.Helper()
	url := pgtest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	var out [2]Store
	for i := range out {
		st, err := postgres.Open(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		out[i] = st
	}
	return out[0], out[1]
}

// serverPair starts two servers, "a" and "b", sharing one new PostgreSQL
// database, each behind a test HTTP server; all are closed when the test
// ends.
func serverPair(t testing.TB) (a, b *Server, ta, tb *httptest.Server) {
	t.Helper()
	sa, sb := postgresPair(t)
	a = newServer(t, Config{Store: sa, ID: "a"})
	b = newServer(t, Config{Store: sb, ID: "b"})
	ta, tb = httptest.NewServer(a), httptest.NewServer(b)
	t.Cleanup(ta.Close)
	t.Cleanup(tb.Close)
	return a, b, ta, tb
}

// TestTwoServersOnePostgres: two servers share a PostgreSQL database. A
// two-player game made on one is played on both, each move through the
// other server than the one before; the WebSocket on each server sees
// every move, those made through the other server included, soon after
// it is answered.
func TestTwoServersOnePostgres(t *testing.T) {
	a, b, ta, tb := serverPair(t)

	g := create(t, a, map[string]any{"mode": "local"})
	wa, wb := dial(t, ta, g.ID), dial(t, tb, g.ID)
	wa.want("state")
	wb.want("state")
	servers := []http.Handler{a, b}
	var worst time.Duration
	for i := 0; i < 12; i++ {
		st := get(t, servers[i%2], g.ID)
		if st.Over {
			break
		}
		if len(st.Moves) != i {
			t.Fatalf("server %d shows %d moves, want %d", i%2, len(st.Moves), i)
		}
		start := time.Now()
		turn := must[wire.Turn](t, do(t, servers[i%2], "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": st.Legal[0], "ply": st.Ply}), 200)
		for _, w := range []*wsClient{wa, wb} {
			m := w.want("turn")
			if m.Turn.Move != turn.Move || m.Turn.Ply != turn.Ply || len(m.Turn.Events) == 0 {
				t.Fatalf("WebSocket turn %+v, want %s at ply %d with its events", m.Turn, turn.Move, turn.Ply)
			}
		}
		worst = max(worst, time.Since(start))
	}
	t.Logf("slowest move, from the request to both WebSockets: %v", worst)
	if sa, sb := get(t, a, g.ID), get(t, b, g.ID); !slices.Equal(sa.Moves, sb.Moves) {
		t.Errorf("the servers disagree: %v and %v", sa.Moves, sb.Moves)
	}

	// A move sent again through the other server, as a page does when
	// the answer was lost, is answered with its turn and played once;
	// another move for that ply is a conflict, answered with the state.
	st := get(t, a, g.ID)
	if !st.Over && len(st.Legal) > 1 {
		first := must[wire.Turn](t, do(t, a, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": st.Legal[0], "ply": st.Ply}), 200)
		again := must[wire.Turn](t, do(t, b, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": st.Legal[0], "ply": st.Ply}), 200)
		if again.Move != first.Move || again.Ply != first.Ply || len(again.State.Moves) != len(first.State.Moves) {
			t.Errorf("the move sent again: %+v, want the turn %+v once", again, first)
		}
		r := do(t, b, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": st.Legal[1], "ply": st.Ply})
		wantError(t, r, 409, "conflict")
		if e := decodeAs[api.ErrorBody](t, r); e.State == nil || len(e.State.Moves) != len(first.State.Moves) {
			t.Errorf("the conflict's state: %+v, want the game as it stands", e.State)
		}
	}
}

// TestTwoServersOneComputer: in a game against the computer shared by two
// servers, the computer moves once for each human move, whichever server
// the human plays through.
func TestTwoServersOneComputer(t *testing.T) {
	sa, sb := postgresPair(t)
	a := newServer(t, Config{Store: sa, ID: "a"})
	b := newServer(t, Config{Store: sb, ID: "b"})
	tb := httptest.NewServer(b)
	defer tb.Close()
	g := create(t, a, nil)
	wb := dial(t, tb, g.ID)
	wb.want("state")
	servers := []http.Handler{a, b}
	for i := range 4 {
		st := get(t, servers[i%2], g.ID)
		if st.Over || st.ToMove != 0 {
			break
		}
		must[wire.Turn](t, do(t, servers[i%2], "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": st.Legal[0], "ply": st.Ply}), 200)
		// The human's turn, then the computer's, on the WebSocket of b.
		for want := range 2 {
			m := wb.next()
			for m.Type == "thinking" || m.Type == "state" {
				m = wb.next()
			}
			if m.Type != "turn" || (m.Turn.By == "computer") != (want == 1) {
				t.Fatalf("move %d: message %+v, want the %s's turn", i, m, []string{"human", "computer"}[want])
			}
		}
	}
	saved, err := sa.Get(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Moves alternate human, computer: twice the human's moves at most.
	if n := len(saved.Moves); n%2 != 0 || saved.Waiting {
		t.Errorf("saved %d moves, waiting %v; want the computer to have answered each move once", n, saved.Waiting)
	}
}

// TestServerOnSQLite: the server's whole life on a SQLite file: games
// made, played and undone, the server closed, another opened on the file
// finds them as they were.
func TestServerOnSQLite(t *testing.T) {
	path := t.TempDir() + "/games.db"
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, Config{Store: st})
	var want []wire.Game
	for _, mode := range []string{"local", "ai"} {
		g := create(t, s, map[string]any{"mode": mode})
		for range 3 {
			cur := get(t, s, g.ID)
			if cur.Over {
				break
			}
			for cur.Thinking || len(cur.Legal) == 0 {
				time.Sleep(time.Millisecond)
				cur = get(t, s, g.ID)
			}
			must[wire.Turn](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": cur.Legal[len(cur.Legal)-1]}), 200)
		}
		must[wire.Game](t, do(t, s, "POST", "/api/games/"+g.ID+"/undo", nil), 200)
		cur := get(t, s, g.ID)
		for cur.Thinking {
			time.Sleep(time.Millisecond)
			cur = get(t, s, g.ID)
		}
		want = append(want, cur)
	}
	s.Close()
	st.Close()

	st2, err := sqlite.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	s2 := newServer(t, Config{Store: st2})
	for _, g := range want {
		unchanged(t, s2, g)
	}
}

// TestTwoServersOnline: the two players of an online game are connected
// to different servers sharing one PostgreSQL database; each plays
// through their own, sees the other's moves and offers live, and a draw
// offered on one is accepted on the other.
func TestTwoServersOnline(t *testing.T) {
	a, b, ta, tb := serverPair(t)
	c := must[api.Created](t, do(t, a, "POST", "/api/games", `{"mode":"online"}`), 201)
	pa := player{c.Secret, c.Seat}
	j := must[api.Joined](t, player{}.act(t, b, "POST", "/api/games/"+c.ID+"/join", ""), 200)
	pb := player{j.Secret, j.Seat}
	wa, wb := dial(t, ta, c.ID), dial(t, tb, c.ID)
	next := func(w *wsClient, typ string) wire.Message {
		t.Helper()
		for {
			if m := w.next(); m.Type == typ {
				return m
			}
		}
	}
	servers := map[int]http.Handler{pa.seat: a, pb.seat: b}
	players := map[int]player{pa.seat: pa, pb.seat: pb}
	var worst time.Duration
	for i := range 6 {
		st := get(t, a, c.ID)
		if st.Over {
			break
		}
		p := players[st.ToMove]
		start := time.Now()
		must[wire.Turn](t, p.act(t, servers[st.ToMove], "POST", "/api/games/"+c.ID+"/moves", `{"move":"`+st.Legal[0]+`"}`), 200)
		for _, w := range []*wsClient{wa, wb} {
			if m := next(w, "turn"); m.Turn.Ply != st.Ply {
				t.Fatalf("move %d: turn at ply %d, want %d", i, m.Turn.Ply, st.Ply)
			}
		}
		worst = max(worst, time.Since(start))
	}
	t.Logf("slowest move, from the request to both players' WebSockets: %v", worst)
	must[wire.Game](t, pa.act(t, a, "POST", "/api/games/"+c.ID+"/draw", `{"action":"offer"}`), 200)
	if m := next(wb, "state"); m.State.Offer == nil || m.State.Offer.Kind != "draw" {
		t.Fatalf("the other server's player saw %+v, want the draw offer", m.State)
	}
	g := must[wire.Game](t, pb.act(t, b, "POST", "/api/games/"+c.ID+"/draw", `{"action":"accept"}`), 200)
	if !g.Over || g.End != "draw" {
		t.Fatalf("after accepting on the other server: over %v, end %q", g.Over, g.End)
	}
	next(wa, "state") // the offer, as its own server published it
	if m := next(wa, "state"); !m.State.Over || m.State.End != "draw" {
		t.Errorf("the offering player saw %+v, want the game drawn", m.State)
	}
}

// awaitPresence reads w's messages until its presence is want (in a
// presence message, or the state of one), and returns how long that took.
// A turn on the way fails the test: presence must not wait for a move.
func awaitPresence(t testing.TB, w *wsClient, want wire.Presence) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		m := w.next()
		switch {
		case m.Type == "turn":
			t.Fatalf("a turn came before the presence %+v", want)
		case m.Type == "presence" && *m.Presence == want,
			m.Type == "state" && m.State.Presence != nil && *m.State.Presence == want:
			return time.Since(start)
		}
	}
}

// hello says on w which seat it plays, as a player's page does.
func hello(t testing.TB, w *wsClient, p player) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, []byte(`{"type":"hello","secret":"`+p.secret+`"}`)); err != nil {
		t.Fatal(err)
	}
}

// TestTwoServersPresence: the players of an online game and its
// watchers are connected to two servers sharing one PostgreSQL database.
// Each socket sees both players and all watchers; the friend's join on
// one server shows on the other without a move; posts lost are made
// again; a player who leaves, a server that dies and a server that stops
// stop counting.
func TestTwoServersPresence(t *testing.T) {
	ttl := presenceTTL
	t.Cleanup(func() { presenceTTL = ttl }) // after the servers' Close
	presenceTTL = 600 * time.Millisecond    // renewals every 200 ms
	a, b, ta, tb := serverPair(t)
	c := must[api.Created](t, do(t, a, "POST", "/api/games", `{"mode":"online"}`), 201)
	pa := player{c.Secret, c.Seat}
	var only, both [2]bool
	only[pa.seat], both = true, [2]bool{true, true}

	wa, watchA := dial(t, ta, c.ID), dial(t, ta, c.ID)
	hello(t, wa, pa)
	awaitPresence(t, wa, wire.Presence{Seats: only, Watchers: 1, Taken: only})
	watchB := dial(t, tb, c.ID) // the game is live on b too
	awaitPresence(t, watchB, wire.Presence{Seats: only, Watchers: 2, Taken: only})
	awaitPresence(t, wa, wire.Presence{Seats: only, Watchers: 2, Taken: only})

	// The friend joins through b: a's sockets learn that the seat is
	// taken, with no move.
	j := must[api.Joined](t, player{}.act(t, b, "POST", "/api/games/"+c.ID+"/join", ""), 200)
	pb := player{j.Secret, j.Seat}
	awaitPresence(t, wa, wire.Presence{Seats: only, Watchers: 2, Taken: both})
	awaitPresence(t, watchA, wire.Presence{Seats: only, Watchers: 2, Taken: both})

	wb := dial(t, tb, c.ID)
	hello(t, wb, pb)
	all := wire.Presence{Seats: both, Watchers: 2, Taken: both}
	for _, w := range []*wsClient{wa, wb, watchA, watchB} {
		awaitPresence(t, w, all)
	}

	// a's posts are lost (as when PostgreSQL restarts): b sees a's
	// player and watcher gone, then a's next renewal, finding fewer posts
	// than it made, posts them again. (Taken down through a's store, so
	// that b hears of it.)
	if err := a.store.(store.PresenceBoard).DropPresence(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	var onlyB [2]bool
	onlyB[pb.seat] = true
	awaitPresence(t, wb, wire.Presence{Seats: onlyB, Watchers: 1, Taken: both})
	awaitPresence(t, wb, all)

	// A server that dies leaves its post, which runs out: it stops
	// counting at the next renewal. (Its post is made through b's store,
	// so that a hears of it.)
	board := b.store.(store.PresenceBoard)
	ghost := store.Presence{Seats: [2]bool{true, true}, Watchers: 3}
	if err := board.PostPresence(context.Background(), c.ID, "ghost", ghost, 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	awaitPresence(t, wa, wire.Presence{Seats: both, Watchers: 5, Taken: both})
	if d := awaitPresence(t, wa, all); d > 2*time.Second {
		t.Errorf("the dead server's post counted for %v after it was seen, want about 300 ms and a renewal", d)
	}

	// The player on b's connection drops (no close frame): the player on
	// a is told it dropped, then that the player is back.
	wb.c.CloseNow()
	droppedB := wire.Presence{Seats: only, Watchers: 2, Taken: both}
	droppedB.Dropped[pb.seat] = true
	awaitPresence(t, wa, droppedB)
	wb = dial(t, tb, c.ID)
	hello(t, wb, pb)
	awaitPresence(t, wa, all)

	// The player on b leaves: the player on a sees it at once.
	start := time.Now()
	wb.c.Close(websocket.StatusNormalClosure, "")
	awaitPresence(t, wa, wire.Presence{Seats: only, Watchers: 2, Taken: both})
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the other server's player left; seen after %v, want within 2 s", d)
	} else {
		t.Logf("a player's socket closed on b, seen on a after %v", d)
	}

	// b stops: its watcher no longer counts, at once (not when b's post
	// would have run out).
	go func() { // b's watcher answers the close handshake
		for {
			if _, _, err := watchB.c.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	b.Close()
	if p, err := board.Presence(context.Background(), c.ID, "a"); p != (store.Presence{}) || err != nil {
		t.Errorf("after b stopped, the others' presence is %+v, %v; want nobody", p, err)
	}
	awaitPresence(t, wa, wire.Presence{Seats: only, Watchers: 1, Taken: both})
}

// BenchmarkTwoServers measures two servers on one PostgreSQL database
// and reports medians, in milliseconds: move-req-ms and move-ans-ms,
// from a move's request on one server (its answer) to its turn read from
// a WebSocket of the other; leave-ms, from a player's WebSocket closing
// on one server to the other player's socket, on the other server,
// showing that seat empty.
//
//	CI=true go test ./internal/server/ -run '^$' -bench TwoServers -benchtime 40x -count 5
func BenchmarkTwoServers(b *testing.B) {
	s1, s2, t1, t2 := serverPair(b)
	b.Run("move", func(b *testing.B) {
		var req, ans []time.Duration
		var g wire.Game
		var w *wsClient
		for b.Loop() {
			if g.ID == "" || g.Over {
				g = create(b, s1, map[string]any{"mode": "local"})
				w = dial(b, t2, g.ID)
				w.want("state")
			}
			start := time.Now()
			turn := must[wire.Turn](b, do(b, s1, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": g.Legal[0], "ply": g.Ply}), 200)
			answered := time.Now()
			for m := w.next(); m.Type != "turn" || m.Turn.Ply != turn.Ply; m = w.next() {
			}
			req, ans = append(req, time.Since(start)), append(ans, time.Since(answered))
			g = turn.State
		}
		b.ReportMetric(0, "ns/op")
		b.ReportMetric(medianMS(req), "move-req-ms")
		b.ReportMetric(medianMS(ans), "move-ans-ms")
	})
	b.Run("leave", func(b *testing.B) {
		c := must[api.Created](b, do(b, s1, "POST", "/api/games", `{"mode":"online"}`), 201)
		pa := player{c.Secret, c.Seat}
		j := must[api.Joined](b, player{}.act(b, s2, "POST", "/api/games/"+c.ID+"/join", ""), 200)
		pb := player{j.Secret, j.Seat}
		var only [2]bool
		only[pa.seat] = true
		both := [2]bool{true, true}
		wa := dial(b, t1, c.ID)
		hello(b, wa, pa)
		var leave []time.Duration
		for b.Loop() {
			wb := dial(b, t2, c.ID)
			hello(b, wb, pb)
			awaitPresence(b, wa, wire.Presence{Seats: both, Taken: both})
			start := time.Now()
			wb.c.Close(websocket.StatusNormalClosure, "")
			awaitPresence(b, wa, wire.Presence{Seats: only, Taken: both})
			leave = append(leave, time.Since(start))
		}
		b.ReportMetric(0, "ns/op")
		b.ReportMetric(medianMS(leave), "leave-ms")
	})
}

// medianMS returns the median of ds in milliseconds.
func medianMS(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return float64(ds[len(ds)/2]) / float64(time.Millisecond)
}

// TestLateResignTwoServers: a casual online game ends by its last move
// played through one server; a resignation sent through another server,
// whose game is as it was before that move, is refused (409, and that
// server catches up) rather than saved: the game would say it was
// resigned while its moves say how it ended. Two servers sharing one
// PostgreSQL database, the second deaf to the first's notices of
// changes (as when they come late): it knows only what it reads.
func TestLateResignTwoServers(t *testing.T) {
	sa, sb := postgresPair(t)
	a := newServer(t, Config{Store: sa, ID: "a"})
	b := newServer(t, Config{Store: struct{ Store }{sb}, ID: "b"}) // no store.Notifier
	c := must[api.Created](t, do(t, a, "POST", "/api/games", `{"mode":"online"}`), 201)
	pa := player{c.Secret, c.Seat}
	j := must[api.Joined](t, player{}.act(t, b, "POST", "/api/games/"+c.ID+"/join", ""), 200)
	pb := player{j.Secret, j.Seat}
	players := map[int]player{pa.seat: pa, pb.seat: pb}
	st := get(t, a, c.ID)
	for !st.Over {
		st = must[wire.Turn](t, players[st.ToMove].act(t, a, "POST", "/api/games/"+c.ID+"/moves", `{"move":"`+st.Legal[0]+`"}`), 200).State
	}
	r := pb.act(t, b, "POST", "/api/games/"+c.ID+"/resign", "")
	if r.status != http.StatusConflict {
		t.Errorf("a resignation after the game's last move: %s, want 409", r)
	}
	saved, err := a.store.Get(context.Background(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(saved.Status, "resign") {
		t.Errorf("saved status %q after the game ended by its moves", saved.Status)
	}
	got := get(t, a, c.ID)
	if !got.Over || got.End != st.End {
		t.Errorf("the game through the first server: over %v, end %q; want %q", got.Over, got.End, st.End)
	}
}
