package sqlite

import (
	"context"
	"fmt"
	"time"

	"oanquan/internal/store"
	"oanquan/internal/store/internal/sqldb"
)

// Leaderboard returns speed's leaders.
func (s *DB) Leaderboard(ctx context.Context, speed string, since time.Time, maxRD float64, limit int) ([]store.Leader, error) {
	rows, err := s.rdb.QueryContext(ctx, sqldb.Leaderboard, speed, since.UnixNano(), maxRD, limit)
	if err != nil {
		return nil, fmt.Errorf("store: reading a leaderboard: %w", err)
	}
	defer rows.Close()
	var out []store.Leader
	for rows.Next() {
		var l store.Leader
		var updated int64
		if err := rows.Scan(&l.Account, &l.Username, &l.Rating.Rating, &l.Rating.RD, &l.Rating.Volatility, &l.Rating.Games, &updated); err != nil {
			return nil, err
		}
		l.Rating.Updated = time.Unix(0, updated)
		out = append(out, l)
	}
	return out, rows.Err()
}
