package e2e

import (
	"io/fs"
	"path"
	"testing"

	"oanquan/web"
)

// maxWeight is the budget for the page's HTML, CSS and JavaScript,
// uncompressed: every embedded .html, .css and .js file (the how-to-play
// fragments of all languages included; the translations are JSON and not
// counted).
const maxWeight = 150_000

func TestPageWeight(t *testing.T) {
	total := 0
	err := fs.WalkDir(web.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch path.Ext(name) {
		case ".html", ".css", ".js":
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += int(info.Size())
			t.Logf("%6d %s", info.Size(), name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%6d in all (budget %d)", total, maxWeight)
	if total > maxWeight {
		t.Errorf("HTML + CSS + JS weigh %d bytes, over the %d budget", total, maxWeight)
	}
}
