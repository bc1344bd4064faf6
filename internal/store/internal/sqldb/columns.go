// Package sqldb holds what the SQLite and PostgreSQL stores share: the
// statements whose text the two dialects agree on (statements.go), and
// how columns are encoded (this file). It is internal to the stores:
// nothing outside internal/store reads it.
package sqldb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"oanquan/internal/rating"
	"oanquan/internal/store"
)

// ParseRatingChange reads a game's rating_change column ("" for none).
func ParseRatingChange(s string) (*store.RatingChange, error) {
	if s == "" {
		return nil, nil
	}
	var rc store.RatingChange
	if err := json.Unmarshal([]byte(s), &rc); err != nil {
		return nil, err
	}
	return &rc, nil
}

// RatingJSON is a rating as the history keeps it.
func RatingJSON(r rating.Rating) string {
	b, _ := json.Marshal(r) // plain numbers and a time always marshal
	return string(b)
}

// NonNil returns s, or an empty slice for nil (a JSON column reads
// [] rather than null).
func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// SeatColumns names the column of each seat's hash; a column name
// cannot be a parameter.
var SeatColumns = [2]string{"seat0", "seat1"}

// NullText is s for a nullable text column, NULL for "".
func NullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// PosterBytes returns p, or an empty slice (the column is NOT NULL) for nil.
func PosterBytes(p []byte) []byte {
	if p == nil {
		return []byte{}
	}
	return p
}

// CollectPairs reads rows of (account, blocked) into BlockedAmong's map.
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

// Refusal reports whether err is one a change returns before writing
// anything.
func Refusal(err error) bool {
	return errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrExists) || errors.Is(err, store.ErrNoAccount) || errors.Is(err, store.ErrUnrated) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
