package account

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestImports states the package's policy: it does no I/O and prints
// nothing (a library that logs could log a secret); net/http is imported
// for the types of cookies and requests alone, and no package of the
// project, so that the store and the server can both use this one.
func TestImports(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			switch p := strings.Trim(imp.Path.Value, `"`); {
			case p == "os", p == "log", p == "net", p == "database/sql", p == "unsafe",
				strings.HasPrefix(p, "os/"), strings.HasPrefix(p, "net/") && p != "net/http",
				strings.HasPrefix(p, "math/rand"), strings.HasPrefix(p, "oanquan/"):
				t.Errorf("%s imports %q", name, p)
			}
		}
	}
}
