package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The hand-made game of TestReviewFindsTheBlunder in package ai, as a
// record: one JSON line per move, the blunder marked with a better move.
func TestReview(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.txt")
	record := "[Start \"1/0/0/1/0/0/3/10/4/4/2/4* 0 15,0,0 6,1,0 4\"]\n\n1. 6L 4L *\n"
	if err := os.WriteFile(path, []byte(record), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "review", "--depth", "8", path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("review printed %d lines, want 2:\n%s", len(lines), out)
	}
	// The lines as a program reads them (docs/AI.md, "Game review").
	type reviewLine struct {
		Move, Best, Mark string
		BestAfter        *int `json:"best_after"`
		Loss             int
	}
	var first, second reviewLine
	if json.Unmarshal([]byte(lines[0]), &first) != nil || json.Unmarshal([]byte(lines[1]), &second) != nil {
		t.Fatalf("review printed %q: want JSON lines", out)
	}
	if first.Move != "6L" || first.Mark != "blunder" || first.Best == "" || first.BestAfter == nil || first.Loss < 10 {
		t.Errorf("first line %s: want 6L marked a blunder with a better move", lines[0])
	}
	if second.Move != "4L" || second.Mark != "" || second.Best != "" || strings.Contains(lines[1], "best") {
		t.Errorf("second line %s: want 4L with no mark and no better move", lines[1])
	}
}

func TestReviewBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"review"}, "want one RECORD_FILE"},
		{[]string{"review", filepath.Join(dir, "none.txt")}, "no such file"},
		{[]string{"review", "--movetime", "0", "x"}, "--movetime"},
		{[]string{"review", write("bad.txt", "\n1. 7R 9X *\n")}, "line 2 \"9X\""},
		{[]string{"review", write("illegal.txt", "\n1. 7R 7R *\n")}, "move 2"},
		{[]string{"review", write("big.txt", strings.Repeat("{x}", 1<<19))}, "not a game record"},
	} {
		out, _, err := runCmd(t, tt.args...)
		var ue *usageError
		if err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.says) || out != "" {
			t.Errorf("%v: %v, output %q; want a usage error saying %q and no output", tt.args, err, out, tt.says)
		}
	}
}
