package e2e

import (
	"io/fs"
	"path"
	"strings"
	"testing"

	"oanquan/web"
)

// maxWeight is the budget for the page's HTML, CSS and JavaScript,
// uncompressed: every embedded .html, .css and .js file (the how-to-play
// fragments of all languages included; the translations are JSON and not
// counted), but for those of playing offline (docs/OFFLINE.md), which
// the page does not load to show itself: the service worker and
// offline/install.js load after the page's load event, and the engine's
// files only when a game is played in the browser. Those are listed, and
// have a budget of their own.
const maxWeight = 150_000

// maxOfflineWeight is the budget for the offline files' HTML, CSS and
// JavaScript (the Go toolchain's wasm_exec.js included; the wasm is not
// counted: docs/OFFLINE.md gives its size).
const maxOfflineWeight = 40_000

// offlineFile reports whether name is one of the files of playing
// offline, outside the page's budget.
func offlineFile(name string) bool {
	return name == "sw.js" || strings.HasPrefix(name, "offline/")
}

func TestPageWeight(t *testing.T) {
	total, offline := 0, 0
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
			if offlineFile(name) {
				offline += int(info.Size())
				t.Logf("%6d %s (offline)", info.Size(), name)
				break
			}
			total += int(info.Size())
			t.Logf("%6d %s", info.Size(), name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%6d in all (budget %d); offline %d (budget %d)", total, maxWeight, offline, maxOfflineWeight)
	if offline > maxOfflineWeight {
		t.Errorf("the offline files weigh %d bytes, over their %d budget", offline, maxOfflineWeight)
	}
	if total > maxWeight {
		t.Errorf("HTML + CSS + JS weigh %d bytes, over the %d budget", total, maxWeight)
	}
}
