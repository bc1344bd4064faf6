package store

import (
	"context"
	"time"
)

// Blocks keeps who blocked whom (issue 21, item 5): a blocked pair of
// accounts is never paired, either way. The SQLite, Postgres and Memory
// stores implement it with the same contract (storetest.Blocks). Methods
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

// PairBlocked records in out that account blocks other, for whichever
// of the two is among those asked of.
func PairBlocked(out map[string]map[string]bool, among map[string]bool, account, other string) {
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

// SetOf returns ids as a set.
func SetOf(ids []string) map[string]bool {
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}
