package e2e

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"oanquan/web"
)

// maxWeight is the budget for what a first visit loads, uncompressed:
// the page, its stylesheet, every JavaScript module it imports statically
// (modules loaded on demand with import(), such as online play, are not
// part of a first visit), and the largest how-to-play fragment (a visit
// to the rules loads one). The translations are JSON and not counted.
// Raised from 150,000 on 2026-12-01, once the clocks had moved into
// online.js, for the feed's pings (a connection that dies silently,
// api.js): what comes next takes bytes out first.
const maxWeight = 151_000

// maxOfflineWeight is the budget for the files of playing offline
// (docs/OFFLINE.md), which a first visit does not need: the service
// worker and offline/install.js load after the page's load event, the
// engine's files only when a game is played in the browser. HTML, CSS and
// JavaScript (the Go toolchain's wasm_exec.js included; the wasm is not
// counted: docs/OFFLINE.md gives its size).
const maxOfflineWeight = 40_000

// offlineFile reports whether name is one of the files of playing
// offline.
func offlineFile(name string) bool {
	return name == "sw.js" || strings.HasPrefix(name, "offline/")
}

var (
	// The page's own files: <script src>, <link href> (stylesheets and
	// module preloads).
	pageRefs = regexp.MustCompile(`<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+\.(?:js|css))"`)
	// A static import: import … from './x.js' or import './x.js'.
	staticImport = regexp.MustCompile(`(?m)^\s*import\s+(?:[^'"();]*?\s+from\s+)?['"](\.[^'"]+)['"]`)
	// A dynamic import: import('./x.js').
	dynamicImport = regexp.MustCompile(`import\(\s*['"](\.[^'"]+)['"]\s*\)`)
)

// firstVisit returns the files a first visit loads, from index.html
// through the static imports, and the modules imported on demand.
func firstVisit(t *testing.T, files fs.FS) (loaded, onDemand []string) {
	t.Helper()
	read := func(name string) string {
		b, err := fs.ReadFile(files, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return string(b)
	}
	seen := map[string]bool{"index.html": true}
	queue := []string{}
	for _, m := range pageRefs.FindAllStringSubmatch(read("index.html"), -1) {
		queue = append(queue, strings.TrimPrefix(path.Clean(m[1]), "/")) // absolute: the page is served at /@/NAME too
	}
	later := map[string]bool{}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		if !strings.HasSuffix(name, ".js") {
			continue
		}
		text := read(name)
		for _, m := range staticImport.FindAllStringSubmatch(text, -1) {
			queue = append(queue, path.Join(path.Dir(name), m[1]))
		}
		for _, m := range dynamicImport.FindAllStringSubmatch(text, -1) {
			later[path.Join(path.Dir(name), m[1])] = true
		}
	}
	for name := range seen {
		loaded = append(loaded, name)
	}
	// What an on-demand module imports statically comes with it, on
	// demand too (clock.js with online.js).
	var more []string
	for name := range later {
		more = append(more, name)
	}
	for len(more) > 0 {
		name := more[0]
		more = more[1:]
		if !strings.HasSuffix(name, ".js") {
			continue
		}
		text := read(name)
		// What it imports, statically or on demand (profile.js by account.js).
		deps := append(staticImport.FindAllStringSubmatch(text, -1), dynamicImport.FindAllStringSubmatch(text, -1)...)
		for _, m := range deps {
			if dep := path.Join(path.Dir(name), m[1]); !seen[dep] && !later[dep] {
				later[dep] = true
				more = append(more, dep)
			}
		}
	}
	for name := range later {
		if !seen[name] {
			onDemand = append(onDemand, name)
		}
	}
	slices.Sort(loaded)
	slices.Sort(onDemand)
	return loaded, onDemand
}

func TestPageWeight(t *testing.T) {
	files := web.FS()
	loaded, onDemand := firstVisit(t, files)
	if !slices.Contains(loaded, "js/app.js") || !slices.Contains(loaded, "css/main.css") || !slices.Contains(loaded, "js/board.js") {
		t.Fatalf("first visit found %v: want the page's stylesheet and modules", loaded)
	}
	size := func(name string) int {
		info, err := fs.Stat(files, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return int(info.Size())
	}
	total := 0
	for _, name := range loaded {
		total += size(name)
		t.Logf("%6d %s", size(name), name)
	}
	howtos, err := fs.Glob(files, "howto/*.html")
	if err != nil || len(howtos) == 0 {
		t.Fatalf("no how-to-play fragments: %v", err)
	}
	largest := ""
	for _, name := range howtos {
		if largest == "" || size(name) > size(largest) {
			largest = name
		}
	}
	total += size(largest)
	t.Logf("%6d %s (the largest how-to-play fragment)", size(largest), largest)
	t.Logf("%6d in all (budget %d)", total, maxWeight)
	for _, name := range onDemand {
		t.Logf("%6d %s, loaded on demand", size(name), name)
	}
	if total > maxWeight {
		t.Errorf("a first visit loads %d bytes of HTML + CSS + JS, over the %d budget", total, maxWeight)
	}
	// Every module of the page is either loaded on a first visit or on
	// demand: none is counted out by mistake. The offline files have a
	// budget of their own.
	offline := 0
	err = fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch ext := path.Ext(name); {
		case offlineFile(name) && (ext == ".js" || ext == ".html" || ext == ".css"):
			offline += size(name)
		case ext == ".js" && path.Dir(name) == "js" && !slices.Contains(loaded, name) && !slices.Contains(onDemand, name):
			t.Errorf("%s is neither imported by the page nor loaded on demand", name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%6d in the offline files (budget %d)", offline, maxOfflineWeight)
	if offline > maxOfflineWeight {
		t.Errorf("the offline files weigh %d bytes, over their %d budget", offline, maxOfflineWeight)
	}
}
