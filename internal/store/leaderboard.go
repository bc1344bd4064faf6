package store

import (
	"context"
	"time"

	"oanquan/internal/rating"
)

// Leader is one row of a leaderboard: an account and its rating in the
// board's speed.
type Leader struct {
	Account  string
	Username string
	Rating   rating.Rating
}

// Leaderboards reads the leaderboards (issue 21): the SQLite, Postgres
// and Memory stores implement it with the same contract
// (storetest.Leaderboard).
type Leaderboards interface {
	// Leaderboard returns the accounts with a rating in speed whose last
	// rated game ended at or after since and whose RD (as saved then) is
	// at most maxRD, highest rating first (then username), at most limit.
	Leaderboard(ctx context.Context, speed string, since time.Time, maxRD float64, limit int) ([]Leader, error)
}
