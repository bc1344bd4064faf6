package wire

import (
	"fmt"

	"oanquan/ai"
	"oanquan/notation"
	"oanquan/rules"
)

// Review is the answer to a review of one move (docs/API.md, "Game
// review"): the move's review, as `oanquan review` prints it, the
// positions before and after the move in the notation, and how many moves
// the game has.
type Review struct {
	Review ai.MoveReview `json:"review"`
	Before string        `json:"before"`
	After  string        `json:"after"`
	Moves  int           `json:"moves"`
}

// ReviewAt reviews move ply of the game that plays moves from start under
// r: it replays the moves before it and asks review (ai.ReviewMove, or a
// server's pool of search workers) about the position history reached. A
// ply out of range or a move the rules refuse is an error that says so;
// review's own error is returned as it is.
func ReviewAt(r rules.Rules, start rules.Position, moves []rules.Move, ply int,
	review func(history []rules.Position, m rules.Move) (ai.MoveReview, error)) (Review, error) {
	switch {
	case len(moves) == 0:
		return Review{}, fmt.Errorf("ply: the game has no move to review")
	case ply < 0 || ply >= len(moves):
		return Review{}, fmt.Errorf("ply: want a move's index, 0 to %d, not %d", len(moves)-1, ply)
	}
	g, err := rules.NewGame(r, start)
	if err != nil {
		return Review{}, fmt.Errorf("position: %w", err)
	}
	history := []rules.Position{start}
	for _, m := range moves[:ply] {
		if _, err := g.Play(m, nil); err != nil {
			return Review{}, fmt.Errorf("move %s: %w", m, err)
		}
		history = append(history, g.Position())
	}
	mr, err := review(history, moves[ply])
	if err != nil {
		return Review{}, err
	}
	if _, err := g.Play(moves[ply], nil); err != nil {
		return Review{}, fmt.Errorf("move %s: %w", moves[ply], err)
	}
	return Review{Review: mr, Before: notation.FormatPosition(history[ply]), After: notation.FormatPosition(g.Position()), Moves: len(moves)}, nil
}
