package store

import (
	"context"
	"time"

	"oanquan/internal/rating"
)

// Result is how a finished game ended, as the store keeps it (Finish,
// Accounts.EndRated) for players' profiles. Its values are saved: do
// not renumber them.
type Result int

// The results of a game.
const (
	NoResult Result = iota // it goes on, or it ended before results were kept (schema v10)
	Won0                   // seat 0 won
	Won1                   // seat 1 won
	Drawn
	Aborted // called off before it began: it counts for nobody
)

// ResultOfScore is the result of a rated game in which seat 0 scored s.
func ResultOfScore(s float64) Result {
	switch s {
	case 1:
		return Won0
	case 0:
		return Won1
	}
	return Drawn
}

// Tally counts a player's finished games by their result for it.
type Tally struct{ Wins, Draws, Losses int }

// RatingPoint is a player's rating in a speed right after one rated
// game: the history of a profile's graph.
type RatingPoint struct {
	Game   string
	At     time.Time     // when the game ended
	Rating rating.Rating // after it
}

// Profiles reads what a player's profile shows beside its ratings
// (issue 21). The SQLite, Postgres and Memory stores implement it with
// the same contract (storetest.Profiles).
type Profiles interface {
	// Results counts account's online games against someone else (its
	// account on one seat, not both) that ended with a result for it:
	// won, drawn, lost. Aborted games, games going on and games with
	// NoResult are not counted.
	Results(ctx context.Context, account string) (Tally, error)
	// Unresulted returns the ids of at most limit online games of
	// account that are finished (Finish) with NoResult: ended before
	// results were kept. Whoever reads them works their results out
	// and records them with Finish.
	Unresulted(ctx context.Context, account string, limit int) ([]string, error)
	// RatingHistory returns account's rating after each of its rated
	// games, by speed, oldest first: the last perSpeed games of each
	// speed it has played. No rated game: an empty map.
	RatingHistory(ctx context.Context, account string, perSpeed int) (map[string][]RatingPoint, error)
}

// Add adds to t the result r of a game in which the player held
// seat.
func (t *Tally) Add(r Result, seat int) {
	switch {
	case r == Drawn:
		t.Draws++
	case r == Won0 && seat == 0, r == Won1 && seat == 1:
		t.Wins++
	case r == Won0 || r == Won1:
		t.Losses++
	}
}
