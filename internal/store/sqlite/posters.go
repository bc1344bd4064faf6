package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"oanquan/internal/rating"
	"oanquan/internal/store"
)

// Posters returns the accounts of ids not deleted, with their ratings,
// in one query.
func (s *DB) Posters(ctx context.Context, ids []string) (map[string]store.Poster, error) {
	out := map[string]store.Poster{}
	if len(ids) == 0 {
		return out, nil
	}
	list, _ := json.Marshal(ids)
	rows, err := s.rdb.QueryContext(ctx, `SELECT a.id, a.username, r.speed, r.rating, r.rd, r.volatility, r.games, r.updated
		FROM accounts a LEFT JOIN ratings r ON r.account = a.id
		WHERE a.id IN (SELECT value FROM json_each(?1)) AND a.deleted IS NULL`, string(list))
	if err != nil {
		return nil, fmt.Errorf("store: reading posters: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, name string
		var speed sql.NullString
		var r, rd, vol sql.NullFloat64
		var games, updated sql.NullInt64
		if err := rows.Scan(&id, &name, &speed, &r, &rd, &vol, &games, &updated); err != nil {
			return nil, fmt.Errorf("store: reading posters: %w", err)
		}
		p, ok := out[id]
		if !ok {
			p = store.Poster{Username: name, Ratings: map[string]rating.Rating{}}
			out[id] = p
		}
		if speed.Valid {
			p.Ratings[speed.String] = rating.Rating{Rating: r.Float64, RD: rd.Float64, Volatility: vol.Float64,
				Games: int(games.Int64), Updated: time.Unix(0, updated.Int64)}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reading posters: %w", err)
	}
	return out, nil
}
