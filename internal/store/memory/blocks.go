package memory

import (
	"context"
	"slices"
	"time"

	"oanquan/internal/store"
)

// memoryBlock is one block a DB keeps.
type memoryBlock struct {
	account, other string
	at             time.Time
}

// Block records that account blocks other.
func (m *DB) Block(ctx context.Context, account, other string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.ContainsFunc(m.blocks, func(b memoryBlock) bool { return b.account == account && b.other == other }) {
		m.blocks = append(m.blocks, memoryBlock{account, other, at})
	}
	return nil
}

// Unblock forgets that account blocks other.
func (m *DB) Unblock(ctx context.Context, account, other string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.blocks = slices.DeleteFunc(m.blocks, func(b memoryBlock) bool { return b.account == account && b.other == other })
	return nil
}

// Blocked returns the accounts account blocks.
func (m *DB) Blocked(ctx context.Context, account string) ([]string, error) {
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
func (m *DB) BlockedWith(ctx context.Context, account string) (map[string]bool, error) {
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
func (m *DB) BlockedAmong(ctx context.Context, accounts []string) (map[string]map[string]bool, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	among := store.SetOf(accounts)
	out := map[string]map[string]bool{}
	for _, b := range m.blocks {
		store.PairBlocked(out, among, b.account, b.other)
	}
	return out, nil
}
