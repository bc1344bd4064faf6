package endgames

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCheckedRecord: a table checked once is remembered beside it and not
// read whole again while its size and modification time stay the same;
// damaged afterwards (its time changing, as writing changes it) it is
// refused again; a table modified within racyAge of its check is not
// remembered; and a build leaves nothing but its table behind.
func TestCheckedRecord(t *testing.T) {
	dir := t.TempDir()
	if err := Build(context.Background(), 5, dir, BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	if names := dirNames(t, dir); len(names) != 1 || names[0] != Name(5) {
		t.Fatalf("after the build the directory holds %q, want only %s", names, Name(5))
	}
	path := filepath.Join(dir, Name(5))
	record := path + checkedSuffix

	// Just written: checked whole, and not remembered.
	open := func() error {
		tb, err := OpenFile(path)
		if err == nil {
			tb.Close()
		}
		return err
	}
	if err := open(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(record); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a table modified just now was remembered (%v)", err)
	}

	// An hour old: remembered.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if err := open(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(record); err != nil {
		t.Fatalf("the checked table was not remembered: %v", err)
	}

	// Damaged and given its time back: the record is trusted, the
	// entries not read (which shows the record is what is used).
	damage(t, path)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if err := open(); err != nil {
		t.Fatalf("with its record matching, the table was checked whole again: %v", err)
	}

	// Its time changed, as writing to it changes it: checked, refused.
	other := old.Add(time.Minute)
	if err := os.Chtimes(path, other, other); err != nil {
		t.Fatal(err)
	}
	if err := open(); !errors.Is(err, ErrDamaged) {
		t.Fatalf("OpenFile(damaged, its time changed) = %v, want damaged", err)
	}

	// A record that is not one (another table's, garbage) is not trusted.
	if err := os.WriteFile(record, []byte("size 1 modified 2 crc32c 00000000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if err := open(); !errors.Is(err, ErrDamaged) {
		t.Fatalf("OpenFile(damaged, another record) = %v, want damaged", err)
	}
}

// damage flips a bit in the middle of the table file at path.
func damage(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	at := headerSize + (fi.Size()-headerSize)/2
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, at); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0x10
	if _, err := f.WriteAt(b, at); err != nil {
		t.Fatal(err)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}
