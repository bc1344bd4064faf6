package postgres

import (
	"context"
	"oanquan/internal/store"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/storetest"
	"testing"
)

func openPostgresTemp(t *testing.T) store.Store {
	s, err := Open(context.Background(), pgtest.Start(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestPostgresContract(t *testing.T) { storetest.Contract(t, openPostgresTemp) }
