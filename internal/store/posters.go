package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"oanquan/internal/rating"
)

// Poster is an account as the lobby shows it: its name and its ratings
// by speed name (a speed it has no rated game in is absent).
type Poster struct {
	Username string
	Ratings  map[string]rating.Rating
}

// Posters returns the accounts of ids not deleted, with their ratings.
func (m *Memory) Posters(ctx context.Context, ids []string) (map[string]Poster, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ac := m.acc()
	out := map[string]Poster{}
	for _, id := range ids {
		if a := ac.accounts[id]; a != nil {
			rs := maps.Clone(ac.ratings[id])
			if rs == nil {
				rs = map[string]rating.Rating{}
			}
			out[id] = Poster{Username: a.Username, Ratings: rs}
		}
	}
	return out, nil
}

// Posters returns the accounts of ids not deleted, with their ratings,
// in one query.
func (s *SQLite) Posters(ctx context.Context, ids []string) (map[string]Poster, error) {
	out := map[string]Poster{}
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
			p = Poster{Username: name, Ratings: map[string]rating.Rating{}}
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

// Posters returns the accounts of ids not deleted, with their ratings,
// in one query.
func (p *Postgres) Posters(ctx context.Context, ids []string) (map[string]Poster, error) {
	out := map[string]Poster{}
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
			po = Poster{Username: name, Ratings: map[string]rating.Rating{}}
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
