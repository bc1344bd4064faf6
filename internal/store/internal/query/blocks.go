package query

import (
	"fmt"
	"oanquan/internal/store"
)

// collectPairs reads rows of (account, blocked) into BlockedAmong's map.
func CollectPairs(rows interface {
	Next() bool
	Scan(...any) error
	Err() error
	Close() error
}, err error, accounts []string) (map[string]map[string]bool, error) {
	if err != nil {
		return nil, fmt.Errorf("store: reading blocks: %w", err)
	}
	defer rows.Close()
	among := store.SetOf(accounts)
	out := map[string]map[string]bool{}
	for rows.Next() {
		var a, b string
		if err := rows.Scan(&a, &b); err != nil {
			return nil, err
		}
		store.PairBlocked(out, among, a, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reading blocks: %w", err)
	}
	return out, nil
}
