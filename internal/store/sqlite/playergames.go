package sqlite

import (
	"context"
	"fmt"
	"time"

	"oanquan/internal/store/internal/sqldb"
)

// GamesOf returns account's games created before before, newest first.
func (s *DB) GamesOf(ctx context.Context, account string, before time.Time, limit int) ([]string, error) {
	rows, err := s.rdb.QueryContext(ctx, sqliteGamesOf,
		account, before.UnixNano(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's games: %w", err)
	}
	return collectIDs(rows, nil)
}

// RatedInPlay returns account's rated games that go on.
func (s *DB) RatedInPlay(ctx context.Context, account string) ([]string, error) {
	rows, err := s.rdb.QueryContext(ctx, sqliteRatedInPlay, account)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's rated games in play: %w", err)
	}
	return collectIDs(rows, nil)
}

// The statements of PlayerGames on SQLite (sqldb's).
var (
	sqliteGamesOf     = sqldb.SQLite(sqldb.GamesOf)
	sqliteRatedInPlay = sqldb.SQLite(sqldb.RatedInPlay)
)
