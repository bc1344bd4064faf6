package ai

import (
	"fmt"
	"time"

	"oanquan/ai/endgames"
	"oanquan/rules"
)

// Level is the strength of the computer player.
type Level int

// The three levels, weakest first.
const (
	Easy Level = iota
	Medium
	Hard
)

var levelNames = [...]string{"easy", "medium", "hard"}

// ParseLevel reads "easy", "medium" or "hard".
func ParseLevel(s string) (Level, error) {
	for i, n := range levelNames {
		if s == n {
			return Level(i), nil
		}
	}
	return Hard, fmt.Errorf("unknown level %q: want easy, medium or hard", s)
}

// String returns "easy", "medium" or "hard".
func (l Level) String() string {
	if l >= 0 && int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// Default move times of each level, used when Limits.MoveTime is zero.
const (
	HardMoveTime   = time.Second
	MediumMoveTime = 200 * time.Millisecond
	MediumDepth    = 2 // Medium's depth limit, in plies: its move and the reply
)

// Limits says how Search plays. The zero Limits is Easy with its defaults
// under the standard rules; set Level to Hard for the strongest play.
type Limits struct {
	Level    Level
	MoveTime time.Duration // at most this long; 0: the level's default (Hard: 1 s)
	Depth    int           // at most this many plies; 0: no depth limit
	Seed     uint64        // the same seed gives the same choices (see the package doc)
	Rules    rules.Rules   // variants
	// History holds earlier positions of the game, oldest first, for the
	// repetition rule (rules.Game.History()); it may end with the
	// position searched or stop just before it.
	History []rules.Position
	// Threads is how many goroutines search; 0: Hard uses up to two when
	// it plays against a clock, everything else one.
	Threads int
	// TableMB is the transposition table's size in MiB; 0: 16 (Hard), 2
	// (the other levels).
	TableMB int
	// Noise is, for Medium, the most points of random noise added to
	// each move's score before choosing; 0: MediumNoise.
	Noise int
	// Eval overrides the evaluation weights; nil: WeightsOf(Level).
	Eval *Weights
	// Table, if set, is the transposition table to use and keep for the
	// next search (one player's moves in a game); nil: a new table for
	// this search alone.
	Table *Table
	// Endgames, if set, is an endgame table (package endgames) that Hard,
	// Hints and Review probe (Easy and Medium do not): a position it knows
	// exactly is answered at once, proven, and the search reads it at
	// every node.
	Endgames *endgames.Table
}

// Result is what Search found.
type Result struct {
	Move   rules.Move   // the move chosen
	Score  int          // points, mover's total minus the opponent's, expected with best play
	Depth  int          // plies of the deepest completed iteration
	Nodes  int64        // positions searched (moves played), all threads
	PV     []rules.Move // principal variation, starting with Move
	Proven bool         // every line was searched to the end of the game: Score is exact
}

// Hint is one legal move and its score from the mover's point of view.
type Hint struct {
	Move  rules.Move
	Score int
}

// Verdict says what a proven result means for the side to move, in words
// a page can show: "wins by 6 with best play", "loses by 3 with best
// play" or "draws with best play". It is "" when the result is not
// proven.
func (r Result) Verdict() string {
	switch {
	case !r.Proven:
		return ""
	case r.Score > 0:
		return fmt.Sprintf("wins by %d with best play", r.Score)
	case r.Score < 0:
		return fmt.Sprintf("loses by %d with best play", -r.Score)
	}
	return "draws with best play"
}
