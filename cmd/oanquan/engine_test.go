package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"

	"oanquan/notation"
)

// runCmd runs the program with args and returns stdout, stderr and the error.
func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, &out, &errOut)
	return out.String(), errOut.String(), err
}

func TestApply(t *testing.T) {
	out, _, err := runCmd(t, "apply", notation.Start, "7R", "3L")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("apply printed %d lines, want 2:\n%s", len(lines), out)
	}
	want := `{"move":"7R","position":"6/6/0/6/6/1*/6/6/0/0/6/1* 1 6,0,0 0,0,0 1","over":false}`
	if lines[0] != want {
		t.Errorf("first line\n%s\nwant\n%s", lines[0], want)
	}
}

// A game that ends: the final line has the score, the winner and the
// position after the sweep.
func TestApplyGameOver(t *testing.T) {
	out, _, err := runCmd(t, "apply", "5/5/5/5/5/2*/0/4/0/3/1/0 0 10,1,0 5,0,0 20", "9L")
	if err != nil {
		t.Fatal(err)
	}
	var line struct {
		Move     string
		Position string
		Over     bool
		Score    []int
		Winner   *int
	}
	if err := json.Unmarshal([]byte(out), &line); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	// Player 0: 2 mandarins + 16 pebbles + 4 swept = 40; player 1: 5 + 25 swept = 30.
	if !line.Over || len(line.Score) != 2 || line.Score[0] != 40 || line.Score[1] != 30 || line.Winner == nil || *line.Winner != 0 {
		t.Errorf("apply = %s, want over, score [40,30], winner 0", out)
	}
	if want := "0/0/0/0/0/0/0/0/0/0/0/0 1 20,2,0 30,0,0 21"; line.Position != want {
		t.Errorf("final position %s, want %s", line.Position, want)
	}
	if !strings.Contains(out, `"winner":0`) {
		t.Errorf("winner missing: %s", out)
	}
}

// A borrowing loop (TestBorrowingLoopEndsAtThirdRepetition in package
// rules): the repetition rule ignores the debts, so the eighth move ends
// the game, and the count repays the debt as it stands, 15.
func TestApplyBorrowingLoop(t *testing.T) {
	args := []string{"apply", "1/1/1/1/1/0*/1/0/0/0/1/0 1 43,1,0 0,0,5 20"}
	for range 2 {
		args = append(args, "3R", "9L", "1L", "8R")
	}
	out, _, err := runCmd(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 8 {
		t.Fatalf("apply printed %d lines, want 8:\n%s", len(lines), out)
	}
	if want := `{"move":"8R","position":"1/1/1/1/1/0*/1/0/0/0/1/0 1 43,1,0 0,0,10 24","over":false}`; lines[3] != want {
		t.Errorf("after one round:\n%s\nwant\n%s", lines[3], want)
	}
	if want := `{"move":"8R","position":"0/0/0/0/0/0*/0/0/0/0/0/0 1 45,1,0 5,0,15 28","over":true,"score":[70,-10],"winner":0,"end":"repetition"}`; lines[7] != want {
		t.Errorf("last line:\n%s\nwant\n%s", lines[7], want)
	}
}

func TestApplyDrawHasNullWinner(t *testing.T) {
	// The repetition of TestThirdRepetition in package rules ends 5-5.
	out, _, err := runCmd(t, "apply", "1/0/0/0/0/20*/1/0/0/0/0/20* 0 4,0,0 4,0,0 0", "5R", "0R", "6L", "1L", "5R", "0R", "6L", "1L")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if len(lines) != 8 || !strings.Contains(last, `"over":true`) || !strings.Contains(last, `"winner":null`) || !strings.Contains(last, `"score":[5,5]`) {
		t.Errorf("apply = %s, want 8 lines, the last over with a null winner", out)
	}
}

func TestBadInputExitsTwo(t *testing.T) {
	tests := []struct {
		name string
		args []string
		says string
		out  int // lines on stdout before the error
	}{
		{"bad position", []string{"apply", "5/5/5 0 0,0,0 0,0,0 0", "7R"}, "board", 0},
		{"bad move", []string{"apply", notation.Start, "7R", "12X"}, `move "12X"`, 1},
		{"illegal move", []string{"apply", notation.Start, "7R", "3L", "7R"}, "square 7 is empty", 2},
		{"opponent's square", []string{"apply", notation.Start, "2R"}, "belongs to player 1", 0},
		{"unknown variant", []string{"apply", "--variant", "giant", notation.Start, "7R"}, "unknown variant", 0},
		{"no position", []string{"apply"}, "want POSITION", 0},
		{"show two args", []string{"show", "a", "b"}, "want one POSITION", 0},
		{"perft depth", []string{"perft", notation.Start, "x"}, "depth", 0},
		{"perft deep", []string{"perft", notation.Start, "99"}, "depth", 0},
		{"bench seconds", []string{"bench", "--seconds", "-1"}, "seconds", 0},
		{"unknown command", []string{"frobnicate"}, "unknown command", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runCmd(t, tt.args...)
			var ue *usageError
			if !errors.As(err, &ue) {
				t.Fatalf("run(%q) = %v, want a usage error (exit status 2)", tt.args, err)
			}
			if !strings.Contains(err.Error(), tt.says) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q: want one line saying %q", err, tt.says)
			}
			if n := strings.Count(out, "\n"); n != tt.out {
				t.Errorf("stdout has %d lines, want %d: %q", n, tt.out, out)
			}
		})
	}
}

func TestShowAndPerft(t *testing.T) {
	out, _, err := runCmd(t, "show", notation.Start)
	if err != nil || !strings.Contains(out, "|   5 |   5 |") || !strings.Contains(out, "( M  0 )") {
		t.Errorf("show = %q, %v", out, err)
	}
	out, _, err = runCmd(t, "perft", notation.Start, "3")
	if err != nil || strings.TrimSpace(out) != "664" {
		t.Errorf("perft depth 3 = %q, %v; want 664 (rules/testdata/perft.txt)", out, err)
	}
}

func TestBenchPrintsFigures(t *testing.T) {
	out, _, err := runCmd(t, "bench", "--seconds", "0.05")
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]float64
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	keys := []string{"playouts", "turns", "seconds", "playouts_per_sec", "turns_per_sec",
		"plain_playouts", "plain_turns", "plain_seconds", "plain_playouts_per_sec", "plain_turns_per_sec", "ratio"}
	if runtime.GOOS == "linux" {
		keys = append(keys, "cpu_seconds", "playouts_per_cpu_sec", "plain_cpu_seconds", "plain_playouts_per_cpu_sec")
	}
	for _, k := range keys {
		if res[k] <= 0 {
			t.Errorf("bench %s = %v, want > 0 (%s)", k, res[k], out)
		}
	}
}
