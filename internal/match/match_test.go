package match

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"oanquan/ai"
	"oanquan/internal/match/matchtest"
	"oanquan/rules"
)

// guard bounds every wait, so that a broken test fails instead of hanging.
const guard = matchtest.Guard

// first is the engine that plays the first legal move at once.
type first = matchtest.First

func newGate() *matchtest.Gate { return matchtest.NewGate() }

func next(t *testing.T, s *Subscription) Update {
	t.Helper()
	select {
	case u, ok := <-s.C:
		if !ok {
			t.Fatal("subscription closed")
		}
		return u
	case <-time.After(guard):
		t.Fatal("no update")
		return Update{}
	}
}

// waitComputer reads updates until the computer's next turn.
func waitComputer(t *testing.T, sub *Subscription) Turn {
	t.Helper()
	for {
		if u := next(t, sub); u.Kind == TurnUpdate && u.Turn.Computer {
			return *u.Turn
		}
	}
}

func newMatch(t *testing.T, cfg Config) *Match {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(m.Close)
	return m
}

func mv(t *testing.T, s string) rules.Move {
	t.Helper()
	sq, d := int(s[0]-'0'), rules.Left
	if s[1] == 'R' {
		d = rules.Right
	}
	return rules.MakeMove(sq, d)
}

func wantKind(t *testing.T, err, kind error) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("error = %v, want %v", err, kind)
	}
	var e *Error
	if !errors.As(err, &e) || e.Msg == "" {
		t.Errorf("error %v is not an *Error with a message", err)
	}
}

// TestLocalGame plays a whole two-player game through the match and
// checks each turn, and the end, against a rules.Game played alongside.
func TestLocalGame(t *testing.T) {
	m := newMatch(t, Config{Mode: Local, Engine: first{}})
	var r rules.Rules
	ref, _ := rules.NewGame(r, r.Start())
	for i := 0; !ref.Over(); i++ {
		legal := ref.LegalMoves(nil)
		move := legal[(i*7)%len(legal)]
		ply := int(ref.Position().Ply)
		turn, err := m.Play(move, &ply)
		if err != nil {
			t.Fatalf("ply %d: Play(%v): %v", ply, move, err)
		}
		var tr rules.Trace
		ref.Play(move, &tr)
		if !reflect.DeepEqual(turn.Events, tr.Events) || turn.Ply != ply || turn.Move != move || turn.Computer {
			t.Fatalf("ply %d: turn = %+v, want events %v", ply, turn, tr.Events)
		}
		if turn.State.Position != ref.Position() || turn.State.End != ref.End() {
			t.Fatalf("ply %d: state %+v, want position %+v", ply, turn.State, ref.Position())
		}
	}
	s := m.State()
	if !s.Over() || s.Result != ref.Result() || len(s.Legal) != 0 || len(s.Moves) != len(ref.Moves()) {
		t.Errorf("final state = %+v, want the end %v with result %+v", s, ref.End(), ref.Result())
	}
	_, err := m.Play(ref.Moves()[0], nil)
	wantKind(t, err, ErrGameOver)
	_, err = m.Hints(context.Background())
	wantKind(t, err, ErrGameOver)
}

