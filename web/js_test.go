package web

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestJavaScript runs the unit tests of the page's pure modules
// (jstest/*.test.mjs: the board's geometry and the notation, the keys,
// the turn pipeline's state machine, a turn's events, the strings and
// numbers) with Node's own test runner: no npm, no package. Without node
// it skips, saying how to install it; under CI=true a missing node fails.
func TestJavaScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		const how = "the page's JavaScript unit tests need node: apt-get install -y nodejs"
		if os.Getenv("CI") == "true" {
			t.Fatal(how)
		}
		t.Skip(how)
	}
	files, err := filepath.Glob(filepath.Join("jstest", "*.test.mjs"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no JavaScript tests in jstest/: %v", err)
	}
	out, err := exec.Command(node, append([]string{"--test"}, files...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("node --test %v: %v\n%s", files, err, out)
	}
	if testing.Verbose() {
		t.Logf("%s", out)
	}
}
