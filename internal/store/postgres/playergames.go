package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// RatedInPlay returns account's rated games that go on.
func (p *DB) RatedInPlay(ctx context.Context, account string) ([]string, error) {
	rows, err := p.pool.Query(ctx, `SELECT id FROM games WHERE (account0 = $1 OR account1 = $1) AND account0 IS NOT NULL AND account1 IS NOT NULL
		AND rated != '' AND rating_change = '' AND finished IS NULL ORDER BY id`, account)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's rated games in play: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// GamesOf returns account's games created before before, newest first.
func (p *DB) GamesOf(ctx context.Context, account string, before time.Time, limit int) ([]string, error) {
	rows, err := p.pool.Query(ctx, `SELECT id FROM games WHERE (account0 = $1 OR account1 = $1) AND created < $2 ORDER BY created DESC, id LIMIT $3`,
		account, before, limit)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's games: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
