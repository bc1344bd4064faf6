package server

import (
	"bytes"
	"encoding/json"
	"maps"
	"mime"
	"slices"
	"strings"
)

// The page works offline (docs/OFFLINE.md): /sw.js, its service worker,
// keeps the page's files in the browser and serves them from there. It
// learns which files and which versions from the list the server writes
// into it here, each file's path and content hash, so that there is no
// build step: a new binary with any file changed serves a new sw.js,
// which browsers take as a new version.

// swFilesLine is the line of sw.js that the server fills in.
const swFilesLine = "const FILES = {}; // filled in by the server"

// serviceWorker returns sw.js with the list of assets' paths ("/" for
// the page) and hashes.
func serviceWorker(sw []byte, assets map[string]*asset) []byte {
	files := make(map[string]string, len(assets))
	for _, p := range slices.Sorted(maps.Keys(assets)) {
		if p == "/sw.js" || strings.HasSuffix(p, ".gz") {
			continue
		}
		key := p
		if p == "/index.html" {
			key = "/"
		}
		files[key] = assets[p].hash
	}
	list, _ := json.Marshal(files) // sorted by key
	return bytes.Replace(sw, []byte(swFilesLine), []byte("const FILES = "+string(list)+";"), 1)
}

func init() {
	// Not every system's mime.types knows the manifest.
	mime.AddExtensionType(".webmanifest", "application/manifest+json")
}
