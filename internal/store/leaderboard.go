package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"oanquan/internal/rating"
)

// Leader is one row of a leaderboard: an account and its rating in the
// board's speed.
type Leader struct {
	Account  string
	Username string
	Rating   rating.Rating
}

// Leaderboards reads the leaderboards (issue 21): the SQLite, Postgres
// and Memory stores implement it with the same contract
// (leaderboard_test.go).
type Leaderboards interface {
	// Leaderboard returns the accounts with a rating in speed whose last
	// rated game ended at or after since and whose RD (as saved then) is
	// at most maxRD, highest rating first (then username), at most limit.
	Leaderboard(ctx context.Context, speed string, since time.Time, maxRD float64, limit int) ([]Leader, error)
}

var (
	_ Leaderboards = (*Memory)(nil)
	_ Leaderboards = (*SQLite)(nil)
	_ Leaderboards = (*Postgres)(nil)
)

// Leaderboard returns speed's leaders.
func (m *Memory) Leaderboard(ctx context.Context, speed string, since time.Time, maxRD float64, limit int) ([]Leader, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	ac := m.acc()
	var out []Leader
	for id, rs := range ac.ratings {
		r, ok := rs[speed]
		a := ac.accounts[id]
		if ok && a != nil && !r.Updated.Before(since) && r.RD <= maxRD {
			out = append(out, Leader{Account: id, Username: a.Username, Rating: r})
		}
	}
	slices.SortFunc(out, func(a, b Leader) int {
		if c := cmp.Compare(b.Rating.Rating, a.Rating.Rating); c != 0 {
			return c
		}
		return cmp.Compare(a.Username, b.Username)
	})
	return out[:min(len(out), limit)], nil
}

const leaderQuery = `SELECT r.account, a.username, r.rating, r.rd, r.volatility, r.games, r.updated
	FROM ratings r JOIN accounts a ON a.id = r.account
	WHERE r.speed = $1 AND r.updated >= $2 AND r.rd <= $3 AND a.username <> ''
	ORDER BY r.rating DESC, a.username LIMIT $4`

// Leaderboard returns speed's leaders.
func (s *SQLite) Leaderboard(ctx context.Context, speed string, since time.Time, maxRD float64, limit int) ([]Leader, error) {
	rows, err := s.rdb.QueryContext(ctx, leaderQuery, speed, since.UnixNano(), maxRD, limit)
	if err != nil {
		return nil, fmt.Errorf("store: reading a leaderboard: %w", err)
	}
	defer rows.Close()
	var out []Leader
	for rows.Next() {
		var l Leader
		var updated int64
		if err := rows.Scan(&l.Account, &l.Username, &l.Rating.Rating, &l.Rating.RD, &l.Rating.Volatility, &l.Rating.Games, &updated); err != nil {
			return nil, err
		}
		l.Rating.Updated = time.Unix(0, updated)
		out = append(out, l)
	}
	return out, rows.Err()
}

// Leaderboard returns speed's leaders.
func (p *Postgres) Leaderboard(ctx context.Context, speed string, since time.Time, maxRD float64, limit int) ([]Leader, error) {
	rows, err := p.pool.Query(ctx, leaderQuery, speed, since, maxRD, limit)
	if err != nil {
		return nil, fmt.Errorf("store: reading a leaderboard: %w", err)
	}
	defer rows.Close()
	var out []Leader
	for rows.Next() {
		var l Leader
		if err := rows.Scan(&l.Account, &l.Username, &l.Rating.Rating, &l.Rating.RD, &l.Rating.Volatility, &l.Rating.Games, &l.Rating.Updated); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}
