package rules_test

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"oanquan/notation"
	"oanquan/rules"
)

var update = flag.Bool("update", false, "rewrite testdata/perft.txt from the engine")

// perftCases are the positions of testdata/perft.txt: the starts of the
// standard game and its variants, and two middle-game positions.
var perftCases = []struct {
	variants string
	position string
	depth    int
}{
	{"standard", notation.Start, 8},
	{"pebble-mandarins", "5/5/5/5/5/10/5/5/5/5/5/10 0 0,0,0 0,0,0 0", 7},
	{"young-mandarin", notation.Start, 7},
	{"strict-mandarin-stop", notation.Start, 7},
	{"standard", "3/3/0/3/3/1*/3/3/1/4/0/2* 1 14,0,0 10,0,0 1", 7},
	{"standard", "0/0/0/0/0/3/1/0/0/0/39/4* 0 1,1,0 2,0,0 30", 6},
}

// TestPerft checks the number of lines of play from known positions
// against testdata/perft.txt. The file was written by the engine
// (go test -run TestPerft -update) after the engine had been checked
// against the plain reference implementation of reference_test.go; it
// guards against any later change of the rules' behaviour. Without
// -short, every count is also checked against that reference (about 6 s):
// the file's figures did not change when the repetition rule stopped
// comparing debts, and the reference, which follows the new rule, agrees.
func TestPerft(t *testing.T) {
	var got []string
	for _, c := range perftCases {
		var r rules.Rules
		if c.variants != "standard" {
			r.Enable(c.variants)
		}
		p, err := notation.ParsePosition(c.position)
		if err != nil {
			t.Fatal(err)
		}
		maxDepth := c.depth
		if testing.Short() {
			maxDepth = min(maxDepth, 5)
		}
		for d := 1; d <= maxDepth; d++ {
			n := rules.Perft(r, p, d)
			if !testing.Short() {
				if ref := rules.ReferencePerft(r, p, d); ref != n {
					t.Errorf("perft %s | %s | %d: engine %d, reference %d", c.variants, c.position, d, n, ref)
				}
			}
			got = append(got, fmt.Sprintf("%s | %s | %d | %d", c.variants, c.position, d, n))
		}
	}
	path := filepath.Join("testdata", "perft.txt")
	if *update {
		header := "# variants | position | depth | lines of play (oanquan perft)\n"
		if err := os.WriteFile(path, []byte(header+strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			want[line] = true
		}
	}
	for _, line := range got {
		if !want[line] {
			t.Errorf("perft %s: not in %s", line, path)
		}
	}
}
