package server

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"oanquan/internal/store/postgres"

	"oanquan/internal/store/memory"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/wire"
)

// TestHealthStoreReadOnly: when the database turns read-only, readiness
// (/api/health, /api/health/ready) answers 503 unavailable with the
// reason and Retry-After while liveness still answers 200, a move is
// refused 503 unavailable with Retry-After (not 500 internal) and the
// game is unchanged; once the database takes changes again, so does the
// server.
func TestHealthStoreReadOnly(t *testing.T) {
	url := pgtest.Start(t)
	st, err := postgres.Open(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var logged bytes.Buffer
	s := newServer(t, Config{Store: st, Log: slog.New(slog.NewTextHandler(&logged, nil))})
	s.probe.TTL = 0 // probe at every check
	g := create(t, s, map[string]any{"mode": "local"})
	if r := do(t, s, "GET", "/api/health", nil); r.status != 200 {
		t.Fatalf("health of a working store: %s", r)
	}

	readOnly(t, url, true)
	for _, path := range []string{"/api/health", "/api/health/ready"} {
		// Each pooled connection the database ended fails once, with
		// 57P01 (unavailable too), before a new one meets read-only.
		r := do(t, s, "GET", path, nil)
		for deadline := time.Now().Add(guard); r.status == 503 && strings.Contains(string(r.body), "57P01") && time.Now().Before(deadline); {
			r = do(t, s, "GET", path, nil)
		}
		wantError(t, r, 503, "unavailable")
		if !strings.Contains(string(r.body), "read-only") || r.header.Get("Retry-After") != "5" {
			t.Errorf("%s with the database read-only: %s, Retry-After %q; want the reason and 5 s", path, r, r.header.Get("Retry-After"))
		}
	}
	if r := do(t, s, "GET", "/api/health/live", nil); r.status != 200 {
		t.Errorf("liveness with the database read-only: %s, want 200", r)
	}
	r := do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": g.Legal[0]})
	wantError(t, r, 503, "unavailable")
	if r.header.Get("Retry-After") != "5" || !strings.Contains(string(r.body), "cannot be saved") {
		t.Errorf("a move with the database read-only: %s, Retry-After %q", r, r.header.Get("Retry-After"))
	}
	if got := get(t, s, g.ID); len(got.Moves) != 0 {
		t.Errorf("the move refused is in the game: %v", got.Moves)
	}
	if !strings.Contains(logged.String(), "store unavailable") {
		t.Errorf("nothing logged of the store:\n%s", logged.String())
	}

	readOnly(t, url, false)
	deadline := time.Now().Add(guard)
	for do(t, s, "GET", "/api/health", nil).status != 200 {
		if time.Now().After(deadline) {
			t.Fatal("health did not come back once the database took changes again")
		}
		time.Sleep(20 * time.Millisecond)
	}
	must[wire.Turn](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": g.Legal[0]}), 200)
}

// readOnly makes the database at url read-only, or writable again, for
// new connections, and ends the others, so that pools make new ones.
func readOnly(t *testing.T, url string, on bool) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		"SET default_transaction_read_only = off", // this session, to change it back
		fmt.Sprintf("ALTER DATABASE %s SET default_transaction_read_only = %v", conn.Config().Database, on),
		"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
}

// countingStore is a memory store whose probe counts its calls.
type countingStore struct {
	*memory.DB
	probes int
}

func (c *countingStore) Probe(ctx context.Context) error { c.probes++; return nil }

// TestHealthProbeCached: health checks share one probe for its time to
// live, and a request that found the store unavailable makes the next
// check probe at once.
func TestHealthProbeCached(t *testing.T) {
	st := &countingStore{DB: memory.New()}
	s := newServer(t, Config{Store: st})
	s.probe.TTL = time.Hour
	for range 3 {
		if r := do(t, s, "GET", "/api/health", nil); r.status != 200 {
			t.Fatalf("health: %s", r)
		}
	}
	if st.probes != 1 {
		t.Errorf("%d probes for 3 health checks within the time to live, want 1", st.probes)
	}
	s.probe.Forget()
	do(t, s, "GET", "/api/health/ready", nil)
	if st.probes != 2 {
		t.Errorf("%d probes after forget, want 2", st.probes)
	}
}
