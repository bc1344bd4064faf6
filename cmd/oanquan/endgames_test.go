package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"oanquan/ai/endgames"
)

// TestEndgamesBuildProbe builds a small table and probes a position in
// which 7L ends the game: its one pebble moves to square 6 and takes the
// last pebble of the mandarin squares, and the count gives player 0
// 40 + 1 + 1 against player 1's 27 + 1, so 7L is worth exactly 14 and the
// position at least that.
func TestEndgamesBuildProbe(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runCmd(t, "endgames", "build", "--pebbles", "4", "--out", dir)
	if err != nil {
		t.Fatal(err)
	}
	var built struct {
		Bytes     int64  `json:"bytes"`
		Positions uint64 `json:"positions"`
		Exact     uint64 `json:"exact"`
	}
	if err := json.Unmarshal([]byte(out), &built); err != nil || built.Bytes != 64+2*4*1820 || built.Exact == 0 || built.Exact > built.Positions {
		t.Fatalf("endgames build printed %q (%v): want the file's 64+2×4×1820 bytes (two bytes an entry, four entries a board) and some exact positions", out, err)
	}
	out, _, err = runCmd(t, "endgames", "probe", "--endgames", dir, "1/0/0/0/0/1/0/0/1/0/0/0 0 40,0,0 27,0,0 30")
	if err != nil {
		t.Fatal(err)
	}
	var pr probeJSON
	if err := json.Unmarshal([]byte(out), &pr); err != nil || len(pr.Moves) != 2 {
		t.Fatalf("endgames probe printed %q (%v): want two moves", out, err)
	}
	if m := pr.Moves[0]; m.Move != "7L" || m.Score == nil || *m.Score != 14 {
		t.Errorf("probe: first move %+v, want 7L scoring exactly 14", m)
	}
	if pr.Exact || pr.Min == nil || *pr.Min != 14 {
		t.Errorf("probe = %s: want at least 14, not exact (7R's reply is open)", out)
	}
}

// TestEndgamesErrors: bad input gives a usage error naming what is wrong.
// TestEndgamesBuildProfile checks that --cpuprofile writes a profile
// (pprof's gzipped format) and that a path it cannot create is refused.
func TestEndgamesBuildProfile(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "cpu.pprof")
	if _, _, err := runCmd(t, "endgames", "build", "--pebbles", "2", "--out", dir, "--cpuprofile", prof); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(prof)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("--cpuprofile wrote %d bytes (%v), want a gzipped profile", len(b), err)
	}
	_, _, err = runCmd(t, "endgames", "build", "--pebbles", "2", "--out", dir, "--cpuprofile", filepath.Join(dir, "no", "such", "dir", "cpu.pprof"))
	if err == nil || !strings.Contains(err.Error(), "cpuprofile") {
		t.Errorf("a profile path that cannot be created: err %v, want one naming --cpuprofile", err)
	}
}

func TestEndgamesErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"endgames"}, "want build or probe"},
		{[]string{"endgames", "shrink"}, "unknown subcommand"},
		{[]string{"endgames", "build", "--pebbles", "3"}, "--out DIR is required"},
		{[]string{"endgames", "build", "--pebbles", "41", "--out", dir}, "want 0 to 40"},
		{[]string{"endgames", "probe", "--endgames", dir}, "missing POSITION"},
		{[]string{"endgames", "probe", "--endgames", dir, "0/1/0/0/0/1/0/0/2/0/0/0 0 45,1,0 11,0,0 40"}, "no endgame table"},
		{[]string{"endgames", "probe", "--endgames", dir, "0/1/0"}, "position"},
	} {
		out, _, err := runCmd(t, c.args...)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) || out != "" {
			t.Errorf("%v: err %v, stdout %q; want a usage error containing %q and nothing printed", c.args, err, out, c.want)
		}
	}
	if _, _, err := runCmd(t, "endgames", "build", "--pebbles", "2", "--out", dir); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "endgames", "probe", "--endgames", dir, "0/1/0/0/0/0/0/1/0/0/0/0 0 40,0,0 28,0,0 30"); err == nil || !strings.Contains(err.Error(), "the game is over") {
		t.Errorf("probe of a finished game: %v, want an error saying the game is over", err)
	}
	_, _, err := runCmd(t, "endgames", "probe", "--endgames", dir, "0/1/0/0/0/1/0/0/2/0/0/0 0 45,1,0 11,0,0 40")
	if err == nil || !strings.Contains(err.Error(), "at most 2 pebbles on the board; this one has 4") {
		t.Errorf("probe of 4 pebbles in a table of 2: %v, want an error saying the table's limit", err)
	}
}

