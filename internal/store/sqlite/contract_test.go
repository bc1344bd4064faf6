package sqlite

import (
	"context"
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
	"path/filepath"
	"testing"
)

func openSQLiteTemp(t *testing.T) store.Store {
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "games.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSQLiteContract(t *testing.T) { storetest.Contract(t, openSQLiteTemp) }
