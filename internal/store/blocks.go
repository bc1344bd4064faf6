package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// Blocks keeps who blocked whom (issue 21, item 5): a blocked pair of
// accounts is never paired, either way. The SQLite, Postgres and Memory
// stores implement it with the same contract (blocks_test.go). Methods
// that change something are durable when they return without error.
type Blocks interface {
	// Block records that account blocks other; blocking again is no
	// error.
	Block(ctx context.Context, account, other string, at time.Time) error
	// Unblock forgets that account blocks other; none is no error.
	Unblock(ctx context.Context, account, other string) error
	// Blocked returns the accounts account blocks, in the order blocked.
	Blocked(ctx context.Context, account string) ([]string, error)
	// BlockedWith returns the accounts account blocks or is blocked by:
	// those it is never paired with.
	BlockedWith(ctx context.Context, account string) (map[string]bool, error)
	// BlockedAmong returns, for each of accounts that blocks or is
	// blocked by anyone, the accounts it blocks or is blocked by (as
	// BlockedWith), in one read: the lobby's, for all its sockets at
	// once. Accounts with none are absent.
	BlockedAmong(ctx context.Context, accounts []string) (map[string]map[string]bool, error)
}

var (
	_ Blocks = (*Memory)(nil)
	_ Blocks = (*SQLite)(nil)
	_ Blocks = (*Postgres)(nil)
)

// memoryBlock is one block the Memory store keeps.
type memoryBlock struct {
	account, other string
	at             time.Time
}

// Block records that account blocks other.
func (m *Memory) Block(ctx context.Context, account, other string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.ContainsFunc(m.blocks, func(b memoryBlock) bool { return b.account == account && b.other == other }) {
		m.blocks = append(m.blocks, memoryBlock{account, other, at})
	}
	return nil
}

// Unblock forgets that account blocks other.
func (m *Memory) Unblock(ctx context.Context, account, other string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.blocks = slices.DeleteFunc(m.blocks, func(b memoryBlock) bool { return b.account == account && b.other == other })
	return nil
}

// Blocked returns the accounts account blocks.
func (m *Memory) Blocked(ctx context.Context, account string) ([]string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []string
	for _, b := range m.blocks {
		if b.account == account {
			out = append(out, b.other)
		}
	}
	return out, nil
}

// BlockedWith returns the accounts account blocks or is blocked by.
func (m *Memory) BlockedWith(ctx context.Context, account string) (map[string]bool, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := map[string]bool{}
	for _, b := range m.blocks {
		switch account {
		case b.account:
			out[b.other] = true
		case b.other:
			out[b.account] = true
		}
	}
	return out, nil
}

// BlockedAmong returns the accounts each of accounts blocks or is
// blocked by.
func (m *Memory) BlockedAmong(ctx context.Context, accounts []string) (map[string]map[string]bool, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	among := setOf(accounts)
	out := map[string]map[string]bool{}
	for _, b := range m.blocks {
		pairBlocked(out, among, b.account, b.other)
	}
	return out, nil
}

// pairBlocked records in out that account blocks other, for whichever
// of the two is among those asked of.
func pairBlocked(out map[string]map[string]bool, among map[string]bool, account, other string) {
	for _, p := range [2][2]string{{account, other}, {other, account}} {
		if !among[p[0]] {
			continue
		}
		if out[p[0]] == nil {
			out[p[0]] = map[string]bool{}
		}
		out[p[0]][p[1]] = true
	}
}

