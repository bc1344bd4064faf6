package postgres

import (
	"context"
	"fmt"
	"time"

	"oanquan/internal/rating"
	"oanquan/internal/store"
)

// Posters returns the accounts of ids not deleted, with their ratings,
// in one query.
func (p *DB) Posters(ctx context.Context, ids []string) (map[string]store.Poster, error) {
	out := map[string]store.Poster{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := p.pool.Query(ctx, `SELECT a.id, a.username, r.speed, r.rating, r.rd, r.volatility, r.games, r.updated
		FROM accounts a LEFT JOIN ratings r ON r.account = a.id
		WHERE a.id = ANY($1) AND a.deleted IS NULL`, ids)
	if err != nil {
		return nil, fmt.Errorf("store: reading posters: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, name string
		var speed *string
		var r, rd, vol *float64
		var games *int
		var updated *time.Time
		if err := rows.Scan(&id, &name, &speed, &r, &rd, &vol, &games, &updated); err != nil {
			return nil, fmt.Errorf("store: reading posters: %w", err)
		}
		po, ok := out[id]
		if !ok {
			po = store.Poster{Username: name, Ratings: map[string]rating.Rating{}}
			out[id] = po
		}
		if speed != nil {
			po.Ratings[*speed] = rating.Rating{Rating: *r, RD: *rd, Volatility: *vol, Games: *games, Updated: *updated}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reading posters: %w", err)
	}
	return out, nil
}
