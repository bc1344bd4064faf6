package stores

import (
	"context"
	"errors"

	"oanquan/internal/store/postgres"
	"oanquan/internal/store/sqlite"
)

// Unavailable reports whether err is a store that cannot be reached or
// written now (a full disk, a read-only file or filesystem, an I/O
// error, a database that is down, unreachable or read-only), rather than
// a fault of the program, and
// returns a short reason, without the error's own text (which may name
// files and hosts).
func Unavailable(err error) (reason string, ok bool) {
	// A deadline or a cancellation is the caller's, not news of the
	// store (context.DeadlineExceeded is a net.Error too): the caller
	// that set the time says what it means.
	if err == nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return "", false
	}
	if reason, ok := sqlite.Unavailable(err); ok {
		return reason, true
	}
	return postgres.Unavailable(err)
}
