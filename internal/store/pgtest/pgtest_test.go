package pgtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// recorder is a testing.TB that notes Skipf and Fatalf and stops there.
type recorder struct {
	testing.TB
	skipped, failed string
}

type stopped struct{}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	panic(stopped{})
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	panic(stopped{})
}

// start runs Start(r), stopping where r stops.
func start(r *recorder) {
	defer func() {
		if v := recover(); v != nil && v != (stopped{}) {
			panic(v)
		}
	}()
	Start(r)
}

// TestMissingBinaries: without PostgreSQL, Start skips with the command
// that installs it, except with CI=true, where it fails.
func TestMissingBinaries(t *testing.T) {
	old := debianBinaries
	defer func() { debianBinaries = old }()
	debianBinaries = filepath.Join(t.TempDir(), "*", "bin")
	t.Setenv("PATH", t.TempDir())
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		r := &recorder{TB: t}
		start(r)
		if ci == "true" && (r.failed == "" || r.skipped != "") {
			t.Errorf("CI=true: skipped %q, failed %q; want a failure", r.skipped, r.failed)
		}
		if ci == "" && (r.skipped == "" || r.failed != "") {
			t.Errorf("CI unset: skipped %q, failed %q; want a skip", r.skipped, r.failed)
		}
		if msg := r.skipped + r.failed; !strings.Contains(msg, "apt-get install -y postgresql") {
			t.Errorf("message %q does not say how to install PostgreSQL", msg)
		}
	}
}
