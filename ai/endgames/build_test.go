package endgames

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"oanquan/rules"
)

// build builds the table for n pebbles in a new directory and returns the
// file's bytes.
func build(t *testing.T, n int, opt BuildOptions) []byte {
	t.Helper()
	dir := t.TempDir()
	if err := Build(context.Background(), n, dir, opt); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, Name(n)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestResume interrupts a build after its first checkpoint, checks that
// the unfinished table is refused, resumes it, and compares the result
// with a build without interruption, and with one on one thread: the
// table is the one consistent set of bounds the passes reach, whatever
// the order and the interruptions.
func TestResume(t *testing.T) {
	const n = 6
	whole := build(t, n, BuildOptions{})
	if one := build(t, n, BuildOptions{Threads: 1}); !bytes.Equal(one, whole) {
		t.Fatal("one thread built another table than every core")
	}
	dir := t.TempDir()
	part := filepath.Join(dir, Name(n)+".part")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(part); err == nil {
				cancel()
			}
			time.Sleep(time.Millisecond)
		}
	}()
	err := Build(ctx, n, dir, BuildOptions{Every: time.Nanosecond})
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted build: %v, want context.Canceled", err)
	}
	if _, err := OpenFile(part); err == nil || !strings.Contains(err.Error(), "unfinished") {
		t.Fatalf("OpenFile(checkpoint) = %v, want an unfinished build refused", err)
	}
	if _, err := Open(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open(dir with a checkpoint only) = %v, want os.ErrNotExist", err)
	}
	if err := Build(context.Background(), n, dir, BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	resumed, err := os.ReadFile(filepath.Join(dir, Name(n)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resumed, whole) {
		t.Fatal("the resumed build differs from the uninterrupted one")
	}
	if _, err := os.Stat(part); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("checkpoint left after the build: %v", err)
	}
}

// TestOpenErrors gives Open damaged files: each error names the file and
// what is wrong.
func TestOpenErrors(t *testing.T) {
	good := build(t, 2, BuildOptions{})
	for _, c := range []struct {
		name, want string
		data       []byte
	}{
		{"magic", "not an endgame table", append([]byte("XXXXXXXX"), good[8:]...)},
		{"truncated", "truncated", good[:len(good)-2]},
		{"header", "do not match", append(append([]byte{}, good[:8]...), append([]byte{3}, good[9:]...)...)},
		{"empty", "not an endgame table", nil},
	} {
		path := filepath.Join(t.TempDir(), Name(2))
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := OpenFile(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: OpenFile = %v, want an error naming the file and %q", c.name, err, c.want)
		}
	}
}

// TestCovers checks what a table answers for: its pebbles, a game in play,
// the default rules once the young-mandarin turns are over.
func TestCovers(t *testing.T) {
	dir := t.TempDir()
	if err := Build(context.Background(), 4, dir, BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	p := rules.Position{Stone: [2]bool{true, true}, Ply: 20}
	p.Cells[0], p.Cells[7] = 2, 2
	p.Stores[0].Pebbles = 46
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	var def, young, strict rules.Rules
	young.Enable("young-mandarin")
	strict.Enable("strict-mandarin-stop")
	if _, ok := tb.Probe(&p, &def); !ok {
		t.Errorf("Probe(%v) not covered by the table of 4 pebbles", p)
	}
	if _, ok := tb.Probe(&p, &strict); ok {
		t.Error("Probe covered a position under strict-mandarin-stop")
	}
	if _, ok := tb.Probe(&p, &young); !ok {
		t.Error("Probe did not cover a position after the young-mandarin turns")
	}
	p.Ply = 3
	if _, ok := tb.Probe(&p, &young); ok {
		t.Error("Probe covered a position during the young-mandarin turns")
	}
	p.Ply = 20
	p.Cells[8]++
	p.Stores[0].Pebbles--
	if _, ok := tb.Probe(&p, &def); ok {
		t.Error("Probe covered a position with 5 pebbles in a table of 4")
	}
}

// TestLoad reads a table from its file's bytes: it answers as the file
// opened does, and damaged bytes are refused as OpenFile refuses them.
func TestLoad(t *testing.T) {
	data := build(t, 4, BuildOptions{})
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, Name(4)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	opened, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	loaded, err := Load("table", data)
	if err != nil {
		t.Fatal(err)
	}
	defer loaded.Close()
	if loaded.Pebbles() != 4 {
		t.Errorf("Load: %d pebbles, want 4", loaded.Pebbles())
	}
	if a, b := loaded.Stats(), opened.Stats(); a.Positions != b.Positions || a.Exact != b.Exact || a.Bounded != b.Bounded || a.Positions == 0 {
		t.Errorf("Load: stats %+v, the file opened %+v", a, b)
	}
	var r rules.Rules
	p := rules.Position{Stone: [2]bool{true, true}, Ply: 20}
	p.Cells[0], p.Cells[7] = 2, 2
	p.Stores[0].Pebbles = 46
	if a, ok := loaded.Probe(&p, &r); !ok {
		t.Errorf("Load: %v not covered", p)
	} else if b, _ := opened.Probe(&p, &r); a != b {
		t.Errorf("Load: %v has %v, the file opened %v", p, a, b)
	}
	unfinished := append([]byte{}, data...)
	copy(unfinished[24:], []byte{3, 0, 0, 0})
	for name, bad := range map[string][]byte{"truncated": data[:len(data)-2], "magic": append([]byte("OAQEGTB0"), data[8:]...), "unfinished": unfinished, "empty": nil} {
		if _, err := Load("t.egtb", bad); err == nil || !strings.Contains(err.Error(), "t.egtb") {
			t.Errorf("Load(%s) = %v, want an error naming it", name, err)
		}
	}
}
