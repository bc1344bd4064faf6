package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"oanquan/internal/store/internal/sqldb"
)

// Block records that account blocks other, and tells the other servers'
// lobbies (NOTIFY, on commit), which list the seeks anew without the
// blocked pair's.
func (p *DB) Block(ctx context.Context, account, other string, at time.Time) error {
	_, err := p.pool.Exec(ctx, `WITH b AS (INSERT INTO blocks (account, blocked, created) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING)
		SELECT `+lobbyNotifyAll, account, other, at)
	if err != nil {
		return fmt.Errorf("store: blocking: %w", err)
	}
	return nil
}

// Unblock forgets that account blocks other, and tells the other
// servers' lobbies.
func (p *DB) Unblock(ctx context.Context, account, other string) error {
	if _, err := p.pool.Exec(ctx, `WITH d AS (DELETE FROM blocks WHERE account = $1 AND blocked = $2)
		SELECT `+lobbyNotifyAll, account, other); err != nil {
		return fmt.Errorf("store: unblocking: %w", err)
	}
	return nil
}

// Blocked returns the accounts account blocks.
func (p *DB) Blocked(ctx context.Context, account string) ([]string, error) {
	rows, err := p.pool.Query(ctx, sqldb.Blocked, account)
	if err != nil {
		return nil, fmt.Errorf("store: reading blocks: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// BlockedWith returns the accounts account blocks or is blocked by.
func (p *DB) BlockedWith(ctx context.Context, account string) (map[string]bool, error) {
	rows, err := p.pool.Query(ctx, sqldb.BlockedWith, account)
	if err != nil {
		return nil, fmt.Errorf("store: reading blocks: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

// BlockedAmong returns the accounts each of accounts blocks or is
// blocked by.
func (p *DB) BlockedAmong(ctx context.Context, accounts []string) (map[string]map[string]bool, error) {
	rows, err := p.pool.Query(ctx, `SELECT account, blocked FROM blocks WHERE account = ANY($1) OR blocked = ANY($1)`, accounts)
	if err != nil {
		return nil, fmt.Errorf("store: reading blocks: %w", err)
	}
	return sqldb.CollectPairs(pgRows{rows}, nil, accounts)
}

// pgRows gives pgx's rows the Close of database/sql's.
type pgRows struct{ pgx.Rows }

// Close closes the rows.
func (r pgRows) Close() error { r.Rows.Close(); return nil }
