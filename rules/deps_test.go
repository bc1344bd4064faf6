package rules

import (
	"go/build"
	"strings"
	"testing"
)

// TestPureImports states the package's import policy: the rules do no
// I/O and read no clock, network or randomness.
func TestPureImports(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []string{"os", "time", "net", "math/rand", "io", "log", "syscall", "unsafe"}
	for _, imp := range pkg.Imports {
		for _, f := range forbidden {
			if imp == f || strings.HasPrefix(imp, f+"/") {
				t.Errorf("package rules imports %q; it must stay free of I/O, clocks and randomness", imp)
			}
		}
	}
}
