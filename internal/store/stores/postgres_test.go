package stores

import (
	"strings"
	"testing"

	"oanquan/internal/store"
	"oanquan/internal/store/pgtest"
)

// TestOpenPostgres: Open takes a postgres:// URL and describes the
// database without the password.
func TestOpenPostgres(t *testing.T) {
	url := strings.Replace(pgtest.Start(t), "postgres@", "postgres:secret@", 1) // trust: any password does
	s, desc, err := Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, ok := s.(store.Notifier); !ok || !strings.HasPrefix(desc, "PostgreSQL database") || strings.Contains(desc, "secret") {
		t.Errorf("Open(%s) = %T, %q; want a Notifier, a description without the password", url, s, desc)
	}
	t.Log(desc)
}