// Block records that account blocks other.
func (s *SQLite) Block(ctx context.Context, account, other string, at time.Time) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		_, err := w.exec(`INSERT INTO blocks (account, blocked, created) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, account, other, at.UnixNano())
		return err
	})
}

// Unblock forgets that account blocks other.
func (s *SQLite) Unblock(ctx context.Context, account, other string) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		_, err := w.exec(`DELETE FROM blocks WHERE account = ? AND blocked = ?`, account, other)
		return err
	})
}

// Blocked returns the accounts account blocks.
func (s *SQLite) Blocked(ctx context.Context, account string) ([]string, error) {
	return collectIDs(s.rdb.QueryContext(ctx, `SELECT blocked FROM blocks WHERE account = ? ORDER BY created, blocked`, account))
}

// BlockedWith returns the accounts account blocks or is blocked by.
func (s *SQLite) BlockedWith(ctx context.Context, account string) (map[string]bool, error) {
	ids, err := collectIDs(s.rdb.QueryContext(ctx, `SELECT blocked FROM blocks WHERE account = ? UNION SELECT account FROM blocks WHERE blocked = ?`, account, account))
	return setOf(ids), err
}

// BlockedAmong returns the accounts each of accounts blocks or is
// blocked by.
func (s *SQLite) BlockedAmong(ctx context.Context, accounts []string) (map[string]map[string]bool, error) {
	list, _ := json.Marshal(accounts)
	rows, err := s.rdb.QueryContext(ctx, `SELECT account, blocked FROM blocks
		WHERE account IN (SELECT value FROM json_each(?1)) OR blocked IN (SELECT value FROM json_each(?1))`, string(list))
	return collectPairs(rows, err, accounts)
}

// Block records that account blocks other, and tells the other servers'
// lobbies (NOTIFY, on commit), which list the seeks anew without the
// blocked pair's.
func (p *Postgres) Block(ctx context.Context, account, other string, at time.Time) error {
	_, err := p.pool.Exec(ctx, `WITH b AS (INSERT INTO blocks (account, blocked, created) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING)
		SELECT `+lobbyNotifyAll, account, other, at)
	if err != nil {
		return fmt.Errorf("store: blocking: %w", err)
	}
	return nil
}

// Unblock forgets that account blocks other, and tells the other
// servers' lobbies.
func (p *Postgres) Unblock(ctx context.Context, account, other string) error {
	if _, err := p.pool.Exec(ctx, `WITH d AS (DELETE FROM blocks WHERE account = $1 AND blocked = $2)
		SELECT `+lobbyNotifyAll, account, other); err != nil {
		return fmt.Errorf("store: unblocking: %w", err)
	}
	return nil
}

// Blocked returns the accounts account blocks.
func (p *Postgres) Blocked(ctx context.Context, account string) ([]string, error) {
	rows, err := p.pool.Query(ctx, `SELECT blocked FROM blocks WHERE account = $1 ORDER BY created, blocked`, account)
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
func (p *Postgres) BlockedWith(ctx context.Context, account string) (map[string]bool, error) {
	rows, err := p.pool.Query(ctx, `SELECT blocked FROM blocks WHERE account = $1 UNION SELECT account FROM blocks WHERE blocked = $1`, account)
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
func (p *Postgres) BlockedAmong(ctx context.Context, accounts []string) (map[string]map[string]bool, error) {
	rows, err := p.pool.Query(ctx, `SELECT account, blocked FROM blocks WHERE account = ANY($1) OR blocked = ANY($1)`, accounts)
	if err != nil {
		return nil, fmt.Errorf("store: reading blocks: %w", err)
	}
	return collectPairs(pgRows{rows}, nil, accounts)
}

// pgRows gives pgx's rows the Close of database/sql's.
type pgRows struct{ pgx.Rows }

// Close closes the rows.
func (r pgRows) Close() error { r.Rows.Close(); return nil }

// collectPairs reads rows of (account, blocked) into BlockedAmong's map.
func collectPairs(rows interface {
	Next() bool
	Scan(...any) error
	Err() error
	Close() error
}, err error, accounts []string) (map[string]map[string]bool, error) {
	if err != nil {
		return nil, fmt.Errorf("store: reading blocks: %w", err)
	}
	defer rows.Close()
	among := setOf(accounts)
	out := map[string]map[string]bool{}
	for rows.Next() {
		var a, b string
		if err := rows.Scan(&a, &b); err != nil {
			return nil, err
		}
		pairBlocked(out, among, a, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reading blocks: %w", err)
	}
	return out, nil
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

func setOf(ids []string) map[string]bool {
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}
