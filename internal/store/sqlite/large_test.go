package sqlite

import (
	"fmt"
	rand "math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
)

// TestSQLiteLarge saves many games of 40 moves each and reports the
// file's size and the process's resident memory, before and after
// reading some of them back; the games must all read back whole, and the
// process stay under maxLargeRSS (the store keeps the games on disk, not
// in memory). It is too long for the normal suite; .ci/run runs it alone:
//
//	OANQUAN_LARGE=100000 go test -run '^TestSQLiteLarge$' -v -timeout 30m ./internal/store
//
// OANQUAN_LARGE_DIR keeps the file in that directory (it is reused if it
// is there) instead of a temporary one.
func TestSQLiteLarge(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("OANQUAN_LARGE"))
	if games <= 0 {
		t.Skip("set OANQUAN_LARGE=100000 to run")
	}
	dir := os.Getenv("OANQUAN_LARGE_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, "large.db")
	s := openSQLiteAt(t, path)
	defer s.Close()
	t.Logf("start: %s", rss())

	id := func(i int) string { return fmt.Sprintf("%012x", uint64(i)*0x9E3779B97F4A7C15>>16) }
	moves := make([]string, 40)
	for i := range moves {
		moves[i] = fmt.Sprintf("%d%c", i%5+1, "LR"[i%2])
	}
	start := time.Now()
	var wg sync.WaitGroup
	const workers = 64
	for w := range workers {
		wg.Go(func() {
			for i := w; i < games; i += workers {
				err := s.Create(ctx, store.Game{ID: id(i), Mode: "ai", Level: "hard", Human: i % 2, Seed: uint64(i),
					Variants: []string{"borrow"}, Start: "5.5.5.5.5.10/5.5.5.5.5.10 0 0", Moves: moves,
					Seats: [2][]byte{make([]byte, 32), nil}, Created: time.Now()})
				if err != nil && !strings.Contains(err.Error(), "taken") {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	t.Logf("created %d games of 40 moves in %v", games, time.Since(start).Round(time.Millisecond))
	t.Logf("after creating: %s; file %s", rss(), fileSizes(path))

	start = time.Now()
	for range 10000 {
		g := storetest.MustGet(t, s, id(rand.IntN(games)))
		if len(g.Moves) != 40 {
			t.Fatalf("%s: %d moves", g.ID, len(g.Moves))
		}
	}
	t.Logf("10000 random Gets in %v", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	ids, err := s.Waiting(ctx, 100)
	t.Logf("Waiting(100): %d ids, %v, in %v", len(ids), err, time.Since(start))
	runtime.GC()
	t.Logf("after reading: %s", rss())
	if peak := statusKB("VmHWM"); peak > maxLargeRSS>>10 {
		t.Errorf("peak resident memory %d MiB, want at most %d MiB", peak>>10, maxLargeRSS>>20)
	}
}

// maxLargeRSS bounds TestSQLiteLarge's resident memory at its peak: about
// 40 MiB for 100,000 games when measured, well under a server's budget
// (docs/OPERATING.md).
const maxLargeRSS = 256 << 20

// statusKB returns a field of /proc/self/status in kB (VmRSS: resident
// memory now; VmHWM: at its peak), or 0 where there is none.
func statusKB(field string) int {
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb
		}
	}
	return 0
}

// rss returns the process's resident memory now and at its peak, and the
// Go heap.
func rss() string {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return fmt.Sprintf("RSS %d kB (peak %d kB), Go heap in use %d MiB", statusKB("VmRSS"), statusKB("VmHWM"), ms.HeapInuse>>20)
}

func fileSizes(path string) string {
	var parts []string
	for _, suffix := range []string{"", "-wal"} {
		if fi, err := os.Stat(path + suffix); err == nil {
			parts = append(parts, fmt.Sprintf("%s %.1f MiB", filepath.Base(path+suffix), float64(fi.Size())/(1<<20)))
		}
	}
	return strings.Join(parts, ", ")
}
