package stores

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"oanquan/internal/store"
	"oanquan/internal/store/sqlite"
	"oanquan/internal/store/storetest"
)

// TestUnavailable: a deadline or a cancellation is the caller's; the
// backends' refusals are told apart.
func TestUnavailable(t *testing.T) {
	storetest.CheckUnavailable(t, Unavailable, []storetest.UnavailableCase{
		{Name: "nil", Err: nil, Reason: ""},
		{Name: "deadline", Err: fmt.Errorf("store: %w", context.DeadlineExceeded), Reason: ""},
		{Name: "canceled", Err: context.Canceled, Reason: ""},
		{Name: "closed", Err: fmt.Errorf("store: saving: %w", sqlite.ErrClosed), Reason: "closed"},
		{Name: "postgres read-only", Err: &pgconn.PgError{Code: "25006"}, Reason: "read-only"},
		{Name: "not found", Err: store.ErrNotFound, Reason: ""},
	})
}
