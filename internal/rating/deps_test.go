package rating

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestPure states the package's policy: no I/O, no randomness, and no
// reading of the clock (callers pass the moment of each game; package
// time is imported for its types alone); of the project, only package
// timecontrol's type.
func TestPure(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			switch p := strings.Trim(imp.Path.Value, `"`); {
			case p == "oanquan/timecontrol":
			case p == "os", p == "io", p == "log", p == "net", p == "syscall", p == "unsafe",
				strings.HasPrefix(p, "os/"), strings.HasPrefix(p, "io/"), strings.HasPrefix(p, "net/"),
				strings.HasPrefix(p, "math/rand"), strings.HasPrefix(p, "oanquan/"):
				t.Errorf("%s imports %q", name, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "time" && (sel.Sel.Name == "Now" || sel.Sel.Name == "Since" || sel.Sel.Name == "Until") {
					t.Errorf("%s: reads the clock (time.%s)", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
}
