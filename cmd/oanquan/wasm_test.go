package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWasmUpToDate fails when the engine for the browser
// (web/static/offline/engine.wasm.gz) was built from other sources than
// the module's, or by another Go: then `go generate ./web` rebuilds it.
func TestWasmUpToDate(t *testing.T) {
	ctx := context.Background()
	root, err := goOut(ctx, "", "list", "-m", "-f", "{{.Dir}}")
	if err != nil {
		t.Fatal(err)
	}
	want, err := wasmSources(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, wasmStamp))
	if err != nil {
		t.Fatalf("%v: run go generate ./web", err)
	}
	if string(got) != want {
		t.Fatalf("the engine for the browser is stale: run go generate ./web\nstamp %s\nsources %s", got, want)
	}
	// The support file must be the one of the Go that built the wasm.
	goroot, err := goOut(ctx, "", "env", "GOROOT")
	if err != nil {
		t.Fatal(err)
	}
	support, _ := os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	copied, _ := os.ReadFile(filepath.Join(root, wasmExec))
	if len(support) == 0 || !bytes.Equal(support, copied) {
		t.Errorf("%s is not $(go env GOROOT)/lib/wasm/wasm_exec.js: run go generate ./web", wasmExec)
	}
	// And the file is a gzipped WebAssembly module.
	f, err := os.Open(filepath.Join(root, wasmFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", wasmFile, err)
	}
	head := make([]byte, 4)
	if _, err := io.ReadFull(zr, head); err != nil || string(head) != "\x00asm" {
		t.Errorf("%s starts %q, not a WebAssembly module", wasmFile, head)
	}
}

// The stamp changes with any source file of the engine.
func TestWasmSourcesChange(t *testing.T) {
	if testing.Short() {
		t.Skip("copies the module")
	}
	ctx := context.Background()
	root, err := goOut(ctx, "", "list", "-m", "-f", "{{.Dir}}")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	if err := os.CopyFS(tmp, os.DirFS(root)); err != nil {
		t.Fatal(err)
	}
	before, err := wasmSources(ctx, tmp)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(tmp, "rules", "doc.go")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, append(data, "\n// changed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	after, err := wasmSources(ctx, tmp)
	if err != nil {
		t.Fatal(err)
	}
	if before == after || !strings.HasPrefix(after, "sources sha256:") {
		t.Errorf("a change to rules/doc.go left the stamp %q", after)
	}
}

// The engine for the browser is the game's packages alone: no store (its
// database drivers), no server, no network.
func TestWasmDeps(t *testing.T) {
	text, err := goOut(context.Background(), "../..", "list", "-deps", "-f", "{{.ImportPath}}", wasmPkg)
	if err != nil {
		t.Fatal(err)
	}
	deps := strings.Fields(text)
	if len(deps) < 10 {
		t.Fatalf("go list -deps %s: %q", wasmPkg, text)
	}
	for _, p := range deps {
		switch {
		case p == "net" || strings.HasPrefix(p, "net/") || p == "database/sql" || p == "os/exec",
			strings.HasPrefix(p, "oanquan/internal/store"), strings.HasPrefix(p, "oanquan/internal/server"),
			strings.Contains(p, ".") && !strings.HasPrefix(p, "vendor/"): // a module from outside
			t.Errorf("%s imports %s", wasmPkg, p)
		}
	}
}
