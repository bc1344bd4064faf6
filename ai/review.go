package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"oanquan/ai/endgames"
	"oanquan/rules"
)

// Mark is the size of a mistake found by a review.
type Mark int

// Marks, smallest first. A move is marked by how many points it loses
// against the best move, judged by the same search (ReviewThresholds).
const (
	NoMark Mark = iota
	Inaccuracy
	Mistake
	Blunder
)

var markNames = [...]string{"", "inaccuracy", "mistake", "blunder"}

// String returns "", "inaccuracy", "mistake" or "blunder".
func (m Mark) String() string {
	if m >= 0 && int(m) < len(markNames) {
		return markNames[m]
	}
	return fmt.Sprintf("Mark(%d)", int(m))
}

// Thresholds are the smallest losses, in points, that earn each mark.
type Thresholds struct {
	Inaccuracy, Mistake, Blunder int
}

// ReviewThresholds are the marks' thresholds: 3, 6 and 10 points. They
// were chosen from measurements (docs/AI.md, "Game review"): below 3
// points, the review's own noise (a 250 ms search judging the moves of a
// longer one) accounts for most of the losses it finds in Hard's play,
// while from 3 points on it marks about a third of Medium's and Easy's
// moves and almost none of Hard's; a blunder loses at least a mandarin's
// worth (10 points), which decides most games.
var ReviewThresholds = Thresholds{Inaccuracy: 3, Mistake: 6, Blunder: 10}

// markFor returns the mark of a move that loses loss points.
func (t Thresholds) markFor(loss int) Mark {
	switch {
	case loss >= t.Blunder:
		return Blunder
	case loss >= t.Mistake:
		return Mistake
	case loss >= t.Inaccuracy:
		return Inaccuracy
	}
	return NoMark
}

// ReviewMoveTime is the default search time per position of a review:
// with one thread, a 60-move game takes at most 15 s.
const ReviewMoveTime = 250 * time.Millisecond

// ReviewLimits say how hard a review searches each position.
type ReviewLimits struct {
	MoveTime time.Duration // per position; 0: ReviewMoveTime
	Depth    int           // at most this many plies; 0: no limit (set it for a deterministic review)
	Threads  int           // goroutines per search; 0: 1
	// Thresholds of the marks; the zero value: ReviewThresholds.
	Thresholds Thresholds
	// Table, if set, is kept from one position to the next (Review sets
	// one for the whole game): each search starts from what the previous
	// one found, and no table is allocated per position.
	Table *Table
	// Endgames, if set, is the endgame table the searches read (Limits).
	Endgames *endgames.Table
}

// MoveReview is the review of one move of a game. Scores are points with
// best play from then on, from player 0's point of view (positive: player
// 0 ahead), so that a game's scores make one graph; Loss is from the
// mover's.
type MoveReview struct {
	Ply    int          // the move's index in the game, from 0
	Player rules.Player // who played it
	Move   rules.Move
	Before int // the position's score before the move
	After  int // the score after the move played
	// Best is the best move when the move played loses points (Loss > 0),
	// with the score after it; otherwise NoMove and After.
	Best      rules.Move
	BestAfter int
	Loss      int  // points the move loses against Best, 0 or more
	Mark      Mark // the mistake's size, by Loss
	Proven    bool // the scores are exact: every line was searched to the end
	Depth     int  // plies the search of the position reached
}

// moveReviewJSON is MoveReview's JSON: moves in the notation, the better
// move only when the move played loses points (docs/AI.md, "Game
// review"; `oanquan review` prints one per line, the server answers one).
type moveReviewJSON struct {
	Ply       int    `json:"ply"`
	Player    int    `json:"player"`
	Move      string `json:"move"`
	Before    int    `json:"before"`
	After     int    `json:"after"`
	Best      string `json:"best,omitempty"`
	BestAfter *int   `json:"best_after,omitempty"`
	Loss      int    `json:"loss"`
	Mark      string `json:"mark,omitempty"`
	Proven    bool   `json:"proven"`
	Depth     int    `json:"depth"`
}

