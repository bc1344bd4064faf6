package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"oanquan/ai/endgames"
)

// logged is a log written by the server while a test reads it.
type logged struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logged) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// lines returns the lines logged that contain all of words.
func (l *logged) lines(words ...string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range strings.Split(l.buf.String(), "\n") {
		all := line != ""
		for _, w := range words {
			all = all && strings.Contains(line, w)
		}
		if all {
			out = append(out, line)
		}
	}
	return out
}

// startServe runs `oanquan` (serve) with args on a port of its own until
// the test ends, and returns its address and its log.
func startServe(t *testing.T, args ...string) (string, *logged) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := make(lineWriter, 2)
	log := &logged{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"--addr", "127.0.0.1:0", "--db", "memory"}, args...), out, log)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	var line string
	for range 2 {
		select {
		case line = <-out:
		case err := <-done:
			t.Fatalf("run returned %v before serving", err)
		}
	}
	url := regexp.MustCompile(`http://[^ ]+/`).FindString(line)
	if url == "" {
		t.Fatalf("no address in %q", line)
	}
	return url, log
}

// httpJSON sends a request to the server and decodes its JSON answer.
func httpJSON(t *testing.T, method, url, secret string, body any, v any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	resp, err := (&http.Client{Timeout: guard}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %s %s", method, url, resp.Status, data)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s %s: %v in %s", method, url, err, data)
	}
}

// cli runs an oanquan command and returns its standard output's lines.
func cli(t *testing.T, args ...string) []string {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("oanquan %q: %v: %s", args, err, errOut.String())
	}
	var lines []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// tableStart is a position with 3 pebbles on the board whose every move
// the table of 6 pebbles knows exactly, and which a search of 14 plies
// does not prove: player 1 to move.
const tableStart = "1/0/1/0/0/0/0/0/1/0/0/0* 1 12,0,0 35,1,0 30"

