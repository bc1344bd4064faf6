package store

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDomainImports writes down that this package is the stores' domain:
// no database driver, no SQL and no store of its own (those are the
// adapters', in memory, sqlite and postgres), so that whoever imports the
// types imports no backend.
func TestDomainImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path == "database/sql" || strings.HasPrefix(path, "github.com/jackc/") || strings.HasPrefix(path, "modernc.org/") ||
				strings.HasPrefix(path, "oanquan/internal/store/") {
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
}