// TestRefusals checks every refusal, and that each leaves the match as it
// was.
func TestRefusals(t *testing.T) {
	g := newGate()
	m := newMatch(t, Config{Engine: g})
	stale := 3
	check := func(name string, kind error, do func() error) {
		t.Helper()
		before := m.State()
		wantKind(t, do(), kind)
		if after := m.State(); !reflect.DeepEqual(before, after) {
			t.Errorf("%s changed the state:\n%+v\nwant\n%+v", name, after, before)
		}
	}
	check("undo at the start", ErrNothingToUndo, func() error { _, err := m.Undo(); return err })
	check("empty square", ErrIllegalMove, func() error { _, err := m.Play(mv(t, "0R"), nil); return err })
	check("stale ply", ErrStale, func() error { _, err := m.Play(mv(t, "7R"), &stale); return err })
	check("bad level", ErrInvalid, func() error { _, err := m.SetLevel(ai.Hard + 1); return err })
	if _, err := m.Play(mv(t, "7R"), nil); err != nil {
		t.Fatal(err)
	}
	c := g.Next(t)
	check("move while thinking", ErrNotYourTurn, func() error { _, err := m.Play(mv(t, "5R"), nil); return err })
	check("hints while thinking", ErrNotYourTurn, func() error { _, err := m.Hints(context.Background()); return err })
	c.Reply <- mv(t, "0R")
	m.Close()
	check("move after Close", ErrClosed, func() error { _, err := m.Play(mv(t, "5R"), nil); return err })
	check("undo after Close", ErrClosed, func() error { _, err := m.Undo(); return err })
	check("level after Close", ErrClosed, func() error { _, err := m.SetLevel(ai.Hard); return err })
	check("subscribe after Close", ErrClosed, func() error { _, err := m.Subscribe(); return err })
}

func TestNewInvalid(t *testing.T) {
	bad := rules.Position{}
	for name, cfg := range map[string]Config{
		"mode":  {Mode: "chess"},
		"level": {Level: -1},
		"seat":  {Human: 2},
		"start": {Start: &bad},
		"moves": {Mode: Local, Moves: []rules.Move{rules.MakeMove(0, rules.Left)}},
	} {
		if _, err := New(cfg); !errors.Is(err, ErrInvalid) {
			t.Errorf("New with a bad %s: error = %v, want ErrInvalid", name, err)
		}
	}
}