// MarshalJSON writes the review as docs/AI.md says.
func (mr MoveReview) MarshalJSON() ([]byte, error) {
	l := moveReviewJSON{Ply: mr.Ply, Player: int(mr.Player), Move: mr.Move.String(), Before: mr.Before, After: mr.After, Loss: mr.Loss, Mark: mr.Mark.String(), Proven: mr.Proven, Depth: mr.Depth}
	if mr.Loss > 0 {
		l.Best = mr.Best.String()
		l.BestAfter = &mr.BestAfter
	}
	return json.Marshal(l)
}

// ReviewMove reviews the move m played in the last position of history
// (the game's positions from its start, in order) under r: every legal
// move is scored with a full window, the best against the one played.
// It returns an error if m is not legal there; if ctx ends first, the
// review stands on what was searched and the error is ctx's.
func ReviewMove(ctx context.Context, r rules.Rules, history []rules.Position, m rules.Move, lim ReviewLimits) (MoveReview, error) {
	if len(history) == 0 {
		return MoveReview{}, fmt.Errorf("review: no position")
	}
	pos := history[len(history)-1]
	if err := pos.Legal(m); err != nil {
		return MoveReview{}, err
	}
	search := Limits{Level: Hard, MoveTime: lim.MoveTime, Depth: lim.Depth, Threads: lim.Threads, Rules: r, History: history, Table: lim.Table, Endgames: lim.Endgames}
	if search.MoveTime == 0 {
		search.MoveTime = ReviewMoveTime
	}
	if search.Threads == 0 {
		search.Threads = 1
	}
	th := lim.Thresholds
	if th == (Thresholds{}) {
		th = ReviewThresholds
	}
	out := think(ctx, pos, search, true)
	mr := MoveReview{Ply: len(history) - 1, Player: pos.ToMove, Move: m, Best: rules.NoMove, Proven: out.Proven, Depth: out.Depth}
	played, ok := out.scores[m]
	best, bestMove := played, m
	for _, mv := range pos.LegalMoves(nil) {
		if v, in := out.scores[mv]; in && v > best {
			best, bestMove = v, mv
		}
	}
	if !ok {
		// Stopped before the first iteration scored every move: nothing
		// to judge by.
		best, bestMove, played = 0, m, 0
	}
	sign := 1
	if pos.ToMove == rules.Player1 {
		sign = -1
	}
	mr.Before, mr.After = sign*points(best), sign*points(played)
	if mr.Loss = points(best) - points(played); mr.Loss > 0 {
		mr.Best, mr.BestAfter = bestMove, mr.Before
	} else {
		mr.Loss, mr.BestAfter = 0, mr.After
	}
	mr.Mark = th.markFor(mr.Loss)
	return mr, ctx.Err()
}

// Review reviews every move of the game that starts at start and plays
// moves under r, in order, calling report (if not nil) after each; it
// returns the reviews. It stops at the first illegal move, with an error
// naming it, or when report returns an error or ctx ends (a stopped
// review), returning the reviews made so far. Each position takes at most
// lim.MoveTime, with one transposition table kept through the game: a
// caller with its own pool of search workers can instead call ReviewMove
// position by position. With lim.Depth set, the same game gives the same
// review on every run.
func Review(ctx context.Context, r rules.Rules, start rules.Position, moves []rules.Move, lim ReviewLimits, report func(MoveReview) error) ([]MoveReview, error) {
	g, err := rules.NewGame(r, start)
	if err != nil {
		return nil, fmt.Errorf("review: start: %w", err)
	}
	history := []rules.Position{start}
	if lim.Table == nil {
		lim.Table = new(Table)
	}
	var out []MoveReview
	for i, m := range moves {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if g.Over() {
			return out, fmt.Errorf("review: move %d %v: %w", i+1, m, rules.ErrGameOver)
		}
		mr, err := ReviewMove(ctx, r, history, m, lim)
		if err != nil {
			return out, fmt.Errorf("review: move %d %v: %w", i+1, m, err)
		}
		out = append(out, mr)
		if report != nil {
			if err := report(mr); err != nil {
				return out, err
			}
		}
		g.Play(m, nil)
		history = append(history, g.Position())
	}
	return out, nil
}
