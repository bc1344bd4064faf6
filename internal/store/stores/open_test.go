package stores

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"oanquan/internal/store"
	"oanquan/internal/store/memory"
	"oanquan/internal/store/postgres"
	"oanquan/internal/store/sqlite"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "xdg"))
	notDB := filepath.Join(dir, "notes.txt")
	os.WriteFile(notDB, []byte("not a database, but long enough to look like a file header to SQLite"), 0o600)
	tests := []struct {
		spec     string
		kind     string // the store's type, or "" for an error
		describe string // in the description, or in the error
	}{
		{"memory", "*memory.DB", "memory"},
		{"", "*sqlite.DB", filepath.Join(dir, "xdg", "oanquan", "oanquan.db")},
		{filepath.Join(dir, "a.db"), "*sqlite.DB", "SQLite file " + filepath.Join(dir, "a.db")},
		{"mysql://u@h/db", "", `unknown kind of database "mysql://"`},
		{dir, "", "is a directory"},
		{filepath.Join(dir, "missing", "a.db"), "", "the directory of the SQLite file"},
		{notDB, "", "not a database"},
		{"postgres://u:secret@127.0.0.1:1/db?connect_timeout=2", "", "postgres://u:xxxxx@127.0.0.1:1/db"},
	}
	for _, tt := range tests {
		s, desc, err := Open(context.Background(), tt.spec, nil)
		if tt.kind == "" {
			if err == nil {
				s.Close()
				t.Errorf("Open(%q) = %s, nil; want an error", tt.spec, desc)
			} else if !strings.Contains(err.Error(), tt.describe) || strings.Contains(err.Error(), "secret") ||
				!strings.HasPrefix(err.Error(), "--db") {
				t.Errorf("Open(%q) = %q; want an error about --db that says %q (and no password)", tt.spec, err, tt.describe)
			}
			continue
		}
		if err != nil {
			t.Errorf("Open(%q) = %v", tt.spec, err)
			continue
		}
		if got := typeName(s); got != tt.kind || !strings.Contains(desc, tt.describe) {
			t.Errorf("Open(%q) = %s, %q; want %s, a description with %q", tt.spec, got, desc, tt.kind, tt.describe)
		}
		s.Close()
	}
	fi, err := os.Stat(filepath.Join(dir, "xdg", "oanquan"))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the default directory: %v, %v; want mode 0700", fi.Mode(), err)
	}
}

func typeName(s store.Store) string {
	switch s.(type) {
	case *memory.DB:
		return "*memory.DB"
	case *sqlite.DB:
		return "*sqlite.DB"
	case *postgres.DB:
		return "*postgres.DB"
	}
	return "?"
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("HOME", "/home/ana")
	for _, tt := range []struct{ xdg, want string }{
		{"/data", "/data/oanquan/oanquan.db"},
		{"", "/home/ana/.local/share/oanquan/oanquan.db"},
		{"relative/dir", "/home/ana/.local/share/oanquan/oanquan.db"},
	} {
		t.Setenv("XDG_DATA_HOME", tt.xdg)
		if got, err := DefaultPath(); got != tt.want || err != nil {
			t.Errorf("XDG_DATA_HOME=%q: DefaultPath() = %q, %v; want %q", tt.xdg, got, err, tt.want)
		}
	}
}
