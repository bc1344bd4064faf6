package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"oanquan/ai"
	"oanquan/ai/endgames"
	"oanquan/internal/wire"
	"oanquan/notation"
	"oanquan/rules"
)

// logLines is a log the server writes to while a test reads it.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// lines returns the lines logged that contain s.
func (l *logLines) lines(s string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range strings.Split(l.buf.String(), "\n") {
		if strings.Contains(line, s) {
			out = append(out, line)
		}
	}
	return out
}

func slogTo(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }

// buildTable builds the endgame table of n pebbles in a new directory.
func buildTable(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	if err := endgames.Build(context.Background(), n, dir, endgames.BuildOptions{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// tableStart is a position with 3 pebbles on the board whose every move
// the table of 6 pebbles knows exactly, and which a search of 14 plies
// does not prove (a refill keeps pebbles going round): player 1 to move.
const tableStart = "1/0/1/0/0/0/0/0/1/0/0/0* 1 12,0,0 35,1,0 30"

// exactMoves returns what the table in dir proves of tableStart as the
// start of a game: each move's final difference (the mover's view), the
// position's, and its best move (the first that reaches it, as ai plays).
func exactMoves(t *testing.T, dir string) (moves map[string]int, value int, best string) {
	t.Helper()
	tb, err := endgames.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	pos, err := notation.ParsePosition(tableStart)
	if err != nil {
		t.Fatal(err)
	}
	var r rules.Rules
	// The game's first position occurs once: no move repeats one thrice.
	ms, b, ok := tb.Moves(&pos, &r, func(*rules.Position) bool { return false })
	if !ok || !b.Exact() {
		t.Fatalf("the table does not know %s exactly: %v", tableStart, b)
	}
	moves = map[string]int{}
	for _, m := range ms {
		if !m.Bounds.Exact() {
			t.Fatalf("the table does not know %s exactly: %v", m.Move, m.Bounds)
		}
		moves[notation.FormatMove(m.Move)] = endgames.Final(&pos, m.Bounds.Lo)
		if best == "" && m.Bounds.Lo >= b.Lo {
			best = notation.FormatMove(m.Move)
		}
	}
	return moves, endgames.Final(&pos, b.Lo), best
}

// recorder is package ai's engine, remembering what its searches were
// given and found.
type recorder struct {
	mu      sync.Mutex
	tables  []*endgames.Table // given to each search and hints
	results []ai.Result
}

func (r *recorder) Search(ctx context.Context, pos rules.Position, lim ai.Limits) (ai.Result, error) {
	res, err := ai.Search(ctx, pos, lim)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tables = append(r.tables, lim.Endgames)
	r.results = append(r.results, res)
	return res, err
}

func (r *recorder) Hints(ctx context.Context, pos rules.Position, lim ai.Limits) ([]ai.Hint, error) {
	r.mu.Lock()
	r.tables = append(r.tables, lim.Endgames)
	r.mu.Unlock()
	return ai.Hints(ctx, pos, lim)
}

// TestEndgamesExact: with a table (Config.Endgames), the hints, the
// review and the computer at Hard answer a position inside it from the
// table: every hint is the table's exact score, the review is proven at
// depth 0 (nothing searched), the computer's move is the table's,
// proven. The start says which table it uses.
func TestEndgamesExact(t *testing.T) {
	dir := buildTable(t, 6)
	moves, value, best := exactMoves(t, dir)
	var logged logLines
	eng := &recorder{}
	s := newServer(t, Config{Engine: eng, MoveTime: 5 * time.Second, Endgames: Endgames{Dir: dir, Offline: -1}, Log: slogTo(&logged)})
	fi, err := os.Stat(filepath.Join(dir, endgames.Name(6)))
	if err != nil {
		t.Fatal(err)
	}
	if l := logged.lines("endgame table used"); len(l) != 1 || !strings.Contains(l[0], "pebbles=6") || !strings.Contains(l[0], fmt.Sprintf("bytes=%d", fi.Size())) {
		t.Errorf("log at start %q, want one line naming the table of 6 pebbles and its size", l)
	}

	g := create(t, s, map[string]any{"mode": "local", "position": tableStart})
	hs := must[wire.Hints](t, do(t, s, "GET", "/api/games/"+g.ID+"/hints", nil), http.StatusOK)
	if len(hs.Hints) != len(moves) {
		t.Fatalf("%d hints, want %d", len(hs.Hints), len(moves))
	}
	for _, h := range hs.Hints {
		if want, ok := moves[h.Move]; !ok || h.Score != want {
			t.Errorf("hint %s scores %d, the table %d", h.Move, h.Score, want)
		}
	}
	must[wire.Turn](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": best}), http.StatusOK)
	rv := must[reviewRead](t, do(t, s, "GET", "/api/games/"+g.ID+"/review?ply=0", nil), http.StatusOK)
	// Scores of a review are player 0's view; player 1 moves here.
	if r := rv.Review; !r.Proven || r.Depth != 0 || r.Before != -value || r.After != -value || r.Loss != 0 {
		t.Errorf("review of the best move %s: %+v; want proven at depth 0 (from the table), before and after %d, no loss", best, r, -value)
	}

	// Against Hard, the computer (player 1) to move first.
	g = create(t, s, map[string]any{"mode": "ai", "level": "hard", "human": 0, "position": tableStart})
	for end := time.Now().Add(guard); len(g.Moves) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the computer did not move")
		}
		g = get(t, s, g.ID)
	}
	eng.mu.Lock()
	defer eng.mu.Unlock()
	for i, tb := range eng.tables {
		if tb == nil {
			t.Errorf("search %d of the engine given no endgame table", i)
		}
	}
	if len(eng.results) != 1 {
		t.Fatalf("%d searches of the computer's, want 1", len(eng.results))
	}
	if res := eng.results[0]; g.Moves[0] != best || !res.Proven || res.Depth != 0 || res.Score != value {
		t.Errorf("Hard played %s (%+v); want %s from the table: proven, depth 0, score %d", g.Moves[0], res, best, value)
	}
}

// TestEndgamesUnreadable: a table that is truncated, not a table, damaged
// (its checksum wrong), unfinished or cannot be read does not stop the
// server: it logs one line naming the file and why, and serves games and
// hints without it; with no page's table configured, the page is told
// there is none (404).
func TestEndgamesUnreadable(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(buildTable(t, 4), endgames.Name(4)))
	if err != nil {
		t.Fatal(err)
	}
	unfinished := append([]byte{}, good...)
	copy(unfinished[24:], []byte{2, 0, 0, 0}) // the header's pass
	damaged := append([]byte{}, good...)
	damaged[len(damaged)/2] ^= 1 // an entry's bound
	for _, c := range []struct {
		name, why string
		data      []byte // nil: a directory in the file's place
	}{
		{"truncated", "truncated", good[:len(good)-100]},
		{"not a table", "not an endgame table", append([]byte("XXXXXXXX"), good[8:]...)},
		{"damaged", "damaged", damaged},
		{"unfinished", "unfinished", unfinished},
		{"unreadable", "is a directory", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, endgames.Name(4))
			if c.data == nil {
				err = os.Mkdir(path, 0o700)
			} else {
				err = os.WriteFile(path, c.data, 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
			var logged logLines
			s := newServer(t, Config{Endgames: Endgames{Dir: dir, Offline: -1}, Log: slogTo(&logged)})
			g := create(t, s, map[string]any{"mode": "local"})
			must[wire.Hints](t, do(t, s, "GET", "/api/games/"+g.ID+"/hints", nil), http.StatusOK)
			s.Close() // the background work done
			if l := logged.lines(path); len(l) != 1 || !strings.Contains(l[0], "level=WARN") || !strings.Contains(l[0], "not used") || !strings.Contains(l[0], c.why) {
				t.Errorf("log %q, want one warning that the table %s is not used: %s", l, path, c.why)
			}
			if l := logged.lines("endgame table used"); len(l) != 0 {
				t.Errorf("log %q: a table used", l)
			}
			if r := do(t, s, "GET", offlineInfoPath, nil); r.status != http.StatusNotFound {
				t.Errorf("GET %s: %s, want 404", offlineInfoPath, r)
			}
		})
	}
}

// TestOfflineTable: with a directory that has no table, the server builds
// the page's table in the background and serves it: what it is at
// /offline/endgames.json, the file at an address named by its hash,
// gzipped or not, kept a year; it then also uses it for its own searches.
// Another server on the directory finds it there. The service worker is
// the same with or without it (no "new version" when it is built).
func TestOfflineTable(t *testing.T) {
	dir := t.TempDir()
	var logged logLines
	s := newServer(t, Config{Endgames: Endgames{Dir: dir, Offline: 4}, Log: slogTo(&logged)})
	var info struct {
		Pebbles, Bytes, Gzipped int
		Hash, URL               string
	}
	for end := time.Now().Add(guard); ; time.Sleep(10 * time.Millisecond) {
		r := do(t, s, "GET", offlineInfoPath, nil)
		if r.status == http.StatusOK {
			info = decodeAs[struct {
				Pebbles, Bytes, Gzipped int
				Hash, URL               string
			}](t, r)
			if r.header.Get("Cache-Control") != "no-cache" || r.header.Get("ETag") != `"`+info.Hash+`"` {
				t.Errorf("GET %s: headers %v, want no-cache and the hash as ETag", offlineInfoPath, r.header)
			}
			break
		}
		if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" || time.Now().After(end) {
			t.Fatalf("GET %s while the table is built: %s %v, want 503 with Retry-After", offlineInfoPath, r, r.header)
		}
	}
	file, err := os.ReadFile(filepath.Join(dir, endgames.Name(4)))
	if err != nil {
		t.Fatalf("the table built: %v", err)
	}
	sum := sha256.Sum256(file)
	if hash := hex.EncodeToString(sum[:12]); info.Pebbles != 4 || info.Bytes != len(file) || info.Hash != hash || info.URL != "/offline/endgames-"+hash+".egtb" {
		t.Errorf("table offered %+v, want 4 pebbles, %d bytes, hash %s at its address", info, len(file), hash)
	}

	req := httptest.NewRequest("GET", info.URL, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(w.Header().Get("Cache-Control"), "immutable") || !strings.Contains(w.Header().Get("Cache-Control"), "no-transform") || w.Body.Len() != info.Gzipped {
		t.Fatalf("GET %s (gzip): %d %v, %d bytes", info.URL, w.Code, w.Header(), w.Body.Len())
	}
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, file) {
		t.Errorf("GET %s (gzip): %d bytes unpacked (%v), not the file", info.URL, len(got), err)
	}
	if r := do(t, s, "GET", info.URL, nil); r.status != 200 || !bytes.Equal(r.body, file) {
		t.Errorf("GET %s: %d, %d bytes, want the file", info.URL, r.status, len(r.body))
	}
	for _, p := range []string{"/offline/endgames-" + strings.Repeat("0", 24) + ".egtb", "/offline/endgames-.egtb"} {
		if r := do(t, s, "GET", p, nil); r.status != http.StatusNotFound {
			t.Errorf("GET %s: %s, want 404", p, r)
		}
	}
	if l := logged.lines("endgame table used"); len(l) != 1 || !strings.Contains(l[0], "pebbles=4") {
		t.Errorf("log %q, want the table built used by the server's searches", l)
	}
	if l := logged.lines("level=WARN"); len(l) != 0 {
		t.Errorf("warnings %q, want none", l)
	}
	if s.endgames.table() == nil {
		t.Error("the server's searches read no table")
	}

	var again logLines
	s2 := newServer(t, Config{Endgames: Endgames{Dir: dir, Offline: 4}, Log: slogTo(&again)})
	none := newServer(t, Config{})
	s2.Close()
	if l := again.lines("building"); len(l) != 0 {
		t.Errorf("the table built again: %q", l)
	}
	if l := again.lines("endgame table for the page offline served"); len(l) != 1 || !strings.Contains(l[0], info.Hash) {
		t.Errorf("log %q, want the same table served", l)
	}
	if a, b := do(t, s, "GET", "/sw.js", nil), do(t, none, "GET", "/sw.js", nil); !bytes.Equal(a.body, b.body) {
		t.Error("sw.js differs with the table")
	}
}

