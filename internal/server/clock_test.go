package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/match"
	"oanquan/internal/store"
	"oanquan/internal/store/memory"
	"oanquan/internal/store/sqlite"
	"oanquan/internal/wire"
	"oanquan/rules"
)

// clockedGame makes on s a clocked online game of tc whose seats are held
// by two players, ready at once (as a rematch is: both seats taken), and
// returns its id and the players. The API's bounds (15 s at least) are
// passed by: tests need clocks of a second.
func clockedGame(t *testing.T, s *Server, tc match.TimeControl) (string, [2]player) {
	t.Helper()
	secrets := [2]string{newSecret(), newSecret()}
	m, err := s.newMatch(context.Background(), "", match.Config{Mode: match.Online, Clock: &tc, Created: time.Now()},
		[2][]byte{hashSecret(secrets[0]), hashSecret(secrets[1])}, [2]string{})
	if err != nil {
		t.Fatal(err)
	}
	return m.ID(), [2]player{{secrets[0], 0}, {secrets[1], 1}}
}

// playMoves plays n moves of game id on h, each by the player to move.
func playMoves(t *testing.T, h http.Handler, id string, ps [2]player, n int) wire.Game {
	t.Helper()
	var st wire.Game
	for range n {
		st = get(t, h, id)
		turn := must[wire.Turn](t, ps[st.ToMove].act(t, h, "POST", "/api/games/"+id+"/moves", `{"move":"`+st.Legal[0]+`"}`), 200)
		st = turn.State
	}
	return st
}

// savedOutcome reads game id's status from st.
func savedOutcome(t *testing.T, st Store, id string) (match.Outcome, store.Game) {
	t.Helper()
	g, err := st.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var status match.Status
	if g.Status != "" {
		if err := json.Unmarshal([]byte(g.Status), &status); err != nil {
			t.Fatal(err)
		}
	}
	return status.Outcome, g
}

