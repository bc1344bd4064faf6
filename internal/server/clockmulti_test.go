package server

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/match"
	"oanquan/internal/store"
	"oanquan/internal/store/memory"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/sqlite"
	"oanquan/internal/wire"
)

// Issue 36: a clocked game made on one server and joined or moved on
// another was saved without its clock (the second server had loaded it
// as a game with none), and then no server could read it.

// clockedHosts plays a clocked online game through servers that change
// under it: open returns the servers to use now (restarting some), and
// each move goes through servers[ply%len]. It checks after every move
// that every server reads the game, with its clock, and that the store
// holds a clock for every move.
type clockedHosts struct {
	t       *testing.T
	id      string
	players map[int]player
	get     func() Store // the store, to read what was saved
}

// play plays n moves, move i through hosts[i%len(hosts)], and checks the
// game on every host after each.
func (c *clockedHosts) play(n int, hosts ...http.Handler) {
	t := c.t
	t.Helper()
	for i := range n {
		h := hosts[i%len(hosts)]
		st := mustClocked(t, h, c.id)
		if st.Over {
			return
		}
		p := c.players[st.ToMove]
		turn := must[wire.Turn](t, p.act(t, h, "POST", "/api/games/"+c.id+"/moves", fmt.Sprintf(`{"move":%q,"ply":%d}`, st.Legal[0], st.Ply)), 200)
		if turn.State.Clock == nil {
			t.Fatalf("move %d through server %d answered a game without its clock", st.Ply, i%len(hosts))
		}
		c.saved(st.Ply + 1)
		for j, other := range hosts {
			c.await(other, j, st.Ply+1)
		}
	}
}

// await waits until server j (h) shows n moves: another server learns of
// a move through the store's notice, a moment after it is answered.
func (c *clockedHosts) await(h http.Handler, j, n int) {
	t := c.t
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		got := mustClocked(t, h, c.id)
		if len(got.Moves) == n {
			return
		}
		if len(got.Moves) > n || time.Now().After(deadline) {
			t.Fatalf("server %d shows %d moves, want %d", j, len(got.Moves), n)
		}
		time.Sleep(5 * time.Millisecond) // polled: the notice is the event, and it has no hook here
	}
}