// TestOfflineTableOldFormat: the page's table left in the directory by a
// server of an older format is refused (one warning naming it and its
// format), then built again in its place, served and used; alone, and
// beside a larger table that the server uses.
func TestOfflineTableOldFormat(t *testing.T) {
	for _, larger := range []bool{false, true} {
		dir := buildTable(t, 4)
		path := filepath.Join(dir, endgames.Name(4))
		good, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if larger {
			if err := endgames.Build(context.Background(), 5, dir, endgames.BuildOptions{Threads: 1}); err != nil {
				t.Fatal(err)
			}
		}
		old := append([]byte{}, good...)
		old[7] = '1' // the version after the magic
		if err := os.WriteFile(path, old, 0o644); err != nil {
			t.Fatal(err)
		}
		var logged logLines
		s := newServer(t, Config{Endgames: Endgames{Dir: dir, Offline: 4}, Log: slogTo(&logged)})
		for end := time.Now().Add(guard); do(t, s, "GET", offlineInfoPath, nil).status != http.StatusOK; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("larger %v: the table of format 1 not replaced: log %q", larger, logged.lines(""))
			}
		}
		s.Close()
		if l := logged.lines("level=WARN"); len(l) != 1 || !strings.Contains(l[0], path) || !strings.Contains(l[0], "format 1") || !strings.Contains(l[0], "build it again") {
			t.Errorf("larger %v: warnings %q, want one naming %s, of format 1", larger, l, path)
		}
		if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, good) {
			t.Errorf("larger %v: the table built again: %v, not the table", larger, err)
		}
		want := 4
		if larger {
			want = 5
		}
		if tb := s.endgames.table(); tb == nil || tb.Pebbles() != want {
			t.Errorf("larger %v: the server's searches read %v, want the table of %d pebbles", larger, tb, want)
		}
	}
}

