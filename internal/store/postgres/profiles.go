package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
	"oanquan/internal/store"
	"oanquan/internal/store/internal/sqldb"
)

// Results counts account's finished games by result.
func (p *DB) Results(ctx context.Context, account string) (store.Tally, error) {
	var t store.Tally
	if err := p.pool.QueryRow(ctx, sqldb.Results, account).Scan(&t.Wins, &t.Draws, &t.Losses); err != nil {
		return store.Tally{}, fmt.Errorf("store: counting a player's results: %w", err)
	}
	return t, nil
}

// Unresulted returns account's finished games with no result.
func (p *DB) Unresulted(ctx context.Context, account string, limit int) ([]string, error) {
	rows, err := p.pool.Query(ctx, sqldb.Unresulted, account, limit)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's games with no result: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// RatingHistory returns account's ratings after its rated games.
func (p *DB) RatingHistory(ctx context.Context, account string, perSpeed int) (map[string][]store.RatingPoint, error) {
	rows, err := p.pool.Query(ctx, sqldb.RatingHistory, account, perSpeed)
	if err != nil {
		return nil, fmt.Errorf("store: reading a rating history: %w", err)
	}
	defer rows.Close()
	out := map[string][]store.RatingPoint{}
	for rows.Next() {
		var speed, after string
		var pt store.RatingPoint
		if err := rows.Scan(&speed, &pt.Game, &pt.At, &after); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(after), &pt.Rating); err != nil {
			return nil, fmt.Errorf("store: rating history of game %q: %w", pt.Game, err)
		}
		out[speed] = append(out[speed], pt)
	}
	return out, rows.Err()
}