// awaitOutcome waits until game id's saved outcome is of kind, and
// returns when it saw it.
func awaitOutcome(t *testing.T, st Store, id, kind string, within time.Duration) (match.Outcome, time.Time) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		o, _ := savedOutcome(t, st, id)
		if o.Kind == kind {
			return o, time.Now()
		}
		if time.Now().After(deadline) {
			t.Fatalf("game %s: no %q outcome within %v (saved %+v)", id, kind, within, o)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestClockFlagNoClient: the side to move loses on time at its deadline,
// with no client connected and no request: the server's timer, not the
// sweep (which is made to wait an hour), flags it, and the store has it
// finished. A move after the flag is refused.
func TestClockFlagNoClient(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir()+"/games.db", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := newServer(t, Config{Store: st, Clocks: Clocks{Lag: -1, SweepEvery: time.Hour}})
	id, ps := clockedGame(t, s, match.TimeControl{Initial: time.Second})
	playMoves(t, s, id, ps, 2)
	// Before the third move is sent: its answer may come late on a busy
	// machine, after the clock it started has run a while.
	moved := time.Now()
	g := playMoves(t, s, id, ps, 1)
	if g.Clock == nil || g.Clock.Running == nil || *g.Clock.Running != g.ToMove || g.Clock.Remaining[g.ToMove] < 900 || g.Clock.Remaining[g.ToMove] > 1000 {
		t.Fatalf("clock after 3 moves: %+v", g.Clock)
	}
	loser := g.ToMove
	o, seen := awaitOutcome(t, st, id, match.OutcomeTimeout, 5*time.Second)
	if o.Player != loserPlayer(loser) {
		t.Errorf("outcome %+v, want seat %d on time", o, loser)
	}
	if late := seen.Sub(moved); late < time.Second || late > 1500*time.Millisecond {
		t.Errorf("flagged %v after the move, want 1 s (at most 0.5 s late)", late)
	}
	if _, saved := savedOutcome(t, st, id); saved.Clock.State == "" {
		t.Error("the saved game has no clock")
	}
	end := get(t, s, id)
	if end.End != "timeout" || end.Result == nil || end.Result.Winner == nil || *end.Result.Winner != 1-loser || end.Clock.Remaining[loser] != 0 {
		t.Errorf("state after the flag: end %q, result %+v, clock %+v", end.End, end.Result, end.Clock)
	}
	if len(end.Clock.After) != 3 {
		t.Errorf("clock after each move, once over: %v, want 3", end.Clock.After)
	}
	rec := do(t, s, "GET", "/api/games/"+id+"/record", nil)
	text := string(rec.body)
	if !strings.Contains(text, `[TimeControl "1+0"]`) || !strings.Contains(text, `[Termination "time"]`) || strings.Count(text, "{clock ") != 3 {
		t.Errorf("record of a game lost on time:\n%s", text)
	}
	r := ps[loser].act(t, s, "POST", "/api/games/"+id+"/moves", `{"move":"`+g.Legal[0]+`"}`)
	if r.status != http.StatusConflict {
		t.Errorf("a move after the flag: %v, want 409", r)
	}
	if got := get(t, s, id); len(got.Moves) != 3 {
		t.Errorf("%d moves after the late move, want 3", len(got.Moves))
	}
}

// loserPlayer is seat as an outcome names it.
func loserPlayer(seat int) rules.Player { return rules.Player(seat) }

// newTestServer serves s over loopback until the test ends.
func newTestServer(t *testing.T, s *Server) *httptest.Server {
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

// TestClockMoveTooLate: a move that arrives after the deadline, before
// the timer has flagged (its lease is another server's), is refused with
// time_over and ends the game on time.
func TestClockMoveTooLate(t *testing.T) {
	st := memory.New()
	s := newServer(t, Config{Store: st, Clocks: Clocks{Lag: -1, SweepEvery: time.Hour}})
	id, ps := clockedGame(t, s, match.TimeControl{Initial: time.Second})
	g := playMoves(t, s, id, ps, 2)
	if ok, _ := st.Lease(context.Background(), id, "elsewhere", time.Hour); !ok {
		t.Fatal("no lease")
	}
	time.Sleep(1100 * time.Millisecond)
	r := ps[g.ToMove].act(t, s, "POST", "/api/games/"+id+"/moves", `{"move":"`+g.Legal[0]+`"}`)
	var body api.ErrorBody
	json.Unmarshal(r.body, &body)
	if r.status != http.StatusConflict || body.Error.Code != "time_over" {
		t.Fatalf("a late move: %v, want 409 time_over", r)
	}
	if end := get(t, s, id); end.End != "timeout" || len(end.Moves) != 2 {
		t.Errorf("after the late move: end %q, %d moves", end.End, len(end.Moves))
	}
}

// TestClockFirstMoveAbort: a game made through the API, joined, whose
// first move never comes, is aborted at the limit (no winner), and the
// watchers' WebSocket is told.
func TestClockFirstMoveAbort(t *testing.T) {
	s := newServer(t, Config{Clocks: Clocks{FirstMove: 300 * time.Millisecond}})
	ts := newTestServer(t, s)
	id, _, _ := onlineGame(t, s, `{"mode":"online","clock":{"initial":180,"increment":2}}`)
	start := time.Now()
	w := dial(t, ts, id)
	if m := w.want("state"); m.State.Clock == nil || m.State.Clock.FirstMoveMs == nil || *m.State.Clock.FirstMoveMs > 300 {
		t.Fatalf("first state's clock %+v, want the first move timed", m.State.Clock)
	}
	for {
		m := w.next()
		if m.Type == "state" && m.State.Over {
			if m.State.End != "abort" || m.State.EndReason != "firstMove" || m.State.Result.Winner != nil {
				t.Errorf("ended %q (%q), winner %v; want aborted at the first move's limit with no winner", m.State.End, m.State.EndReason, m.State.Result.Winner)
			}
			break
		}
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("aborted after %v, want about 300 ms", took)
	}
}

// TestClockClaim: once a real-time player has had no connection for
// ClaimAfter, the other is told (canClaim, pushed on the WebSocket) and
// may claim the win; before, the claim is refused.
func TestClockClaim(t *testing.T) {
	s := newServer(t, Config{Clocks: Clocks{ClaimAfter: 300 * time.Millisecond}})
	ts := newTestServer(t, s)
	id, creator, friend := onlineGame(t, s, `{"mode":"online","clock":{"initial":180,"increment":2}}`)
	st := get(t, s, id)
	ps := map[int]player{creator.seat: creator, friend.seat: friend}
	var both [2]player
	both[creator.seat], both[friend.seat] = creator, friend
	playMoves(t, s, id, both, 2)
	w := dial(t, ts, id)
	hello(t, w, creator)
	r := creator.act(t, s, "POST", "/api/games/"+id+"/claim", `{"result":"win"}`)
	if r.status != http.StatusConflict || !strings.Contains(string(r.body), "cannot_claim") {
		t.Errorf("an early claim: %v, want 409 cannot_claim", r)
	}
	if r := creator.act(t, s, "POST", "/api/games/"+id+"/claim", `{"result":"lose"}`); r.status != 400 {
		t.Errorf("a claim of a loss: %v, want 400", r)
	}
	for {
		m := w.next()
		if m.Type == "state" && m.State.CanClaim[creator.seat] {
			if a := m.State.Clock.AwayMs; len(a) != 2 || a[creator.seat] != nil || a[friend.seat] == nil || *a[friend.seat] < 300 || *a[friend.seat] > 2000 {
				t.Errorf("awayMs when the claim opened: %v, want the friend's 300 ms or so", a)
			}
			break
		}
	}
	g := must[wire.Game](t, ps[creator.seat].act(t, s, "POST", "/api/games/"+id+"/claim", `{"result":"win"}`), 200)
	if g.End != "abandon" || g.Result.Winner == nil || *g.Result.Winner != creator.seat {
		t.Errorf("after the claim: end %q, result %+v", g.End, g.Result)
	}
	_ = st
}

// TestClockSurvivingServer: a clocked game is played on server a, which
// then goes (closed, its timer with it) while the clock runs; server b,
// which never served the game, flags it by its sweep at the deadline.
func TestClockSurvivingServer(t *testing.T) {
	sa, sb := postgresPair(t)
	a := New(Config{Store: sa, ID: "a", Engine: first{}, Clocks: Clocks{Lag: -1}})
	b := newServer(t, Config{Store: sb, ID: "b", Clocks: Clocks{Lag: -1, SweepEvery: 100 * time.Millisecond}})
	id, ps := clockedGame(t, a, match.TimeControl{Initial: time.Second})
	playMoves(t, a, id, ps, 2)
	moved := time.Now()
	a.Close()
	o, seen := awaitOutcome(t, sb, id, match.OutcomeTimeout, 5*time.Second)
	if late := seen.Sub(moved); late < time.Second || late > 2*time.Second {
		t.Errorf("server b flagged %v after the move, want 1 s (and its sweep's 0.1 s)", late)
	}
	if o.Player != 0 {
		t.Errorf("outcome %+v, want seat 0 on time (the third move's)", o)
	}
	if g := get(t, b, id); g.End != "timeout" {
		t.Errorf("server b's state: end %q", g.End)
	}
}

// TestClockRematch: a rematch keeps the clock, and is ready at once (both
// seats are the players'): its first move is timed from the start.
func TestClockRematch(t *testing.T) {
	s := newServer(t, Config{})
	id, creator, friend := onlineGame(t, s, `{"mode":"online","clock":{"initial":300,"increment":3}}`)
	must[wire.Game](t, creator.act(t, s, "POST", "/api/games/"+id+"/resign", ""), 200)
	must[wire.Game](t, creator.act(t, s, "POST", "/api/games/"+id+"/rematch", `{"action":"offer"}`), 200)
	g := must[wire.Game](t, friend.act(t, s, "POST", "/api/games/"+id+"/rematch", `{"action":"accept"}`), 200)
	if g.Next == "" {
		t.Fatal("no rematch")
	}
	next := get(t, s, g.Next)
	c := next.Clock
	if c == nil || c.Initial == nil || *c.Initial != 300 || *c.Increment != 3 || c.FirstMoveMs == nil || c.Remaining != [2]int64{300000, 300000} {
		t.Fatalf("the rematch's clock: %+v", c)
	}
}

// TestClockFlagPushed: a game lost on time is sent to its WebSocket
// subscribers at the flag, with no request.
func TestClockFlagPushed(t *testing.T) {
	s := newServer(t, Config{Clocks: Clocks{Lag: -1, SweepEvery: time.Hour}})
	ts := newTestServer(t, s)
	id, ps := clockedGame(t, s, match.TimeControl{Initial: time.Second})
	w := dial(t, ts, id)
	playMoves(t, s, id, ps, 2)
	for {
		m := w.next()
		if m.Type == "state" && m.State.Over {
			if m.State.End != "timeout" || m.State.Clock.Remaining[m.State.ToMove] != 0 || m.State.Clock.Running != nil {
				t.Errorf("pushed state: end %q, clock %+v", m.State.End, m.State.Clock)
			}
			return
		}
	}
}

// TestClockUsedSaved: the time each move took is saved with it and comes
// back, once the game is over, from a server that never served the game
// (restarted on the same SQLite file): first moves included.
func TestClockUsedSaved(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir()+"/games.db", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := New(Config{Store: st, ID: "a", Engine: first{}, Clocks: Clocks{Lag: -1, SweepEvery: time.Hour}})
	id, ps := clockedGame(t, a, match.TimeControl{Initial: time.Minute})
	for range 3 {
		time.Sleep(120 * time.Millisecond)
		playMoves(t, a, id, ps, 1)
	}
	ps[0].act(t, a, "POST", "/api/games/"+id+"/resign", ``)
	a.Close()
	b := newServer(t, Config{Store: st, ID: "b", Clocks: Clocks{Lag: -1, SweepEvery: time.Hour}})
	g := get(t, b, id)
	if !g.Over || g.Clock == nil || len(g.Clock.Used) != 3 {
		t.Fatalf("over %v, clock %+v; want the time of 3 moves", g.Over, g.Clock)
	}
	for i, u := range g.Clock.Used {
		if u == nil || *u < 100 || *u > 2000 {
			t.Errorf("move %d took %v, want about 120 ms", i, u)
		}
	}
	if rec := string(do(t, b, "GET", "/api/games/"+id+"/record", nil).body); strings.Count(rec, " took ") != 3 {
		t.Errorf("the record does not give the time of 3 moves:\n%s", rec)
	}
}

// TestClockOfLegacyMoves: a move's clock saved before the time taken was
// kept ("MS,MS") reads as not known; a bad one is refused.
func TestClockOfLegacyMoves(t *testing.T) {
	saved := clockText(&match.TimeControl{Initial: time.Minute}, &match.Clock{}, time.Time{})
	lc, err := clockOf(saved, []string{"60000,60000", "60000,58000,2100"}, time.Time{})
	if err != nil || len(lc.after) != 2 || !slices.Equal(lc.used, []time.Duration{-1, 2100 * time.Millisecond}) {
		t.Errorf("clockOf = %+v, %v", lc, err)
	}
	for _, bad := range []string{"60000", "1,2,3,4", "1,2,-5", "1,x,3"} {
		if _, err := clockOf(saved, []string{bad}, time.Time{}); err == nil {
			t.Errorf("the move clock %q was read", bad)
		}
	}
}

// FuzzClockOf: a move's saved clock text, whatever it is, is read or
// refused without a fault; once read, each move has its time after and
// its time taken (-1 or more).
func FuzzClockOf(f *testing.F) {
	for _, seed := range []string{"60000,60000", "60000,58000,2100", "", ",", "1,2,-1", "9223372036854775807,0,9223372036854775807"} {
		f.Add(seed)
	}
	saved := clockText(&match.TimeControl{Initial: time.Minute}, &match.Clock{}, time.Time{})
	f.Fuzz(func(t *testing.T, text string) {
		lc, err := clockOf(saved, []string{text, text}, time.Time{})
		if err == nil && (len(lc.after) != 2 || len(lc.used) != 2 || lc.used[0] < -1) {
			t.Errorf("%q: after %v, used %v", text, lc.after, lc.used)
		}
	})
}

// TestClockStaleCopyNoLoop: a copy of a clocked game that is behind the
// store (left out of s.live, as a lobby's game made while a request
// loaded it once was) reaches its old deadline. Its flag is refused (the
// game changed meanwhile); the copy is dropped rather than its timer
// firing again at once for ever (thousands of errors a minute and half a
// core, found by loadgen), and the game is not flagged by it.
func TestClockStaleCopyNoLoop(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir()+"/games.db", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	logged := &lockedBuffer{}
	s := newServer(t, Config{Store: st, Clocks: Clocks{Lag: -1, SweepEvery: time.Hour}, Log: slogTo(logged)})
	id, ps := clockedGame(t, s, match.TimeControl{Initial: 2 * time.Second})
	playMoves(t, s, id, ps, 2) // both first moves made: the clock runs, 2 s each
	start := time.Now()
	// The live copy becomes a stale one, left out of s.live with its
	// timer armed for the side to move's 2 s; a fresh copy is loaded.
	s.mu.Lock()
	stale := s.live[id]
	s.lru.Remove(stale.elem)
	delete(s.live, id)
	s.mu.Unlock()
	time.Sleep(time.Second)
	playMoves(t, s, id, ps, 1) // through the fresh copy, 1 s in: the other side has 2 s from now
	// Between the stale copy's deadline (2 s) and the game's (3 s).
	time.Sleep(time.Until(start.Add(2600 * time.Millisecond)))
	if n := strings.Count(logged.String(), "flagging a game"); n > 2 {
		t.Errorf("the stale copy's flag was tried %d times", n)
	}
	if end := get(t, s, id); end.Over {
		t.Errorf("the game ended (%q) by a stale copy's flag", end.End)
	}
}

// lockedBuffer is a bytes.Buffer for a logger written from several
// goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