// niceThreads returns the threads of this process that have nice value
// nice.
func niceThreads(t *testing.T, nice int) []string {
	tasks, err := filepath.Glob("/proc/self/task/*/stat")
	if err != nil || len(tasks) == 0 {
		t.Skip("no /proc/self/task:", err)
	}
	var found []string
	for _, task := range tasks {
		data, err := os.ReadFile(task)
		if err != nil {
			continue // the thread has ended
		}
		// The fields after the command's closing parenthesis: state is
		// field 3, nice field 19.
		f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
		if len(f) > 19-3 && f[19-3] == strconv.Itoa(nice) {
			found = append(found, task)
		}
	}
	return found
}

// TestOfflineBuildNice: the server builds the page's table on a thread of
// nice buildNice (lower than the searches'), and Close stops the build at
// once: the thread gone, a checkpoint left to resume from, no table and
// no temporary file.
func TestOfflineBuildNice(t *testing.T) {
	if slices.Contains(niceThreads(t, buildNice), "/proc/self/task/"+strconv.Itoa(os.Getpid())+"/stat") {
		// Started at that nice value (nice -n 15 go test ...), every
		// thread has it: the build's cannot be told apart.
		t.Skipf("the test process itself runs at nice %d: run it at a lower nice value", buildNice)
	}
	// Another test's server may be ending its own build: wait for it.
	for end := time.Now().Add(guard); len(niceThreads(t, buildNice)) != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("threads of nice %d before the server: %q", buildNice, niceThreads(t, buildNice))
		}
	}
	dir := t.TempDir()
	var logged logLines
	s := newServer(t, Config{Endgames: Endgames{Dir: dir, Offline: 9}, Log: slogTo(&logged)})
	for end := time.Now().Add(guard); len(niceThreads(t, buildNice)) == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(end) || len(logged.lines("built the endgame table")) > 0 {
			t.Fatalf("no thread of nice %d seen while the table was built; log %q", buildNice, logged.lines(""))
		}
	}
	if r := do(t, s, "GET", offlineInfoPath, nil); r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") != offlineRetry {
		t.Errorf("GET %s during the build: %s %v, want 503, Retry-After %s", offlineInfoPath, r, r.header, offlineRetry)
	}
	start := time.Now()
	s.Close()
	took := time.Since(start)
	t.Logf("Close took %v during the build", took)
	if took > 2*time.Second {
		t.Errorf("Close took %v during the build, want it stopped at once", took)
	}
	if l := logged.lines("built the endgame table"); len(l) != 0 {
		t.Fatalf("the build finished before Close (%q): nothing to stop", l)
	}
	// The build's goroutines have ended when Close returns; their locked
	// threads end with them, an instant later.
	for end := time.Now().Add(2 * time.Second); ; time.Sleep(time.Millisecond) {
		after := niceThreads(t, buildNice)
		if len(after) == 0 {
			break
		}
		if time.Now().After(end) {
			t.Errorf("threads of nice %d 2 s after Close: %q (pid %d)", buildNice, after, os.Getpid())
			break
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if want := []string{filepath.Join(dir, endgames.Name(9)+".part")}; !slices.Equal(files, want) {
		t.Errorf("files after Close: %q, want %q (the checkpoint alone)", files, want)
	}
}

// waitOffline waits until s serves the page's table, failing on any
// answer but 200 and 503 (being built).
func waitOffline(t *testing.T, s *Server, logged *logLines) {
	t.Helper()
	for end := time.Now().Add(guard); ; time.Sleep(10 * time.Millisecond) {
		r := do(t, s, "GET", offlineInfoPath, nil)
		if r.status == http.StatusOK {
			return
		}
		if r.status != http.StatusServiceUnavailable || time.Now().After(end) {
			t.Fatalf("GET %s: %s; log %q", offlineInfoPath, r, logged.lines(""))
		}
	}
}

// TestOfflineTableRebuilt: the page's table found truncated, not a
// table, damaged or unfinished is built again in its place (one warning
// naming it and why), then served and used by the server's searches.
func TestOfflineTableRebuilt(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(buildTable(t, 4), endgames.Name(4)))
	if err != nil {
		t.Fatal(err)
	}
	unfinished := append([]byte{}, good...)
	copy(unfinished[24:], []byte{2, 0, 0, 0}) // the header's pass
	damaged := append([]byte{}, good...)
	damaged[len(damaged)/2] ^= 1
	for _, c := range []struct {
		name, why string
		data      []byte
	}{
		{"truncated", "truncated", good[:len(good)-100]},
		{"not a table", "not an endgame table", append([]byte("XXXXXXXX"), good[8:]...)},
		{"damaged", "damaged", damaged},
		{"unfinished", "unfinished", unfinished},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, endgames.Name(4))
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			var logged logLines
			s := newServer(t, Config{Endgames: Endgames{Dir: dir, Offline: 4}, Log: slogTo(&logged)})
			waitOffline(t, s, &logged)
			s.Close()
			if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, good) {
				t.Errorf("the table not built again: %v", err)
			}
			if l := logged.lines("level=WARN"); len(l) != 1 || !strings.Contains(l[0], path) || !strings.Contains(l[0], c.why) {
				t.Errorf("warnings %q, want one naming %s: %s", l, path, c.why)
			}
			if tb := s.endgames.table(); tb == nil || tb.Pebbles() != 4 {
				t.Errorf("the server's searches read %v, want the table rebuilt", tb)
			}
		})
	}
}

