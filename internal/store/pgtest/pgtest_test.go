package pgtest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestStart(t *testing.T) {
	url := Start(t)
	t.Logf("server started in %v", server.Startup)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT 1 + 1").Scan(&n); err != nil || n != 2 {
		t.Fatalf("SELECT 1 + 1 = %d, %v; want 2, nil", n, err)
	}
}

// TestStartServerStop checks that Stop removes the server's directory.
func TestStartServerStop(t *testing.T) {
	if _, err := Binaries(); err != nil {
		t.Skip(err)
	}
	s, err := StartServer()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if _, err := os.Stat(s.dir); !os.IsNotExist(err) {
		t.Errorf("after Stop, %s: %v; want it gone", s.dir, err)
	}
}
