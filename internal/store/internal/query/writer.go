package query

import (
	"context"
	"errors"
	"oanquan/internal/store"
)

// refusal reports whether err is one a change returns before writing
// anything.
func Refusal(err error) bool {
	return errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrExists) || errors.Is(err, store.ErrNoAccount) || errors.Is(err, store.ErrUnrated) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