// TestServeEndgames: serve with no --endgames nor --db finds the table in
// the data directory (where the default SQLite file goes), says which at start,
// and answers as the command line with the same table: the hints as
// analyse, the computer at Hard and the review as bestmove, proven. The
// page's table (--endgames-offline) is built there too, and offered.
func TestServeEndgames(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_DATA_HOME", xdg)
	data := filepath.Join(xdg, "oanquan")
	os.MkdirAll(data, 0o700)
	if err := endgames.Build(context.Background(), 6, data, endgames.BuildOptions{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(data, endgames.Name(6)))
	if err != nil {
		t.Fatal(err)
	}
	url, log := startServe(t, "--db", "", "--endgames-offline", "3")
	if l := log.lines("endgame table used", "pebbles=6", fmt.Sprintf("bytes=%d", fi.Size()), filepath.Join(data, endgames.Name(6))); len(l) != 1 {
		t.Errorf("log %q, want one line naming the table found in the data directory", log.lines("endgame"))
	}

	best := cli(t, "bestmove", "--endgames", data, tableStart)
	var bm struct {
		Score  int
		Proven bool
	}
	if len(best) != 2 || json.Unmarshal([]byte(best[1]), &bm) != nil || !bm.Proven {
		t.Fatalf("bestmove: %q, want a move and a proven result", best)
	}
	analyse := cli(t, "analyse", "--endgames", data, tableStart)

	var g struct{ ID, Secret string }
	httpJSON(t, "POST", url+"api/games", "", map[string]any{"mode": "local", "position": tableStart}, &g)
	var hs struct{ Hints []json.RawMessage }
	httpJSON(t, "GET", url+"api/games/"+g.ID+"/hints", g.Secret, nil, &hs)
	if len(hs.Hints) != len(analyse) {
		t.Fatalf("hints %s, analyse %q", hs.Hints, analyse)
	}
	for i, h := range hs.Hints {
		var a, b any
		json.Unmarshal(h, &a)
		json.Unmarshal([]byte(analyse[i]), &b)
		if ja, _ := json.Marshal(a); string(ja) != mustJSON(b) {
			t.Errorf("hint %d: server %s, analyse %s", i, h, analyse[i])
		}
	}
	var turn any
	httpJSON(t, "POST", url+"api/games/"+g.ID+"/moves", g.Secret, map[string]any{"move": best[0]}, &turn)
	var rv struct {
		Review struct {
			Before int
			Proven bool
			Depth  int
		}
	}
	httpJSON(t, "GET", url+"api/games/"+g.ID+"/review?ply=0", "", nil, &rv)
	// The review's scores are player 0's; player 1 is to move.
	if r := rv.Review; !r.Proven || r.Depth != 0 || r.Before != -bm.Score {
		t.Errorf("review %+v, want proven from the table (depth 0), before %d as bestmove", r, -bm.Score)
	}

	httpJSON(t, "POST", url+"api/games", "", map[string]any{"mode": "ai", "level": "hard", "human": 0, "position": tableStart}, &g)
	var st struct{ Moves []string }
	for end := time.Now().Add(guard); len(st.Moves) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the computer did not move")
		}
		httpJSON(t, "GET", url+"api/games/"+g.ID, g.Secret, nil, &st)
	}
	if st.Moves[0] != best[0] {
		t.Errorf("Hard played %s, bestmove %s", st.Moves[0], best[0])
	}

	var info struct{ Pebbles int }
	for end := time.Now().Add(guard); info.Pebbles == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("no table offered to the page")
		}
		resp, err := http.Get(url + "offline/endgames.json")
		if err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(resp.Body).Decode(&info)
		resp.Body.Close()
	}
	if _, err := os.Stat(filepath.Join(data, endgames.Name(3))); info.Pebbles != 3 || err != nil {
		t.Errorf("the page's table: %d pebbles (%v), want 3 built in the data directory", info.Pebbles, err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestServeEndgamesDamaged: a damaged table in the data directory does
// not stop serve: one line says it is not used and why, and games go on.
// --endgames none uses no table and builds none, and neither does a
// server whose data directory does not exist (--db given elsewhere).
func TestServeEndgamesDamaged(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_DATA_HOME", xdg)
	data := filepath.Join(xdg, "oanquan")
	os.MkdirAll(data, 0o700)
	bad := filepath.Join(data, endgames.Name(7))
	if err := os.WriteFile(bad, []byte("OAQEGTB1 and not much more"), 0o644); err != nil {
		t.Fatal(err)
	}
	url, log := startServe(t, "--db", "", "--endgames-offline", "0")
	if l := log.lines(bad); len(l) != 1 || !strings.Contains(l[0], "level=WARN") || !strings.Contains(l[0], "not used") {
		t.Errorf("log %q, want one warning that %s is not used", log.lines(""), bad)
	}
	var g struct{ ID, Secret string }
	httpJSON(t, "POST", url+"api/games", "", map[string]any{"mode": "local"}, &g)
	var hs struct{ Hints []json.RawMessage }
	httpJSON(t, "GET", url+"api/games/"+g.ID+"/hints", g.Secret, nil, &hs)
	if len(hs.Hints) == 0 {
		t.Error("no hints without the table")
	}

	none := t.TempDir()
	t.Setenv("XDG_DATA_HOME", none)
	_, log = startServe(t, "--db", "", "--endgames", "none")
	if l := log.lines("endgame"); len(l) != 0 {
		t.Errorf("--endgames none: log %q, want nothing of endgame tables", l)
	}
	if names := tableFiles(filepath.Join(none, "oanquan")); len(names) != 0 {
		t.Errorf("--endgames none: tables in the data directory: %q", names)
	}

	// With --db elsewhere and no data directory, none is made for tables.
	fresh := t.TempDir()
	t.Setenv("XDG_DATA_HOME", fresh)
	_, log = startServe(t)
	if l := log.lines("endgame"); len(l) != 0 {
		t.Errorf("no data directory: log %q, want nothing of endgame tables", l)
	}
	if _, err := os.Stat(filepath.Join(fresh, "oanquan")); err == nil {
		t.Error("the data directory was made for the tables")
	}
}

// tableFiles returns the names of the files of endgame tables in dir
// (built or being built; not the record of a table checked, which an
// opening may leave beside it).
func tableFiles(dir string) []string {
	names, _ := filepath.Glob(filepath.Join(dir, "pebbles-*"))
	return slices.DeleteFunc(names, func(n string) bool { return strings.HasSuffix(n, ".checked") })
}

// TestServeEndgamesDB: with no --endgames, a server whose games go
// elsewhere than the default SQLite file (--db memory, another file)
// reads no table from the data directory, though it exists, and builds
// none there; one given the default file by its path uses the directory
// as with no --db.
func TestServeEndgamesDB(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_DATA_HOME", xdg)
	data := filepath.Join(xdg, "oanquan")
	os.MkdirAll(data, 0o700)
	if err := endgames.Build(context.Background(), 3, data, endgames.BuildOptions{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	for _, db := range []string{"memory", filepath.Join(t.TempDir(), "games.db")} {
		_, log := startServe(t, "--db", db, "--endgames-offline", "4")
		if l := log.lines("endgame"); len(l) != 0 {
			t.Errorf("--db %s: log %q, want nothing of endgame tables", db, l)
		}
		if names := tableFiles(data); len(names) != 1 {
			t.Errorf("--db %s: tables in the data directory %q, want the one of 3 pebbles alone", db, names)
		}
	}
	_, log := startServe(t, "--db", filepath.Join(data, "oanquan.db"), "--endgames-offline", "0")
	if l := log.lines("endgame table used", "pebbles=3"); len(l) != 1 {
		t.Errorf("--db the default file: log %q, want the table of the data directory used", log.lines("endgame"))
	}
}
