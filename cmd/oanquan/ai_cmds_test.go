package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"oanquan/notation"
)

func TestBestmove(t *testing.T) {
	for _, level := range []string{"easy", "medium", "hard"} {
		var out, errOut bytes.Buffer
		err := run(context.Background(), []string{"bestmove", "--level", level, "--depth", "4", notation.Start}, &out, &errOut)
		if err != nil {
			t.Fatalf("bestmove --level %s: %v", level, err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 2 {
			t.Fatalf("bestmove printed %q: want two lines", out.String())
		}
		m, err := notation.ParseMove(lines[0])
		if err != nil {
			t.Fatalf("bestmove first line %q: %v", lines[0], err)
		}
		start, _ := notation.ParsePosition(notation.Start)
		if err := start.Legal(m); err != nil {
			t.Errorf("bestmove = %v: %v", m, err)
		}
		var js searchJSON
		if err := json.Unmarshal([]byte(lines[1]), &js); err != nil {
			t.Fatalf("bestmove second line %q: %v", lines[1], err)
		}
		if len(js.PV) == 0 || js.PV[0] != lines[0] {
			t.Errorf("bestmove pv %v does not start with %s", js.PV, lines[0])
		}
		if js.Proven || js.Verdict != "" || strings.Contains(lines[1], "verdict") {
			t.Errorf("bestmove from the start at depth 4 = %s: want no proof and no verdict", lines[1])
		}
	}
}

// runBestmoveJSON runs bestmove with args and returns its two lines: the
// move, and the JSON line parsed.
func runBestmoveJSON(t *testing.T, args ...string) (string, searchJSON) {
	t.Helper()
	out, _, err := runCmd(t, append([]string{"bestmove"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var js searchJSON
	if len(lines) != 2 || json.Unmarshal([]byte(lines[1]), &js) != nil {
		t.Fatalf("bestmove printed %q: want a move and a JSON line", out)
	}
	return lines[0], js
}

// A position two plies from the end, proven at once: bestmove gives the
// verdict in words, agreeing with the proven score.
func TestBestmoveVerdict(t *testing.T) {
	_, js := runBestmoveJSON(t, "--depth", "12", "0/1/0/1/3/0/0/0/0/1/0/17* 0 25,1,0 2,0,0 40")
	want := fmt.Sprintf("wins by %d with best play", js.Score)
	if js.Score < 0 {
		want = fmt.Sprintf("loses by %d with best play", -js.Score)
	} else if js.Score == 0 {
		want = "draws with best play"
	}
	if !js.Proven || js.Verdict != want {
		t.Errorf("bestmove = %+v: want proven with the verdict %q", js, want)
	}
}

func TestAnalyse(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"analyse", "--depth", "3", notation.Start}, &out, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 10 {
		t.Fatalf("analyse printed %d lines, want 10 (the legal moves of the start)", len(lines))
	}
	prev := 1000
	for _, l := range lines {
		var h struct {
			Move  string
			Score int
		}
		if err := json.Unmarshal([]byte(l), &h); err != nil {
			t.Fatalf("analyse line %q: %v", l, err)
		}
		if h.Score > prev {
			t.Errorf("analyse: not best first: %q", out.String())
		}
		prev = h.Score
	}
}

func TestArena(t *testing.T) {
	for _, args := range [][]string{
		{"arena", "easy", "random", "--games", "4"},
		{"arena", "--plies", "4", "--balanced", "4", "medium:depth=2", "easy", "--games", "4"},
	} {
		var out bytes.Buffer
		if err := run(context.Background(), args, &out, &out); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		for _, want := range []string{"4 games", "wins", "score share", "Elo difference", "points share"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%q output lacks %q:\n%s", args, want, out.String())
			}
		}
	}
}

// TestAICommandsBadInput checks that bad input is a usage error (exit
// status 2) with nothing on standard output.
func TestAICommandsBadInput(t *testing.T) {
	over := "0/0/0/0/0/0/0/0/0/0/0/0 0 35,0,0 35,0,0 40"
	for _, args := range [][]string{
		{"bestmove"},
		{"bestmove", "--level", "expert", notation.Start},
		{"bestmove", "--movetime", "-5", notation.Start},
		{"bestmove", "--variant", "nope", notation.Start},
		{"bestmove", "5/5/5"},
		{"bestmove", over},
		{"analyse", "--level", "hard", notation.Start},
		{"analyse", over},
		{"arena", "easy"},
		{"arena", "easy", "grandmaster"},
		{"arena", "easy", "hard:speed=3"},
		{"arena", "easy", "random", "--games", "0"},
		{"arena", "easy", "random", "--balanced", "even"},
		{"engine", "extra"},
	} {
		var out, errOut bytes.Buffer
		err := run(context.Background(), args, &out, &errOut)
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: error %v, want a usage error", args, err)
		}
		if out.Len() != 0 {
			t.Errorf("%q printed %q on stdout", args, out.String())
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %q is not one line", args, err)
		}
	}
}

func TestEngineProtocol(t *testing.T) {
	in := strings.NewReader(strings.Join([]string{
		"oqi",
		"isready",
		"setoption name Level value medium",
		"position start moves 7R",
		"show",
		"go depth 3",
		"bogus",
		"position start moves 7R 7R",
		"hints depth 2",
	}, "\n"))
	var out bytes.Buffer
	if err := engineLoop(context.Background(), in, &out, nil); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"id name oanquan", "oqiok", "readyok",
		"position 6/6/0/6/6/1*/6/6/0/0/6/1* 1 6,0,0 0,0,0 1",
		"error unknown command \"bogus\"", "error move 7R", "hintsok"} {
		if !strings.Contains(got, want) {
			t.Errorf("session output lacks %q:\n%s", want, got)
		}
	}
	i := strings.Index(got, "bestmove ")
	if i < 0 {
		t.Fatalf("no bestmove in:\n%s", got)
	}
	m, err := notation.ParseMove(strings.Fields(got[i:])[1])
	if err != nil {
		t.Fatal(err)
	}
	pos, _ := notation.ParsePosition("6/6/0/6/6/1*/6/6/0/0/6/1* 1 6,0,0 0,0,0 1")
	if err := pos.Legal(m); err != nil {
		t.Errorf("bestmove %v: %v", m, err)
	}
}