// TestEndgamesFlag: bestmove and analyse with --endgames answer a position
// the table knows exactly at once, proven (depth 0), with the verdict;
// every command with the flag refuses a directory without a table.
func TestEndgamesFlag(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := runCmd(t, "endgames", "build", "--pebbles", "4", "--out", dir); err != nil {
		t.Fatal(err)
	}
	// Player 0 has 56 pebbles in store and player 1 none; the table knows
	// that player 0 ends with everything: 70 to 0 (player 1 borrows for
	// each refill and repays at the count).
	const pos = "0/1/0/1/0/0*/0/0/1/0/0/1 0 56,0,0 0,0,0 30"
	_, js := runBestmoveJSON(t, "--endgames", dir, pos)
	if !js.Proven || js.Depth != 0 || js.Nodes != 0 || js.Score != 70 || js.Verdict != "wins by 70 with best play" {
		t.Errorf("bestmove --endgames = %+v: want proven at once, 70, wins by 70", js)
	}
	out, _, err := runCmd(t, "analyse", "--endgames", dir, pos)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\"move\":\"7L\",\"score\":70}\n{\"move\":\"7R\",\"score\":70}\n"; out != want {
		t.Errorf("analyse --endgames printed %q, want %q", out, want)
	}
	empty := t.TempDir()
	for _, args := range [][]string{
		{"bestmove", "--endgames", empty, pos},
		{"analyse", "--endgames", empty, pos},
		{"review", "--endgames", empty, "record.txt"},
		{"arena", "hard", "medium", "--endgames", empty},
	} {
		_, _, err := runCmd(t, args...)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--endgames") || !strings.Contains(err.Error(), "no endgame table") {
			t.Errorf("%v: %v, want a usage error about --endgames", args, err)
		}
	}
}

// TestEndgamesDefault: without --endgames, the commands answer from the
// largest table in the data directory that they can read (a damaged
// larger one passed over), and --endgames none turns it off; the engine
// protocol does the same and says a proven result's verdict in words on
// a line of its own.
func TestEndgamesDefault(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_DATA_HOME", xdg)
	data := filepath.Join(xdg, "oanquan")
	if _, _, err := runCmd(t, "endgames", "build", "--pebbles", "4", "--out", data); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, endgames.Name(5)), []byte("OAQEGTB3 not a table"), 0o644); err != nil {
		t.Fatal(err)
	}
	const pos = "0/1/0/1/0/0*/0/0/1/0/0/1 0 56,0,0 0,0,0 30"
	if _, js := runBestmoveJSON(t, pos); !js.Proven || js.Depth != 0 || js.Score != 70 {
		t.Errorf("bestmove with a table in the data directory = %+v: want proven at once, 70", js)
	}
	if _, js := runBestmoveJSON(t, "--endgames", "none", "--depth", "2", pos); js.Depth == 0 || js.Nodes == 0 {
		t.Errorf("bestmove --endgames none = %+v: want a search, not the table", js)
	}
	if out, _, err := runCmd(t, "endgames", "probe", pos); err != nil || !strings.Contains(out, "wins by 70") {
		t.Errorf("endgames probe without --endgames = %q, %v: want the data directory's table", out, err)
	}

	// With the table the answer is at once (depth 0); without, a search
	// proves it too. Either way the verdict follows the info line.
	for _, tb := range []*endgames.Table{openTable(t, filepath.Join(data, endgames.Name(4))), nil} {
		in := strings.NewReader("position " + pos + "\ngo depth 2\n")
		var out bytes.Buffer
		if err := engineLoop(context.Background(), in, &out, tb); err != nil {
			t.Fatal(err)
		}
		got := out.String()
		if !strings.Contains(got, " proven true pv 7") || !strings.Contains(got, "\nverdict wins by 70 with best play\nbestmove 7") ||
			strings.HasPrefix(got, "info depth 0 ") != (tb != nil) {
			t.Errorf("engine (table %v): %q, want proven, the verdict, the table at depth 0", tb != nil, got)
		}
	}
}

// openTable opens a table file for the test's length.
func openTable(t *testing.T, path string) *endgames.Table {
	t.Helper()
	tb, err := endgames.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}
