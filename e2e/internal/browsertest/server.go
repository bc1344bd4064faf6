package browsertest

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"oanquan/internal/server"
)

// StartServer starts the real game server in-process, with the embedded
// page, for the length of the test.
func StartServer(t *testing.T) string {
	s := server.New(server.Config{})
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		s.Close()
	})
	return ts.URL
}

// Program is the real server program, serving games from a SQLite file, that a
// test can kill with SIGKILL and start again on the same address.
type Program struct {
	t    *testing.T
	bin  string
	args []string
	Base string
	cmd  *exec.Cmd
	log  bytes.Buffer
}

// BuildServer builds cmd/oanquan and starts it on a free loopback port
// with its games in a new SQLite file.
func BuildServer(t *testing.T) *Program {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "oanquan")
	if out, err := exec.Command("go", "build", "-o", bin, "oanquan/cmd/oanquan").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := &Program{t: t, bin: bin, Base: "http://" + addr,
		args: []string{"--addr", addr, "--db", filepath.Join(dir, "games.db"), "--new-games-per-minute", "0"}}
	s.Start()
	t.Cleanup(func() {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		if t.Failed() {
			t.Logf("server log:\n%s", s.log.String())
		}
	})
	return s
}

// Start runs the server and waits until it answers /api/health.
func (s *Program) Start() {
	s.t.Helper()
	s.cmd = exec.Command(s.bin, s.args...)
	s.cmd.Stdout, s.cmd.Stderr = &s.log, &s.log
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	client := http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if res, err := client.Get(s.Base + "/api/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
	}
	s.t.Fatalf("the server did not come up:\n%s", s.log.String())
}

// Kill ends the server with SIGKILL: nothing is given up cleanly.
func (s *Program) Kill() {
	s.t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		s.t.Fatal(err)
	}
	s.cmd.Wait()
}

// RealServer builds and starts the real program (BuildServer) for a test
// that kills it or cuts its pages off, and has the test's pages use it;
// without chromium the test is skipped first (but for CI=true).
func RealServer(t *testing.T) *Program {
	t.Helper()
	if ChromiumPath() == "" && os.Getenv("CI") != "true" {
		t.Skip("chromium not found: apt-get install -y chromium")
	}
	srv := BuildServer(t)
	t.Setenv("E2E_URL", srv.Base)
	return srv
}

// Signal sends sig to the running server: SIGSTOP freezes it (it answers
// nothing, and closes no connection), SIGCONT lets it go on.
func (s *Program) Signal(sig os.Signal) error { return s.cmd.Process.Signal(sig) }
