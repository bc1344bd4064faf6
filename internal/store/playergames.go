package store

import (
	"context"
	"time"
)

// PlayerGames lists the games an account played (issue 21, profiles):
// the SQLite, Postgres and Memory stores implement it with the same
// contract (storetest.PlayerGames).
type PlayerGames interface {
	// GamesOf returns the ids of the games account plays or played (in
	// either seat) created before before, newest first (then by id), at
	// most limit.
	GamesOf(ctx context.Context, account string, before time.Time, limit int) ([]string, error)
	// RatedInPlay returns the ids of the rated games account plays that
	// go on: both seats held by accounts, not finished and not rated
	// yet (the games a deletion of the account resigns first).
	RatedInPlay(ctx context.Context, account string) ([]string, error)
}
