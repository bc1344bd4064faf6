package postgres

import (
	"context"
	"fmt"
	"time"

	"oanquan/internal/store"
	"oanquan/internal/store/internal/sqldb"
)

// Leaderboard returns speed's leaders.
func (p *DB) Leaderboard(ctx context.Context, speed string, since time.Time, maxRD float64, limit int) ([]store.Leader, error) {
	rows, err := p.pool.Query(ctx, sqldb.Leaderboard, speed, since, maxRD, limit)
	if err != nil {
		return nil, fmt.Errorf("store: reading a leaderboard: %w", err)
	}
	defer rows.Close()
	var out []store.Leader
	for rows.Next() {
		var l store.Leader
		if err := rows.Scan(&l.Account, &l.Username, &l.Rating.Rating, &l.Rating.RD, &l.Rating.Volatility, &l.Rating.Games, &l.Rating.Updated); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}