// saved checks that the store holds n moves, each with its clock.
func (c *clockedHosts) saved(n int) {
	t := c.t
	t.Helper()
	g, err := c.get().Get(context.Background(), c.id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Clock.State == "" {
		t.Fatalf("saved without its clock")
	}
	if len(g.Moves) != n || len(g.MoveClocks) != n {
		t.Fatalf("saved %d moves with %d clocks, want %d", len(g.Moves), len(g.MoveClocks), n)
	}
	for i, mc := range g.MoveClocks {
		if mc == "" {
			t.Fatalf("move %d saved without its clock (moves %v)", i, g.Moves)
		}
	}
}

// mustClocked reads game id through h: it must answer 200 with the
// game's clock.
func mustClocked(t *testing.T, h http.Handler, id string) wire.Game {
	t.Helper()
	g := must[wire.Game](t, do(t, h, "GET", "/api/games/"+id, nil), 200)
	if g.Clock == nil || g.Clock.Initial == nil || *g.Clock.Initial != 300 {
		t.Fatalf("game %s read without its clock of 5 minutes: %+v", id, g.Clock)
	}
	return g
}

// TestClockedTwoServersPostgres: a clocked game made on one server and
// joined on the other — a friend's game, and a seek of the lobby — moved
// alternately on both, then each server restarted in turn and the game
// read and played on through both.
func TestClockedTwoServersPostgres(t *testing.T) {
	friend := func(t *testing.T, a, b http.Handler) (string, map[int]player) {
		cr := must[api.Created](t, do(t, a, "POST", "/api/games", `{"mode":"online","clock":{"initial":300,"increment":0}}`), 201)
		j := must[api.Joined](t, player{}.act(t, b, "POST", "/api/games/"+cr.ID+"/join", ""), 200)
		return cr.ID, map[int]player{cr.Seat: {cr.Secret, cr.Seat}, j.Seat: {j.Secret, j.Seat}}
	}
	seek := func(t *testing.T, a, b http.Handler) (string, map[int]player) {
		k := must[api.SeekPosted](t, do(t, a, "POST", "/api/seeks", `{"clock":{"initial":300,"increment":0}}`), 201)
		j := must[api.Joined](t, player{}.act(t, b, "POST", "/api/seeks/"+k.ID+"/accept", ""), 200)
		return j.Game.ID, map[int]player{1 - j.Seat: {k.Secret, 1 - j.Seat}, j.Seat: {j.Secret, j.Seat}}
	}
	for name, made := range map[string]func(*testing.T, http.Handler, http.Handler) (string, map[int]player){"friend": friend, "seek": seek} {
		t.Run(name, func(t *testing.T) {
			sa, sb := postgresPair(t)
			a := newServer(t, Config{Store: sa, ID: "a"})
			b := newServer(t, Config{Store: sb, ID: "b"})
			id, players := made(t, a, b)
			c := &clockedHosts{t: t, id: id, players: players, get: func() Store { return sa }}
			c.play(4, a, b)

			// Server a restarts: a new one on the same database reads the
			// game.
			a.Close()
			a2 := newServer(t, Config{Store: sa, ID: "a"})
			c.play(4, b, a2)

			// Then server b.
			b.Close()
			b2 := newServer(t, Config{Store: sb, ID: "b"})
			c.play(4, a2, b2)
		})
	}
}

// TestClockedJoinedAfterRestart: on one SQLite file (one server at a
// time: a file is not shared), a clocked game made, the server
// restarted before the friend joins, then again between moves: every
// move is saved with its clock, and the game is read with it.
func TestClockedJoinedAfterRestart(t *testing.T) {
	path := t.TempDir() + "/games.db"
	ctx := context.Background()
	var st Store
	var s *Server
	restart := func() *Server {
		if s != nil {
			s.Close()
			st.Close()
		}
		var err error
		st, err = sqlite.Open(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		s = newServer(t, Config{Store: st})
		return s
	}
	restart()
	cr := must[api.Created](t, do(t, s, "POST", "/api/games", `{"mode":"online","clock":{"initial":300,"increment":0}}`), 201)
	restart()
	j := must[api.Joined](t, player{}.act(t, s, "POST", "/api/games/"+cr.ID+"/join", ""), 200)
	c := &clockedHosts{t: t, id: cr.ID, get: func() Store { return st },
		players: map[int]player{cr.Seat: {cr.Secret, cr.Seat}, j.Seat: {j.Secret, j.Seat}}}
	for range 3 {
		c.play(2, s)
		restart()
	}
	c.play(2, s)
}

// TestClockMissingInStore: games already saved by the defect of issue 36
// — moves of a clocked game saved without their clock, in the middle and
// at the end — are read on every store (they answered 500 before), with
// the clock worked out: the unknown moves took no time, the side to move
// has what it had, and play goes on with each move's clock saved.
func TestClockMissingInStore(t *testing.T) {
	stores := map[string]func(t *testing.T) Store{
		"memory":     func(*testing.T) Store { return memory.New() },
		"SQLite":     func(t *testing.T) Store { return openSQLiteFile(t) },
		"PostgreSQL": func(t *testing.T) Store { return openPostgresURL(t, pgtest.Start(t)) },
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			a := newServer(t, Config{Store: st, ID: "a", Clocks: Clocks{Lag: -1, SweepEvery: time.Hour}})
			id, ps := clockedGame(t, a, match.TimeControl{Initial: 5 * time.Minute})
			playMoves(t, a, id, ps, 2)
			// Two moves saved as the defect saved them: no clock.
			g := get(t, a, id)
			ctx := context.Background()
			if err := st.Append(ctx, id, 2, g.Legal[0], false); err != nil {
				t.Fatal(err)
			}
			a.Close()
			b := newServer(t, Config{Store: st, ID: "b", Clocks: Clocks{Lag: -1, SweepEvery: time.Hour}})
			g = mustClocked(t, b, id)
			if len(g.Moves) != 3 || g.Clock.Running == nil || *g.Clock.Running != g.ToMove {
				t.Fatalf("read %d moves, clock %+v; want 3 and the clock of the side to move running", len(g.Moves), g.Clock)
			}
			if left := g.Clock.Remaining[g.ToMove]; left < 4*60*1000 {
				t.Errorf("the side to move has %d ms left: the move whose time is unknown was charged", left)
			}
			if err := st.Append(ctx, id, 3, g.Legal[0], false); err != nil {
				t.Fatal(err)
			}
			b.Close()
			s := newServer(t, Config{Store: st, ID: "c", Clocks: Clocks{Lag: -1, SweepEvery: time.Hour}})
			for range 3 {
				g := mustClocked(t, s, id)
				if g.Over {
					break
				}
				must[wire.Turn](t, ps[g.ToMove].act(t, s, "POST", "/api/games/"+id+"/moves", `{"move":"`+g.Legal[0]+`"}`), 200)
			}
			saved, err := st.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			for i, mc := range saved.MoveClocks {
				if (mc == "") != (i == 2 || i == 3) {
					t.Errorf("move %d saved with clock %q", i, mc)
				}
			}
			if len(saved.Moves) < 5 {
				t.Errorf("%d moves saved, want the game played on", len(saved.Moves))
			}
		})
	}
}

// TestStaleClocklessCopyDropped: a server holding a copy of a clocked
// game read before its clock was saved (as a friend's game not yet
// joined once was saved) learns that the store now has a clock: it drops
// that copy instead of answering from it, and reads the game again with
// its clock.
func TestStaleClocklessCopyDropped(t *testing.T) {
	st := memory.New()
	s := newServer(t, Config{Store: st, ID: "b"})
	tc := match.TimeControl{Initial: 5 * time.Minute}
	cfg := match.Config{Mode: match.Online, Clock: &tc, Created: time.Now()}
	start := cfg.Rules.Start()
	cfg.Start = &start
	g := toStored(cfg)
	g.ID, g.Clock = newID(), store.Clock{} // saved as before issue 36: no clock until ready
	g.Seats[0] = hashSecret(newSecret())
	ctx := context.Background()
	if err := st.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if got := get(t, s, g.ID); got.Clock != nil {
		t.Fatalf("the legacy save read with a clock: %+v", got.Clock)
	}
	// Another server, whose copy had the clock, starts it.
	clk := match.NewClock(tc)
	clk.Start = time.Now()
	if err := st.SetClock(ctx, g.ID, clockText(&tc, &clk, time.Now().Add(time.Minute))); err != nil {
		t.Fatal(err)
	}
	s.resync(g.ID)
	mustClocked(t, s, g.ID)
}