// TestEndgamesNextGood: when the largest table in the directory cannot
// be read, the server logs it and uses the next one that can.
func TestEndgamesNextGood(t *testing.T) {
	dir := buildTable(t, 4)
	bad := filepath.Join(dir, endgames.Name(5))
	if err := os.WriteFile(bad, []byte("OAQEGTB2 and not much more"), 0o644); err != nil {
		t.Fatal(err)
	}
	var logged logLines
	s := newServer(t, Config{Endgames: Endgames{Dir: dir, Offline: -1}, Log: slogTo(&logged)})
	s.Close()
	if tb := s.endgames.table(); tb == nil || tb.Pebbles() != 4 {
		t.Errorf("the server's searches read %v, want the table of 4 pebbles", tb)
	}
	if l := logged.lines("level=WARN"); len(l) != 1 || !strings.Contains(l[0], bad) || !strings.Contains(l[0], "not used") {
		t.Errorf("warnings %q, want one that %s is not used", l, bad)
	}
}

// TestOfflineTableLarger: the page's table built beside a smaller table
// (the server's own at start) becomes the server's own.
func TestOfflineTableLarger(t *testing.T) {
	dir := buildTable(t, 3)
	var logged logLines
	s := newServer(t, Config{Endgames: Endgames{Dir: dir, Offline: 4}, Log: slogTo(&logged)})
	waitOffline(t, s, &logged)
	s.Close()
	if tb := s.endgames.table(); tb == nil || tb.Pebbles() != 4 {
		t.Errorf("the server's searches read %v, want the table of 4 pebbles built", tb)
	}
	if l := logged.lines("endgame table used"); len(l) != 2 || !strings.Contains(l[0], "pebbles=3") || !strings.Contains(l[1], "pebbles=4") {
		t.Errorf("log %q, want the table of 3 pebbles used, then that of 4", l)
	}
}

// TestOfflineNone: a server with no page's table (none configured, no
// directory, or one that cannot be made) answers 404 at every path of it,
// so that the page's service worker forgets the copy it keeps.
func TestOfflineNone(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, eg := range map[string]Endgames{
		"no directory":   {},
		"none":           {Dir: t.TempDir(), Offline: -1},
		"cannot be made": {Dir: notDir, Offline: 3},
	} {
		var logged logLines
		s := newServer(t, Config{Endgames: eg, Log: slogTo(&logged)})
		s.Close() // the background work done
		for _, p := range []string{offlineInfoPath, "/offline/endgames-" + strings.Repeat("0", 24) + ".egtb"} {
			if r := do(t, s, "GET", p, nil); r.status != http.StatusNotFound {
				t.Errorf("%s: GET %s: %s, want 404; log %q", name, p, r, logged.lines(""))
			}
		}
	}
}
