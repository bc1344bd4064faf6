package match

import (
	"strings"

	"oanquan/rules"
)

// Mode says who plays.
type Mode string

// The modes. Each has its Policy in policies.
const (
	AI    Mode = "ai"    // a human against the computer
	Local Mode = "local" // two humans taking turns on one device
	// Online is the mode of two humans on two devices: each plays the
	// seat whose secret they hold (the server checks that), and they may
	// resign, offer a draw, ask to take back a move, abort before they
	// have moved and, after the end, offer a rematch.
	Online Mode = "online"
)

// UndoRule says what Undo takes back.
type UndoRule int

// The undo rules.
const (
	UndoNone UndoRule = iota // nothing: the other player must agree to a takeback
	UndoLast                 // the last move, whoever played it
	UndoOwn                  // the human's last move and the computer's replies after it
)

// Policy is a mode's rules of play: who plays, what undo takes back, what
// the players may ask. New picks the mode's policy once, and the match
// decides by its fields, never by the mode's name: a new mode (a clocked
// one, a rated one) is a new entry in policies. The zero Policy allows
// nothing but moves by anyone.
type Policy struct {
	Mode Mode
	// Computer: the computer plays the seat that is not Config.Human; no
	// human may move for it.
	Computer bool
	// BothSeats: whoever holds the game plays both seats (two players on
	// one device). Otherwise they play Config.Human's seat alone.
	BothSeats bool
	// Undo is what Undo takes back.
	Undo UndoRule
	// Hints: Hints answers when a human is to move.
	Hints bool
	// Level: SetLevel may change the computer's level.
	Level bool
	// Online: each seat is a player on their own device, who may resign,
	// abort before their first move, offer a draw (and after the end a
	// rematch) and answer the other's offers: Resign, Abort, Offer,
	// Answer, SetNext.
	Online bool
	// Takeback: an Online player may ask to take back their last move.
	Takeback bool
	// ReviewLive: the moves may be reviewed before the game is over (a
	// player online may not ask a computer for help during the game).
	ReviewLive bool
	// Clock: the game has a time control (Config.Clock): the side to move
	// loses on time, each first move has a limit, and a real-time
	// player whose other has left may claim the game (Claim).
	Clock bool
}

// policies are the modes' policies, in the order the modes are listed to
// a user.
var policies = []Policy{
	{Mode: AI, Computer: true, Undo: UndoOwn, Hints: true, Level: true, ReviewLive: true},
	// A local game keeps a level, unused, as the settings it was made
	// with.
	{Mode: Local, BothSeats: true, Undo: UndoLast, Hints: true, Level: true, ReviewLive: true},
	{Mode: Online, Online: true, Takeback: true},
	// A clocked game has no takebacks: taking a move back would have to
	// give its time back too, and a player could buy time by asking.
	{Mode: Online, Online: true, Clock: true},
}

// PolicyOf returns mode's policy ("" is AI), or an ErrInvalid naming the
// modes there are.
func PolicyOf(mode Mode) (Policy, error) { return policyOf(mode, false) }

// policyOf returns the policy of mode with a clock or without; a mode
// that has no clocked policy is refused a clock.
func policyOf(mode Mode, clocked bool) (Policy, error) {
	if mode == "" {
		mode = AI
	}
	known := false
	for _, p := range policies {
		if p.Mode == mode {
			known = true
			if p.Clock == clocked {
				return p, nil
			}
		}
	}
	if known {
		return Policy{}, refuse(ErrInvalid, "clock: only in a game between two players online")
	}
	var names []string
	for _, p := range policies {
		if !p.Clock {
			names = append(names, string(p.Mode))
		}
	}
	last := len(names) - 1
	return Policy{}, refuse(ErrInvalid, "unknown mode %q: want %s or %s", mode, strings.Join(names[:last], ", "), names[last])
}

// Policy returns the policy of the state's mode.
func (s *State) Policy() Policy {
	p, _ := policyOf(s.Mode, s.Clock != nil)
	return p
}

// ComputerPlays reports whether the computer plays seat p, given the
// human's seat (Config.Human).
func (pol Policy) ComputerPlays(p, human rules.Player) bool {
	return pol.Computer && p != human
}

// ComputerToMove reports whether the game goes on and the computer is to
// move: the server keeps such a game waiting for the computer's move.
func (s *State) ComputerToMove() bool {
	pol := s.Policy()
	return !s.Over() && pol.ComputerPlays(s.Position.ToMove, s.Human)
}

// Reviewable reports whether the game's moves may be reviewed now: at
// any time if the policy allows it during the game, otherwise once it is
// over.
func (s *State) Reviewable() bool { return s.Policy().ReviewLive || s.Over() }

// undoCount returns how many of the moves played from start Undo takes
// back, 0 for none.
func (pol Policy) undoCount(start rules.Position, moves int, human rules.Player) int {
	switch pol.Undo {
	case UndoLast:
		return min(moves, 1)
	case UndoOwn:
		for i := moves - 1; i >= 0; i-- {
			if moverOf(start, i) == human {
				return moves - i
			}
		}
	}
	return 0
}
