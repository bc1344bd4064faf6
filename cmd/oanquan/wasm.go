package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// The files `oanquan wasm` writes, from the module's root. The wasm is
// kept gzipped (the server sends it so, with Content-Encoding: gzip);
// wasm_exec.js is the Go toolchain's own support file, copied from
// $(go env GOROOT)/lib/wasm, which must come from the Go that built the
// wasm. The stamp says which sources and which Go the wasm was built
// from, for TestWasmUpToDate.
const (
	wasmPkg   = "./cmd/engine-wasm"
	wasmFile  = "web/static/offline/engine.wasm.gz"
	wasmExec  = "web/static/offline/wasm_exec.js"
	wasmStamp = "web/engine.stamp"
)

func runWasm(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wasm", flag.ContinueOnError)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("wasm takes no arguments")
	}
	root, err := goOut(ctx, "", "list", "-m", "-f", "{{.Dir}}")
	if err != nil {
		return err
	}
	stamp, err := wasmSources(ctx, root)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "oanquan-wasm")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "engine.wasm")
	if _, err := goOut(ctx, root, "build", "-trimpath", "-ldflags=-s -w", "-o", out, wasmPkg); err != nil {
		return err
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // no name, no time: the same bytes each build
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		return err
	}
	goroot, err := goOut(ctx, "", "env", "GOROOT")
	if err != nil {
		return err
	}
	support, err := os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{wasmFile: gz.Bytes(), wasmExec: support, wasmStamp: []byte(stamp)} {
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "%s: %d bytes (%d raw)\n", wasmFile, gz.Len(), len(raw))
	return nil
}

// wasmSources returns the stamp of the engine's sources: a SHA-256 over
// the Go version and every Go file (and go.mod, go.sum) of the module's
// packages that cmd/engine-wasm is built from.
func wasmSources(ctx context.Context, root string) (string, error) {
	text, err := goOut(ctx, root, "list", "-deps", "-json=ImportPath,Dir,GoFiles,Standard", wasmPkg)
	if err != nil {
		return "", err
	}
	var files []string
	dec := json.NewDecoder(strings.NewReader(text))
	for dec.More() {
		var p struct {
			Dir      string
			GoFiles  []string
			Standard bool
		}
		if err := dec.Decode(&p); err != nil {
			return "", err
		}
		if p.Standard {
			continue
		}
		for _, f := range p.GoFiles {
			rel, err := filepath.Rel(root, filepath.Join(p.Dir, f))
			if err != nil || strings.HasPrefix(rel, "..") {
				return "", fmt.Errorf("%s is outside the module: the engine must use only its own packages", f)
			}
			files = append(files, filepath.ToSlash(rel))
		}
	}
	files = append(files, "go.mod", "go.sum")
	slices.Sort(files)
	version, err := goOut(ctx, root, "env", "GOVERSION")
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", version)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(data))
		h.Write(data)
	}
	return fmt.Sprintf("sources sha256:%s\ngo %s\nfiles %d\n", hex.EncodeToString(h.Sum(nil)), version, len(files)), nil
}

// goOut runs the go command for GOOS=js GOARCH=wasm in dir and returns
// its output, trimmed.
func goOut(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", errors.New("go " + strings.Join(args, " ") + ": " + strings.TrimSpace(stderr.String()+" "+err.Error()))
	}
	return strings.TrimSpace(string(out)), nil
}
