package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// PlayerGames lists the games an account played (issue 21, profiles):
// the SQLite, Postgres and Memory stores implement it with the same
// contract (playergames_test.go).
type PlayerGames interface {
	// GamesOf returns the ids of the games account plays or played (in
	// either seat) created before before, newest first (then by id), at
	// most limit.
	GamesOf(ctx context.Context, account string, before time.Time, limit int) ([]string, error)
	// RatedInPlay returns the ids of the rated games account plays that
	// go on: both seats held by accounts, not finished and not rated
	// yet (the games a deletion of the account resigns first).
	RatedInPlay(ctx context.Context, account string) ([]string, error)
}

var (
	_ PlayerGames = (*Memory)(nil)
	_ PlayerGames = (*SQLite)(nil)
	_ PlayerGames = (*Postgres)(nil)
)

// GamesOf returns account's games created before before, newest first.
func (m *Memory) GamesOf(ctx context.Context, account string, before time.Time, limit int) ([]string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var gs []*Game
	for _, g := range m.games {
		if account != "" && (g.Accounts[0] == account || g.Accounts[1] == account) && g.Created.Before(before) {
			gs = append(gs, g)
		}
	}
	slices.SortFunc(gs, func(a, b *Game) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	out := []string{}
	for _, g := range gs[:min(len(gs), limit)] {
		out = append(out, g.ID)
	}
	return out, nil
}

// RatedInPlay returns account's rated games that go on.
func (m *Memory) RatedInPlay(ctx context.Context, account string) ([]string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := []string{}
	for id, g := range m.games {
		_, finished := m.finished[id]
		if account != "" && (g.Accounts[0] == account || g.Accounts[1] == account) && g.Accounts[0] != "" && g.Accounts[1] != "" &&
			g.Rated != "" && g.RatingChange == nil && !finished {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

// GamesOf returns account's games created before before, newest first.
func (s *SQLite) GamesOf(ctx context.Context, account string, before time.Time, limit int) ([]string, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT id FROM games WHERE (account0 = ?1 OR account1 = ?1) AND created < ?2 ORDER BY created DESC, id LIMIT ?3`,
		account, before.UnixNano(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's games: %w", err)
	}
	return collectIDs(rows, nil)
}

// RatedInPlay returns account's rated games that go on.
func (s *SQLite) RatedInPlay(ctx context.Context, account string) ([]string, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT id FROM games WHERE (account0 = ?1 OR account1 = ?1) AND account0 IS NOT NULL AND account1 IS NOT NULL
		AND rated != '' AND rating_change = '' AND finished IS NULL ORDER BY id`, account)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's rated games in play: %w", err)
	}
	return collectIDs(rows, nil)
}

// RatedInPlay returns account's rated games that go on.
func (p *Postgres) RatedInPlay(ctx context.Context, account string) ([]string, error) {
	rows, err := p.pool.Query(ctx, `SELECT id FROM games WHERE (account0 = $1 OR account1 = $1) AND account0 IS NOT NULL AND account1 IS NOT NULL
		AND rated != '' AND rating_change = '' AND finished IS NULL ORDER BY id`, account)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's rated games in play: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// GamesOf returns account's games created before before, newest first.
func (p *Postgres) GamesOf(ctx context.Context, account string, before time.Time, limit int) ([]string, error) {
	rows, err := p.pool.Query(ctx, `SELECT id FROM games WHERE (account0 = $1 OR account1 = $1) AND created < $2 ORDER BY created DESC, id LIMIT $3`,
		account, before, limit)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's games: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
