package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"oanquan/internal/store"
	"oanquan/internal/store/internal/sqldb"
)

// The SQL of Profiles on SQLite.
var (
	sqliteResults       = sqldb.SQLite(sqldb.Results)
	sqliteUnresulted    = sqldb.SQLite(sqldb.Unresulted)
	sqliteRatingHistory = sqldb.SQLite(sqldb.RatingHistory)
)

// Results counts account's finished games by result.
func (s *DB) Results(ctx context.Context, account string) (store.Tally, error) {
	var t store.Tally
	if err := s.rdb.QueryRowContext(ctx, sqliteResults, account).Scan(&t.Wins, &t.Draws, &t.Losses); err != nil {
		return store.Tally{}, fmt.Errorf("store: counting a player's results: %w", err)
	}
	return t, nil
}

// Unresulted returns account's finished games with no result.
func (s *DB) Unresulted(ctx context.Context, account string, limit int) ([]string, error) {
	rows, err := s.rdb.QueryContext(ctx, sqliteUnresulted, account, limit)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's games with no result: %w", err)
	}
	return collectIDs(rows, nil)
}

// RatingHistory returns account's ratings after its rated games.
func (s *DB) RatingHistory(ctx context.Context, account string, perSpeed int) (map[string][]store.RatingPoint, error) {
	rows, err := s.rdb.QueryContext(ctx, sqliteRatingHistory, account, perSpeed)
	if err != nil {
		return nil, fmt.Errorf("store: reading a rating history: %w", err)
	}
	defer rows.Close()
	out := map[string][]store.RatingPoint{}
	for rows.Next() {
		var speed, after string
		var p store.RatingPoint
		var at int64
		if err := rows.Scan(&speed, &p.Game, &at, &after); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(after), &p.Rating); err != nil {
			return nil, fmt.Errorf("store: rating history of game %q: %w", p.Game, err)
		}
		p.At = time.Unix(0, at)
		out[speed] = append(out[speed], p)
	}
	return out, rows.Err()
}
