package match

import (
	"context"
	"testing"

	"oanquan/rules"
)

// mayAbort reports whether p's Abort would succeed now, asked of a copy
// of m (Abort ends the game).
func mayAbort(t *testing.T, m *Match, p rules.Player) bool {
	t.Helper()
	cp := newMatch(t, m.Config())
	_, err := cp.Abort(p)
	return err == nil
}

// mayTakeback reports whether p's takeback offer would be made now, asked
// of a copy of m.
func mayTakeback(t *testing.T, m *Match, p rules.Player) bool {
	t.Helper()
	cp := newMatch(t, m.Config())
	_, _, err := cp.Offer(OfferTakeback, p)
	return err == nil
}

// TestOnlineCan follows an online game's CanAbort and CanTakeback from
// the start to a resignation, and holds them to what Abort and Offer do.
func TestOnlineCan(t *testing.T) {
	m := newMatch(t, Config{Mode: Online})
	type can struct{ abort, takeback [2]bool }
	check := func(when string, want can) {
		t.Helper()
		s := m.State()
		if got := (can{s.CanAbort, s.CanTakeback}); got != want {
			t.Errorf("%s: CanAbort %v, CanTakeback %v; want %v, %v", when, got.abort, got.takeback, want.abort, want.takeback)
		}
		if s.CanHint {
			t.Errorf("%s: CanHint in an online game", when)
		}
		for p := range rules.Player(2) {
			if a := mayAbort(t, m, p); a != s.CanAbort[p] {
				t.Errorf("%s: seat %d: Abort succeeds %v, CanAbort %v", when, p, a, s.CanAbort[p])
			}
			if tb := mayTakeback(t, m, p); tb != s.CanTakeback[p] {
				t.Errorf("%s: seat %d: takeback offer made %v, CanTakeback %v", when, p, tb, s.CanTakeback[p])
			}
		}
	}
	check("at the start", can{abort: [2]bool{true, true}})
	if _, err := m.PlayFor(0, mv(t, "7R"), nil); err != nil {
		t.Fatal(err)
	}
	check("after seat 0's move", can{abort: [2]bool{false, true}, takeback: [2]bool{true, false}})
	legal := m.State().Legal
	if _, err := m.PlayFor(1, legal[0], nil); err != nil {
		t.Fatal(err)
	}
	check("after both moved", can{takeback: [2]bool{true, true}})
	if _, err := m.Resign(1); err != nil {
		t.Fatal(err)
	}
	check("over", can{})
}

// TestOnlineAbortFirstMover checks CanAbort when seat 1 moves first: seat
// 1 may abort until its move, seat 0 until its own.
func TestOnlineAbortFirstMover(t *testing.T) {
	m := newMatch(t, Config{Mode: Online, Rules: rules.Rules{First: rules.Player1}})
	if s := m.State(); s.CanAbort != [2]bool{true, true} {
		t.Fatalf("at the start: CanAbort %v, want both", s.CanAbort)
	}
	if _, err := m.PlayFor(1, m.State().Legal[0], nil); err != nil {
		t.Fatal(err)
	}
	s := m.State()
	if s.CanAbort != [2]bool{true, false} || s.CanTakeback != [2]bool{false, true} {
		t.Fatalf("after seat 1's move: CanAbort %v, CanTakeback %v; want [true false], [false true]", s.CanAbort, s.CanTakeback)
	}
	if _, err := m.Abort(0); err != nil {
		t.Fatalf("Abort(0) before seat 0 moved: %v", err)
	}
	if s := m.State(); s.CanAbort != [2]bool{} || s.CanTakeback != [2]bool{} || !s.Over() {
		t.Errorf("aborted: CanAbort %v, CanTakeback %v, over %v", s.CanAbort, s.CanTakeback, s.Over())
	}
}

// TestCanHint checks CanHint in every mode and phase against what Hints
// answers.
func TestCanHint(t *testing.T) {
	g := newGate()
	vsAI := newMatch(t, Config{Engine: g})
	local := newMatch(t, Config{Mode: Local, Engine: first{}})
	online := newMatch(t, Config{Mode: Online, Engine: first{}})
	check := func(name string, m *Match, want bool) {
		t.Helper()
		s := m.State()
		if s.CanHint != want {
			t.Errorf("%s: CanHint %v, want %v", name, s.CanHint, want)
		}
		if _, err := m.Hints(context.Background()); (err == nil) != s.CanHint {
			t.Errorf("%s: Hints error %v, but CanHint %v", name, err, s.CanHint)
		}
		if s.CanAbort != [2]bool{} || s.CanTakeback != [2]bool{} {
			if m.Mode() != Online {
				t.Errorf("%s: CanAbort %v, CanTakeback %v outside online games", name, s.CanAbort, s.CanTakeback)
			}
		}
	}
	check("ai, the human to move", vsAI, true)
	if _, err := vsAI.Play(mv(t, "7R"), nil); err != nil {
		t.Fatal(err)
	}
	c := g.Next(t)
	check("ai, the computer to move", vsAI, false)
	c.Reply <- c.Pos.LegalMoves(nil)[0]
	check("local", local, true)
	check("online", online, false)
	for s := local.State(); !s.Over(); {
		turn, err := local.Play(s.Legal[0], nil)
		if err != nil {
			t.Fatal(err)
		}
		s = turn.State
	}
	check("local, over", local, false)
}
