package match

import (
	"context"
	"testing"
	"time"

	"oanquan/ai"
	"oanquan/rules"
)

// TestPolicies plays the first moves of a game in every mode and holds
// what the match allows to the mode's policy: the computer's replies,
// undo, hints, the level and the online actions.
func TestPolicies(t *testing.T) {
	for _, pol := range policies {
		t.Run(string(pol.Mode), func(t *testing.T) {
			g := newGate()
			cfg := Config{Mode: pol.Mode, Engine: g}
			if pol.Clock {
				cfg.Clock = &TimeControl{Initial: time.Hour}
			}
			m := newMatch(t, cfg)
			if m.Policy() != pol {
				t.Fatalf("Policy() = %+v, want %+v", m.Policy(), pol)
			}
			if st := m.State(); st.Policy() != pol || st.Reviewable() != pol.ReviewLive {
				t.Errorf("State().Policy() = %+v, Reviewable %v; want %+v", st.Policy(), st.Reviewable(), pol)
			}
			allowed := func(what string, err error, want bool) {
				t.Helper()
				if (err == nil) != want {
					t.Errorf("%s: error %v, want allowed %v", what, err, want)
				}
			}
			_, err := m.Hints(context.Background())
			allowed("hints", err, pol.Hints)
			_, err = m.SetLevel(ai.Medium)
			allowed("level", err, pol.Level)

			sub, err := m.Subscribe()
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Close()
			if _, err := m.Play(mv(t, "7R"), nil); err != nil {
				t.Fatal(err)
			}
			if st := m.State(); st.ComputerToMove() != pol.Computer {
				t.Errorf("after the first move, ComputerToMove() = %v, want %v", st.ComputerToMove(), pol.Computer)
			}
			if pol.Computer {
				g.Release(t)
				waitComputer(t, sub)
			} else if _, err := m.Play(m.State().Legal[0], nil); err != nil {
				t.Fatal(err)
			}
			s := m.State()
			if got := s.Computer[1]; got != pol.Computer {
				t.Errorf("the reply played by the computer: %v, want %v", got, pol.Computer)
			}
			_, _, err = m.Offer(OfferTakeback, rules.Player0)
			allowed("takeback offer", err, pol.Takeback)
			want := map[UndoRule]int{UndoNone: 2, UndoLast: 1, UndoOwn: 0}[pol.Undo]
			after, err := m.Undo()
			allowed("undo", err, pol.Undo != UndoNone)
			if err == nil && len(after.Moves) != want {
				t.Errorf("undo left %d moves, want %d", len(after.Moves), want)
			}
			_, err = m.Resign(rules.Player1)
			allowed("resign", err, pol.Online)
			if st := m.State(); st.Over() && (!st.Reviewable() || st.ComputerToMove()) {
				t.Errorf("over: Reviewable %v, ComputerToMove %v; want true, false", st.Reviewable(), st.ComputerToMove())
			}
		})
	}
}

// TestUnknownMode checks that New names the modes there are.
func TestUnknownMode(t *testing.T) {
	_, err := New(Config{Mode: "chess"})
	wantKind(t, err, ErrInvalid)
	if want := `unknown mode "chess": want ai, local or online`; err.Error() != want {
		t.Errorf("New(chess) = %q, want %q", err, want)
	}
	if p, err := PolicyOf(""); err != nil || p.Mode != AI {
		t.Errorf(`PolicyOf("") = %+v, %v; want AI's`, p, err)
	}
}

// TestTakebackAccepted checks the takeback an online game has instead of
// undo: accepted, it takes back the asker's move and the reply.
func TestTakebackAccepted(t *testing.T) {
	m := newMatch(t, Config{Mode: Online})
	for _, p := range []rules.Player{0, 1} {
		if _, err := m.PlayFor(p, m.State().Legal[0], nil); err != nil {
			t.Fatal(err)
		}
	}
	_, err := m.Undo()
	wantKind(t, err, ErrConflict)
	if _, _, err := m.Offer(OfferTakeback, 0); err != nil {
		t.Fatal(err)
	}
	st, ok, err := m.Answer(OfferTakeback, 1, true)
	if err != nil || !ok || len(st.Moves) != 0 || st.Status.Offer != nil {
		t.Errorf("takeback accepted: %d moves, offer %v, accepted %v, %v; want none left", len(st.Moves), st.Status.Offer, ok, err)
	}
}
