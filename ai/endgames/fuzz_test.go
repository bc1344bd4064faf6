package endgames

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"oanquan/rules"
)

// FuzzOpenFile opens arbitrary files as tables: Open refuses them with an
// error, or every position the table then covers can be probed without
// reading past its entries.
func FuzzOpenFile(f *testing.F) {
	dir := f.TempDir()
	if err := Build(context.Background(), 1, dir, BuildOptions{}); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(dir, Name(1)))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:headerSize])
	f.Add(bytes.Repeat([]byte{0xff}, headerSize+16))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "t.egtb")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		tb, err := OpenFile(path)
		if err != nil {
			return
		}
		defer tb.Close()
		var r rules.Rules
		for _, c := range []int{0, rules.LeftMandarin, rules.RightMandarin, 7} {
			p := rules.Position{Stone: [2]bool{true, true}, Ply: 20}
			p.Cells[c] = uint8(min(tb.Pebbles(), 1))
			p.Cells[2], p.Cells[8] = 0, 0
			if p.Cells[c] == 0 || c == 7 {
				p.Cells[2], p.Cells[8] = 1, 1
			}
			tb.Probe(&p, &r)
			tb.Moves(&p, &r, nil)
		}
	})
}

// FuzzLoad reads arbitrary bytes as a table, as the engine in the browser
// does: Load refuses them with an error, or every position the table then
// covers can be probed without reading past its entries.
func FuzzLoad(f *testing.F) {
	dir := f.TempDir()
	if err := Build(context.Background(), 1, dir, BuildOptions{}); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(dir, Name(1)))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:headerSize])
	f.Fuzz(func(t *testing.T, data []byte) {
		tb, err := Load("t.egtb", data)
		if err != nil {
			return
		}
		var r rules.Rules
		p := rules.Position{Stone: [2]bool{true, true}, Ply: 20}
		p.Cells[2], p.Cells[8] = uint8(min(tb.Pebbles(), 1)), uint8(min(tb.Pebbles(), 1))
		tb.Probe(&p, &r)
		tb.Moves(&p, &r, nil)
		tb.Stats()
	})
}
