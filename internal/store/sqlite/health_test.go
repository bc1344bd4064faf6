package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
)

// TestSQLiteUnavailable: the driver's error for a file that cannot be
// written is told apart from faults, with a reason that quotes nothing
// of the error; a fault is not.
func TestSQLiteUnavailable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s := openSQLiteAt(t, path)
	s.Close()
	ro, err := sql.Open("sqlite", sqliteDSN(path, "query_only(1)"))
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, roErr := ro.Exec(`UPDATE games SET level = 'x'`)
	_, syntaxErr := ro.Exec(`SELEC 1`)
	storetest.CheckUnavailable(t, Unavailable, []storetest.UnavailableCase{
		{Name: "sqlite read-only", Err: fmt.Errorf("store: saving: %w", roErr), Reason: "read-only"},
		{Name: "closed", Err: ErrClosed, Reason: "closed"},
		{Name: "sqlite syntax", Err: syntaxErr, Reason: ""},
		{Name: "not found", Err: store.ErrNotFound, Reason: ""},
		{Name: "other", Err: errors.New("boom"), Reason: ""},
	})
}
