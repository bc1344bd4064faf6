package ai

import (
	"context"
	"errors"
	"strings"
	"testing"

	"oanquan/notation"
	"oanquan/rules"
)

// A hand-made game with a known blunder. Player 0 can take the right
// mandarin square (stone and 4 pebbles) with 9L; 6L takes 2 pebbles
// instead and lets player 1 take the stone and 6 pebbles with 4L. The
// review must mark 6L a blunder, name a better move that takes the
// stone, and leave the punishing reply unmarked.
func TestReviewFindsTheBlunder(t *testing.T) {
	start, err := notation.ParsePosition("1/0/0/1/0/0/3/10/4/4/2/4* 0 15,0,0 6,1,0 4")
	if err != nil {
		t.Fatal(err)
	}
	var r rules.Rules
	moves := []rules.Move{rules.MakeMove(6, rules.Left), rules.MakeMove(4, rules.Left)}
	var reported []MoveReview
	got, err := Review(context.Background(), r, start, moves, ReviewLimits{Depth: 8}, func(mr MoveReview) error {
		reported = append(reported, mr)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(reported) != 2 {
		t.Fatalf("Review gave %d reviews and reported %d, want 2", len(got), len(reported))
	}
	blunder, reply := got[0], got[1]
	if blunder.Mark != Blunder || blunder.Loss < ReviewThresholds.Blunder || blunder.Player != rules.Player0 || blunder.Ply != 0 {
		t.Errorf("6L: %+v, want a blunder by player 0 losing %d points or more", blunder, ReviewThresholds.Blunder)
	}
	takesStone := func(p rules.Position, m rules.Move) bool {
		before := p.Stores[p.ToMove].Mandarins
		mover := p.ToMove
		p.Play(m, &r, nil)
		return p.Stores[mover].Mandarins > before
	}
	if blunder.Best == rules.NoMove || start.Legal(blunder.Best) != nil || !takesStone(start, blunder.Best) {
		t.Errorf("6L: better move %v, want a legal move that takes the mandarin", blunder.Best)
	}
	// Scores from player 0's view: the best move keeps the score before
	// the move; the one played loses exactly Loss.
	if blunder.BestAfter != blunder.Before || blunder.After != blunder.Before-blunder.Loss {
		t.Errorf("6L: before %d, after %d, best after %d, loss %d: inconsistent", blunder.Before, blunder.After, blunder.BestAfter, blunder.Loss)
	}
	after := start
	after.Play(moves[0], &r, nil)
	if !takesStone(after, moves[1]) {
		t.Fatal("4L does not take the mandarin: the hand-made game is wrong")
	}
	if reply.Mark != NoMark || reply.Loss != 0 || reply.Best != rules.NoMove || reply.Player != rules.Player1 {
		t.Errorf("4L: %+v, want no mark and no better move", reply)
	}
	// Player 1's gain shows as player 0's score falling.
	if reply.Before > blunder.After+ReviewThresholds.Inaccuracy || reply.Before >= blunder.Before {
		t.Errorf("scores %d then %d then %d: want the blunder to show in the graph", blunder.Before, blunder.After, reply.Before)
	}
}

func TestReviewMarks(t *testing.T) {
	th := Thresholds{Inaccuracy: 3, Mistake: 6, Blunder: 10}
	for loss, want := range map[int]Mark{0: NoMark, 2: NoMark, 3: Inaccuracy, 5: Inaccuracy, 6: Mistake, 9: Mistake, 10: Blunder, 40: Blunder} {
		if got := th.markFor(loss); got != want {
			t.Errorf("markFor(%d) = %v, want %v", loss, got, want)
		}
	}
}

// An illegal move, a move after the end, a cancelled context: errors
// that say which move, and the reviews made before.
func TestReviewErrors(t *testing.T) {
	var r rules.Rules
	start := r.Start()
	seven, zero := rules.MakeMove(7, rules.Right), rules.MakeMove(0, rules.Right)
	got, err := Review(context.Background(), r, start, []rules.Move{seven, seven}, ReviewLimits{Depth: 2}, nil)
	if err == nil || len(got) != 1 || !strings.Contains(err.Error(), "move 2 7R") {
		t.Errorf("Review with an illegal second move: %d reviews, %v; want 1 and an error naming move 2", len(got), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err = Review(ctx, r, start, []rules.Move{seven, zero}, ReviewLimits{}, nil)
	if !errors.Is(err, context.Canceled) || len(got) != 0 {
		t.Errorf("Review with a cancelled context: %d reviews, %v; want none and context.Canceled", len(got), err)
	}
	loop, _ := notation.ParsePosition("1/1/1/1/1/0*/1/0/0/0/1/0 1 43,1,0 0,0,5 20")
	var ms []rules.Move
	for range 3 {
		for _, s := range []string{"3R", "9L", "1L", "8R"} {
			m, _ := notation.ParseMove(s)
			ms = append(ms, m)
		}
	}
	got, err = Review(context.Background(), r, loop, ms, ReviewLimits{Depth: 2}, nil)
	if !errors.Is(err, rules.ErrGameOver) || len(got) != 8 {
		t.Errorf("Review past a third repetition: %d reviews, %v; want 8 and the game over at move 9", len(got), err)
	}
}