// TestComputerReplies follows the updates of a human move and the
// computer's reply.
func TestComputerReplies(t *testing.T) {
	g := newGate()
	m := newMatch(t, Config{Engine: g, Level: ai.Medium, Seed: 7})
	sub, err := m.Subscribe()
	if err != nil {
		t.Fatal(err)
	}
	if u := next(t, sub); u.Kind != StateUpdate || u.State.Position.Ply != 0 || len(u.State.Legal) != 10 {
		t.Fatalf("first update = %+v, want the start state", u)
	}
	turn, err := m.Play(mv(t, "7R"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !turn.State.Thinking || len(turn.State.Legal) != 0 || turn.Computer {
		t.Errorf("the human's turn = %+v, want the computer thinking and no legal moves", turn.State)
	}
	if u := next(t, sub); u.Kind != TurnUpdate || u.Turn.Move != mv(t, "7R") || u.Turn.Computer {
		t.Fatalf("update = %+v, want the human's turn", u)
	}
	if u := next(t, sub); u.Kind != ThinkingUpdate || !u.Thinking {
		t.Fatalf("update = %+v, want thinking", u)
	}
	c := g.Next(t)
	if c.Pos != turn.State.Position || c.Lim.Level != ai.Medium || len(c.Lim.History) != 2 || c.Lim.History[1] != c.Pos {
		t.Errorf("search of %+v with %+v, want the position after 7R at Medium with its history", c.Pos, c.Lim)
	}
	reply := c.Pos.LegalMoves(nil)[2]
	c.Reply <- reply
	u := next(t, sub)
	if u.Kind != TurnUpdate || !u.Turn.Computer || u.Turn.Move != reply || u.Turn.Ply != 1 || u.Turn.Player != 1 {
		t.Fatalf("update = %+v, want the computer's turn %v", u, reply)
	}
	if s := m.State(); s.Thinking || len(s.Legal) == 0 || len(s.Moves) != 2 {
		t.Errorf("state after the reply = %+v, want the human to move", s)
	}
}

// TestUndoWhileThinking cancels the computer's search: its move, should
// it come, is thrown away.
func TestUndoWhileThinking(t *testing.T) {
	g := newGate()
	m := newMatch(t, Config{Engine: g})
	m.Play(mv(t, "7R"), nil)
	c := g.Next(t)
	s, err := m.Undo()
	if err != nil {
		t.Fatal(err)
	}
	if s.Thinking || len(s.Moves) != 0 || s.Position != (rules.Rules{}).Start() {
		t.Errorf("state after undo = %+v, want the start", s)
	}
	<-c.Ctx.Done() // the search was canceled
	c.Reply <- c.Pos.LegalMoves(nil)[0]
	// The human plays again; the computer's next search is a new call.
	sub, _ := m.Subscribe()
	m.Play(mv(t, "5L"), nil)
	c2 := g.Next(t)
	c2.Reply <- c2.Pos.LegalMoves(nil)[0]
	waitComputer(t, sub)
	m.Close() // waits for the search goroutines
	if moves := m.State().Moves; len(moves) != 2 || moves[0] != mv(t, "5L") {
		t.Errorf("moves = %v, want 5L and the computer's reply", moves)
	}
}

// TestUndoTakesBackTheReply: against the computer, undo takes back the
// human's move and the reply; the computer moving first is not undone.
func TestUndoTakesBackTheReply(t *testing.T) {
	g := newGate()
	m := newMatch(t, Config{Engine: g, Human: 1})
	c := g.Next(t) // the computer moves first
	c.Reply <- mv(t, "7R")
	sub, _ := m.Subscribe()
	next(t, sub)
	for next(t, sub).Kind != TurnUpdate {
	}
	_, err := m.Undo()
	wantKind(t, err, ErrNothingToUndo)
	human := m.State().Legal[0]
	if _, err := m.Play(human, nil); err != nil {
		t.Fatal(err)
	}
	c = g.Next(t)
	c.Reply <- c.Pos.LegalMoves(nil)[0]
	waitComputer(t, sub)
	s, err := m.Undo()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Moves, []rules.Move{mv(t, "7R")}) || s.Position.ToMove != 1 || s.Thinking {
		t.Errorf("after undo: %+v, want only the computer's first move", s)
	}
	if u := next(t, sub); u.Kind != StateUpdate || len(u.State.Moves) != 1 {
		t.Errorf("update = %+v, want the state after undo", u)
	}
}

// TestUndoAfterGameOver takes back a game's last move.
func TestUndoLocal(t *testing.T) {
	m := newMatch(t, Config{Mode: Local, Engine: first{}})
	m.Play(mv(t, "7R"), nil)
	m.Play(mv(t, "0L"), nil)
	s, err := m.Undo()
	if err != nil || !slices.Equal(s.Moves, []rules.Move{mv(t, "7R")}) {
		t.Errorf("Undo = %v, %v, want one move taken back", s.Moves, err)
	}
}

// TestLevelWhileThinking restarts the search at the new level.
func TestLevelWhileThinking(t *testing.T) {
	g := newGate()
	m := newMatch(t, Config{Engine: g, Level: ai.Hard})
	sub, _ := m.Subscribe()
	m.Play(mv(t, "7R"), nil)
	c := g.Next(t)
	s, err := m.SetLevel(ai.Easy)
	if err != nil || s.Level != ai.Easy || !s.Thinking {
		t.Fatalf("SetLevel = %+v, %v, want Easy and still thinking", s, err)
	}
	<-c.Ctx.Done()
	c2 := g.Next(t)
	if c2.Lim.Level != ai.Easy || c2.Pos != c.Pos {
		t.Errorf("new search at %v of %+v, want Easy, same position", c2.Lim.Level, c2.Pos)
	}
	c2.Reply <- c2.Pos.LegalMoves(nil)[0]
	waitComputer(t, sub)
	m.Close()
	if n := len(m.State().Moves); n != 2 {
		t.Errorf("%d moves, want 2: one reply only", n)
	}
}

// TestSlowSubscriberDropped: a subscriber that does not read is dropped
// and the match goes on; one that reads keeps receiving.
func TestSlowSubscriberDropped(t *testing.T) {
	m := newMatch(t, Config{Mode: Local, Engine: first{}})
	slow, _ := m.Subscribe()
	fast, _ := m.Subscribe()
	next(t, fast)
	for i := range 2 * subBuffer {
		if _, err := m.SetLevel(ai.Level(i % 3)); err != nil {
			t.Fatal(err)
		}
		if u := next(t, fast); u.Kind != StateUpdate {
			t.Fatalf("update %d = %+v, want a state", i, u)
		}
	}
	n := 0
	for range slow.C {
		n++
	}
	if n != subBuffer {
		t.Errorf("the slow subscriber got %d updates before being dropped, want %d", n, subBuffer)
	}
	slow.Close() // closing a dropped subscription is harmless
	fast.Close()
	if _, ok := <-fast.C; ok {
		t.Error("Close left the channel open")
	}
}

// TestCloseCancelsSearch: Close stops the computer and closes the
// subscriptions.
func TestCloseCancelsSearch(t *testing.T) {
	g := newGate()
	m := newMatch(t, Config{Engine: g, Human: 1})
	sub, _ := m.Subscribe()
	c := g.Next(t)
	m.Close()
	<-c.Ctx.Done()
	for range sub.C {
	}
	if s := m.State(); s.Thinking || len(s.Moves) != 0 {
		t.Errorf("state after Close = %+v, want no move and no thinking", s)
	}
}

// badEngine answers with an illegal move; the computer then plays its
// first legal move.
type badEngine struct{ first }

func (badEngine) Search(ctx context.Context, pos rules.Position, lim ai.Limits) (ai.Result, error) {
	return ai.Result{Move: rules.NoMove}, errors.New("broken")
}

func TestEngineFailure(t *testing.T) {
	m := newMatch(t, Config{Engine: badEngine{}, Human: 1})
	sub, _ := m.Subscribe()
	for u := next(t, sub); u.Kind != TurnUpdate; u = next(t, sub) {
	}
	start := (rules.Rules{}).Start()
	if moves := m.State().Moves; len(moves) != 1 || moves[0] != start.LegalMoves(nil)[0] {
		t.Errorf("moves = %v, want the first legal move", moves)
	}
}

// TestRebuild: a match rebuilt from Config has the same state, and
// Commit sees each change, in order, with whether the computer is to move.
func TestRebuild(t *testing.T) {
	var changes []Change
	m := newMatch(t, Config{ID: "x", Mode: Local, Engine: first{}, Rules: rules.Rules{First: 1}, Commit: func(c Change) error {
		changes = append(changes, c)
		return nil
	}})
	for _, s := range []string{"2L", "9R"} {
		if _, err := m.Play(mv(t, s), nil); err != nil {
			t.Fatal(err)
		}
	}
	m.SetLevel(ai.Hard)
	m.Undo()
	want := []Change{
		{ID: "x", Kind: Moved, Index: 0, Move: mv(t, "2L")},
		{ID: "x", Kind: Moved, Index: 1, Move: mv(t, "9R")},
		{ID: "x", Kind: LevelSet, Level: ai.Hard},
		{ID: "x", Kind: Undone, Index: 1},
	}
	if !reflect.DeepEqual(changes, want) {
		t.Errorf("Commit saw %+v, want %+v", changes, want)
	}
	cfg := m.Config()
	cfg.Commit = nil
	m2 := newMatch(t, cfg)
	if a, b := m.State(), m2.State(); !reflect.DeepEqual(a, b) {
		t.Errorf("rebuilt state = %+v, want %+v", b, a)
	}
}

// TestCommitFails: a change that cannot be saved is taken back, nobody
// hears of it, and the request fails with the commit's error.
func TestCommitFails(t *testing.T) {
	broken := errors.New("disk full")
	var fail atomic.Bool
	g := newGate()
	m := newMatch(t, Config{Engine: g, Commit: func(c Change) error {
		if fail.Load() {
			return broken
		}
		return nil
	}})
	if _, err := m.Play(mv(t, "7R"), nil); err != nil {
		t.Fatal(err)
	}
	c := g.Next(t)
	sub, _ := m.Subscribe()
	next(t, sub) // the state
	fail.Store(true)
	c.Reply <- c.Pos.LegalMoves(nil)[0]
	// The computer's move is not saved: the page hears a state in which
	// the computer is still to move and no longer thinks.
	u := next(t, sub)
	if u.Kind != StateUpdate || len(u.State.Moves) != 1 || u.State.Thinking {
		t.Fatalf("after a failed save of the computer's move, update %+v, want a state with 1 move, not thinking", u)
	}
	// Resume tries again, and this time it is saved.
	fail.Store(false)
	if !m.Resume() {
		t.Fatal("Resume did not start the computer")
	}
	c = g.Next(t)
	c.Reply <- c.Pos.LegalMoves(nil)[0]
	waitComputer(t, sub)
	before := m.State()
	fail.Store(true)
	if _, err := m.Play(before.Legal[0], nil); !errors.Is(err, broken) {
		t.Errorf("Play with a failing save = %v, want %v", err, broken)
	}
	if _, err := m.Undo(); !errors.Is(err, broken) {
		t.Errorf("Undo with a failing save = %v, want %v", err, broken)
	}
	if _, err := m.SetLevel(ai.Hard); !errors.Is(err, broken) {
		t.Errorf("SetLevel with a failing save = %v, want %v", err, broken)
	}
	if after := m.State(); !reflect.DeepEqual(after, before) {
		t.Errorf("failed changes changed the match:\n got %+v\nwant %+v", after, before)
	}
	select {
	case u := <-sub.C:
		t.Errorf("a failed change was broadcast: %+v", u)
	default:
	}
}

// TestSync: a match catches up with changes made elsewhere: moves as
// turns, an undo as a state.
func TestSync(t *testing.T) {
	a := newMatch(t, Config{ID: "x", Mode: Local, Engine: first{}})
	b := newMatch(t, Config{ID: "x", Mode: Local, Engine: first{}})
	sub, _ := b.Subscribe()
	next(t, sub)
	load := func() (Saved, error) { s := a.State(); return Saved{Moves: s.Moves, Level: s.Level}, nil }
	for _, s := range []string{"7R", "1L"} {
		if _, err := a.Play(mv(t, s), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Sync(load); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"7R", "1L"} {
		u := next(t, sub)
		if u.Kind != TurnUpdate || u.Turn.Move != mv(t, want) || len(u.Turn.Events) == 0 {
			t.Fatalf("update %+v, want the turn %s with its events", u, want)
		}
	}
	if err := b.Sync(load); err != nil {
		t.Fatal(err)
	}
	a.Undo()
	if err := b.Sync(load); err != nil {
		t.Fatal(err)
	}
	if u := next(t, sub); u.Kind != StateUpdate || len(u.State.Moves) != 1 {
		t.Fatalf("after an undo elsewhere, update %+v, want a state with 1 move", u)
	}
	if sa, sb := a.State(), b.State(); !reflect.DeepEqual(sa, sb) {
		t.Errorf("after Sync, state %+v, want %+v", sb, sa)
	}
	bad := func() (Saved, error) { return Saved{Moves: []rules.Move{mv(t, "0L")}, Level: ai.Easy}, nil }
	if err := b.Sync(bad); err == nil {
		t.Error("Sync with an illegal saved move succeeded")
	}
	if sa, sb := a.State(), b.State(); !reflect.DeepEqual(sa, sb) {
		t.Errorf("a failed Sync changed the match: %+v", sb)
	}
}

// TestElsewhere: when the engine says another server plays the computer's
// moves, the match waits without playing one.
func TestElsewhere(t *testing.T) {
	m := newMatch(t, Config{Engine: elsewhere{}})
	if _, err := m.Play(mv(t, "7R"), nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(guard)
	for m.State().Thinking {
		if time.Now().After(deadline) {
			t.Fatal("still thinking")
		}
		time.Sleep(time.Millisecond)
	}
	if n := len(m.State().Moves); n != 1 {
		t.Errorf("%d moves, want 1: the computer played here", n)
	}
}

type elsewhere struct{ first }

func (elsewhere) Search(ctx context.Context, pos rules.Position, lim ai.Limits) (ai.Result, error) {
	return ai.Result{}, ErrElsewhere
}

func TestIdle(t *testing.T) {
	g := newGate()
	m := newMatch(t, Config{Engine: g})
	if !m.Idle() {
		t.Error("a new match is not idle")
	}
	sub, _ := m.Subscribe()
	if m.Idle() {
		t.Error("a watched match is idle")
	}
	sub.Close()
	m.Play(mv(t, "7R"), nil)
	c := g.Next(t)
	if m.Idle() {
		t.Error("a match whose computer is thinking is idle")
	}
	sub, _ = m.Subscribe()
	c.Reply <- c.Pos.LegalMoves(nil)[0]
	waitComputer(t, sub)
	sub.Close()
	if !m.Idle() {
		t.Error("a match left alone is not idle")
	}
}

func TestHints(t *testing.T) {
	m := newMatch(t, Config{Engine: first{}})
	hs, err := m.Hints(context.Background())
	if err != nil || len(hs) != 10 {
		t.Errorf("Hints = %v, %v, want 10 hints", hs, err)
	}
}

// TestAgainstEasy plays a whole game against package ai at Easy.
func TestAgainstEasy(t *testing.T) {
	m := newMatch(t, Config{Level: ai.Easy, Seed: 1})
	sub, _ := m.Subscribe()
	for i := 0; ; i++ {
		u := next(t, sub)
		var s *State
		switch u.Kind {
		case StateUpdate:
			s = u.State
		case TurnUpdate:
			s = &u.Turn.State
		default:
			continue
		}
		if s.Over() {
			if s.Result.Players[0].Total+s.Result.Players[1].Total > rules.Total {
				t.Errorf("result %+v has more than %d points", s.Result, rules.Total)
			}
			return
		}
		if s.Position.ToMove == 0 && !s.Thinking {
			if _, err := m.Play(s.Legal[i%len(s.Legal)], nil); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestSubscribeSeen: a subscriber that shows the game from before the
// last turn gets that turn first, then the state; one that shows it
// after, or says nothing, or comes after the state changed otherwise (a
// level changed), gets the state alone.
func TestSubscribeSeen(t *testing.T) {
	m := newMatch(t, Config{Engine: first{}, Level: ai.Easy, Rules: rules.Rules{First: 1}})
	sub, err := m.Subscribe()
	if err != nil {
		t.Fatal(err)
	}
	opening := waitComputer(t, sub)
	firsts := func(seen int) []Update {
		t.Helper()
		s, err := m.SubscribeSeen(seen)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var out []Update
		for len(s.C) > 0 {
			out = append(out, <-s.C)
		}
		return out
	}
	got := firsts(0)
	if len(got) != 2 || got[0].Kind != TurnUpdate || got[0].Turn.Ply != 0 || got[0].Turn.Move != opening.Move || got[1].Kind != StateUpdate || got[1].State.Position.Ply != 1 {
		t.Fatalf("seen 0 after the computer's opening: %+v, want its turn then the state at ply 1", got)
	}
	for _, seen := range []int{-1, 1, 5} {
		if got := firsts(seen); len(got) != 1 || got[0].Kind != StateUpdate {
			t.Errorf("seen %d: %+v, want the state alone", seen, got)
		}
	}
	if _, err := m.SetLevel(ai.Medium); err != nil {
		t.Fatal(err)
	}
	if got := firsts(0); len(got) != 1 || got[0].Kind != StateUpdate {
		t.Errorf("seen 0 after a change of level: %+v, want the state alone", got)
	}
}
