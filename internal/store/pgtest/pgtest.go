// Package pgtest starts a real PostgreSQL server for tests: Debian's
// binaries (package postgresql), a cluster in a temporary directory, one
// server per test binary, and a fresh database for each caller.
//
//	func TestSomething(t *testing.T) {
//		url := pgtest.Start(t) // postgres://postgres@127.0.0.1:PORT/t_1
//		s, err := postgres.Open(ctx, url, nil)
//		…
//	}
//
// The server runs with fsync off (-F): it is for tests, not for figures
// about durability, unless the environment has PGTEST_FSYNC=1 (for
// benchmarks that should pay for durable commits). Without the binaries Start skips the test, saying
// how to install them, except when the environment has CI=true: there it
// fails the test.
//
// The server is started by the first Start in a test binary and stops
// when that binary exits, however it exits: a small shell that watches a
// pipe from the test process stops the server and removes its directory
// when the pipe closes. Each database is dropped when its test ends.
package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Start returns the URL of a new, empty database on the test binary's
// PostgreSQL server, starting the server if this is the first call. The
// database is dropped when t ends. It skips t (or, with CI=true, fails
// it) when PostgreSQL is not installed.
func Start(t testing.TB) string {
	t.Helper()
	if _, err := Binaries(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pgtest: %v (CI=true: PostgreSQL tests must run)", err)
		}
		t.Skipf("pgtest: %v", err)
	}
	srv, err := shared()
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	name := fmt.Sprintf("t_%d", dbCount.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.admin(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// FORCE ends the connections a test left open.
		if err := srv.admin(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return srv.url(name)
}

var (
	once    sync.Once
	server  *Server
	onceErr error
	dbCount atomic.Int64
)

// shared starts the test binary's server once.
func shared() (*Server, error) {
	once.Do(func() { server, onceErr = StartServer() })
	return server, onceErr
}

// errNoBinaries: PostgreSQL is not installed.
var errNoBinaries = errors.New("PostgreSQL binaries (initdb, postgres) not found in /usr/lib/postgresql/*/bin or $PATH: apt-get install -y postgresql")

// Server is a PostgreSQL server in a temporary directory, reached on
// 127.0.0.1 as the superuser postgres, without a password.
type Server struct {
	Port    int           // on 127.0.0.1
	Startup time.Duration // from StartServer's call until it accepted connections
	dir     string
	stop    *os.File // the write end of the watchdog's pipe
	exited  chan error
}

// Binaries returns the directory that holds initdb and postgres: the
// newest /usr/lib/postgresql/N/bin (Debian), else the one in $PATH.
func Binaries() (string, error) {
	dirs, _ := filepath.Glob(debianBinaries)
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if isExec(filepath.Join(d, "initdb")) && isExec(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	initdb, err1 := exec.LookPath("initdb")
	postgres, err2 := exec.LookPath("postgres")
	if err1 == nil && err2 == nil && filepath.Dir(initdb) == filepath.Dir(postgres) {
		return filepath.Dir(initdb), nil
	}
	return "", errNoBinaries
}

// debianBinaries is where Debian's postgresql packages put the binaries
// (a variable for tests).
var debianBinaries = "/usr/lib/postgresql/*/bin"

// version is N in /usr/lib/postgresql/N/bin.
func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func isExec(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// StartServer initializes a cluster in a new temporary directory and
// starts a server on it, on a free port of 127.0.0.1. The server stops,
// and its directory goes, at Stop or when this process exits. Most tests
// want Start instead.
func StartServer() (*Server, error) {
	begin := time.Now()
	bin, err := Binaries()
	if err != nil {
		return nil, err
	}
	// As root, the server runs as postgres, which must reach its
	// directory: under /tmp, whatever $TMPDIR is.
	base := ""
	if os.Geteuid() == 0 {
		base = "/tmp"
	}
	dir, err := os.MkdirTemp(base, "pgtest-")
	if err != nil {
		return nil, err
	}
	cred, err := credential(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale", "C")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	s := &Server{dir: dir}
	for attempt := 0; ; attempt++ {
		err = s.launch(bin, data, cred)
		if err == nil || attempt == 3 {
			break
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s.Startup = time.Since(begin)
	return s, nil
}

// credential returns whom to run PostgreSQL as: the postgres user when
// this process is root (initdb refuses root), after giving it dir; nil
// (this process's user) otherwise.
func credential(dir string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, and no user postgres to run PostgreSQL as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// watchdog runs postgres and a watcher that waits until its standard
// input (a pipe from this process) closes — at Stop, or when this process
// exits however it exits — then stops postgres (fast shutdown, SIGKILL
// after 10 s); the directory is then removed. If postgres exits by itself,
// its log goes to standard error and the directory stays for
// StartServer to retry or remove.
const watchdog = `
exec 3<&0 </dev/null
"$0" "$@" >"$PGTEST_DIR/log" 2>&1 &
pid=$!
(
	while read -r _; do :; done <&3
	touch "$PGTEST_DIR/stopping"
	kill -INT $pid
	for i in $(seq 100); do kill -0 $pid || exit 0; sleep 0.1; done
	kill -KILL $pid
) >/dev/null 2>&1 &
watcher=$!
exec 3<&-
wait $pid
status=$?
if [ -e "$PGTEST_DIR/stopping" ]; then
	wait $watcher
	rm -rf "$PGTEST_DIR"
	exit 0
fi
kill $watcher 2>/dev/null
cat "$PGTEST_DIR/log" >&2
exit $status
`

// launch starts the server on a free port and waits until it accepts
// connections.
func (s *Server) launch(bin, data string, cred *syscall.Credential) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	return s.launchOn(port, bin, data, cred)
}

// launchOn is launch on the given port.
func (s *Server) launchOn(port int, bin, data string, cred *syscall.Credential) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	args := []string{"-c", watchdog, filepath.Join(bin, "postgres"),
		"-D", data, "-k", s.dir, "-h", "127.0.0.1", "-p", strconv.Itoa(port),
		"-c", "max_connections=300", "-c", "shared_buffers=32MB"}
	if os.Getenv("PGTEST_FSYNC") == "" {
		args = append(args, "-F")
	}
	cmd := exec.Command("/bin/sh", args...)
	cmd.Env = append(os.Environ(), "PGTEST_DIR="+s.dir)
	cmd.Stdin = r
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	// Its own process group: a ^C to the test run reaches the test
	// binary, which closes the pipe; the server shuts down cleanly.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return err
	}
	r.Close()
	exited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		if err != nil {
			err = fmt.Errorf("%v\n%s", err, stderr.Bytes())
		}
		exited <- err
	}()
	s.Port, s.stop, s.exited = port, w, exited
	if err := s.waitReady(); err != nil {
		w.Close()
		return err
	}
	return nil
}

// waitReady polls until the server accepts a connection, it exits, or
// 30 s pass.
func (s *Server) waitReady() error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn, err := pgx.Connect(ctx, s.url("postgres"))
		cancel()
		if err == nil {
			return conn.Close(context.Background())
		}
		select {
		case werr := <-s.exited:
			return fmt.Errorf("postgres exited before accepting connections: %v", werr)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not accept connections on port %d within 30 s: %v", s.Port, err)
		}
	}
}

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// url returns the URL of database name.
func (s *Server) url(name string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.Port, name)
}

// URL returns the URL of database name on s.
func (s *Server) URL(name string) string { return s.url(name) }

// admin runs sql on the postgres database.
func (s *Server) admin(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, s.url("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}

// Crash kills the server as a power cut would (SIGKILL to the
// postmaster: no shutdown, no checkpoint), then starts it again on the
// same port and data, where it recovers from its write-ahead log; it
// returns once the server accepts connections again. For fault tests:
// clients see their connections fail, then a server that has kept every
// committed change (with PGTEST_FSYNC set; without it, as the kernel
// kept the files).
func (s *Server) Crash() error {
	data := filepath.Join(s.dir, "data")
	pidText, err := os.ReadFile(filepath.Join(data, "postmaster.pid"))
	if err != nil {
		return fmt.Errorf("pgtest: the server's pid: %w", err)
	}
	first, _, _ := strings.Cut(string(pidText), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil {
		return fmt.Errorf("pgtest: postmaster.pid begins %q", first)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		return fmt.Errorf("pgtest: killing postgres: %w", err)
	}
	<-s.exited // the watchdog ends with it, keeping the directory
	s.stop.Close()
	bin, err := Binaries()
	if err != nil {
		return err
	}
	cred, err := credential(s.dir)
	if err != nil {
		return err
	}
	// The killed server's backends leave a moment after it: until then
	// its shared memory is in use, and a new server refuses to start.
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := s.launchOn(s.Port, bin, data, cred)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Stop stops the server and removes its directory, and waits for both.
func (s *Server) Stop() error {
	s.stop.Close()
	return <-s.exited
}
