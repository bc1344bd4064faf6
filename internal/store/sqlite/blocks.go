package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"oanquan/internal/store"
	"oanquan/internal/store/internal/sqldb"
)

// Block records that account blocks other.
func (s *DB) Block(ctx context.Context, account, other string, at time.Time) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		_, err := w.exec(`INSERT INTO blocks (account, blocked, created) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, account, other, at.UnixNano())
		return err
	})
}

// Unblock forgets that account blocks other.
func (s *DB) Unblock(ctx context.Context, account, other string) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		_, err := w.exec(`DELETE FROM blocks WHERE account = ? AND blocked = ?`, account, other)
		return err
	})
}

// Blocked returns the accounts account blocks.
func (s *DB) Blocked(ctx context.Context, account string) ([]string, error) {
	return collectIDs(s.rdb.QueryContext(ctx, sqliteBlocked, account))
}

// BlockedWith returns the accounts account blocks or is blocked by.
func (s *DB) BlockedWith(ctx context.Context, account string) (map[string]bool, error) {
	ids, err := collectIDs(s.rdb.QueryContext(ctx, sqliteBlockedWith, account))
	return store.SetOf(ids), err
}

// BlockedAmong returns the accounts each of accounts blocks or is
// blocked by.
func (s *DB) BlockedAmong(ctx context.Context, accounts []string) (map[string]map[string]bool, error) {
	list, _ := json.Marshal(accounts)
	rows, err := s.rdb.QueryContext(ctx, `SELECT account, blocked FROM blocks
		WHERE account IN (SELECT value FROM json_each(?1)) OR blocked IN (SELECT value FROM json_each(?1))`, string(list))
	return sqldb.CollectPairs(rows, err, accounts)
}

// collectIDs reads one text column of rows.
func collectIDs(rows interface {
	Next() bool
	Scan(...any) error
	Err() error
	Close() error
}, err error) ([]string, error) {
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

// The statements of Blocks on SQLite (sqldb's).
var (
	sqliteBlocked     = sqldb.SQLite(sqldb.Blocked)
	sqliteBlockedWith = sqldb.SQLite(sqldb.BlockedWith)
)
