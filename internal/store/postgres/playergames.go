package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"oanquan/internal/store/internal/sqldb"
)

// RatedInPlay returns account's rated games that go on.
func (p *DB) RatedInPlay(ctx context.Context, account string) ([]string, error) {
	rows, err := p.pool.Query(ctx, sqldb.RatedInPlay, account)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's rated games in play: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// GamesOf returns account's games created before before, newest first.
func (p *DB) GamesOf(ctx context.Context, account string, before time.Time, limit int) ([]string, error) {
	rows, err := p.pool.Query(ctx, sqldb.GamesOf,
		account, before, limit)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's games: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
