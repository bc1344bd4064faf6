// Package web holds the browser game's static files, embedded in the
// binary: the page, its JavaScript modules, styles and translations. The
// page renders and animates what the server reports and holds no rules.
package web

import (
	"embed"
	"io/fs"
)

//go:generate go run ../cmd/oanquan wasm
//go:generate go run ../cmd/oanquan icons

//go:embed static
var files embed.FS

// FS returns the static files, rooted so that "index.html" is the page.
func FS() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the embedded tree always has static/
	}
	return sub
}
