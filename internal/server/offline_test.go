package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http/httptest"
	"regexp"
	"testing"
	"testing/fstest"
)

// getFile sends a GET for path, with Accept-Encoding gzip if gz.
func getFile(t *testing.T, s *Server, path string, gz bool) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	if gz {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	if w.Code != 200 {
		t.Fatalf("GET %s: %d %s", path, w.Code, w.Body)
	}
	return w
}

// The service worker's list names every file with the hash of what the
// server sends for it, the page as "/".
func TestServiceWorkerList(t *testing.T) {
	s := newServer(t, Config{})
	sw := getFile(t, s, "/sw.js", false).Body.String()
	m := regexp.MustCompile(`const FILES = (\{.*\});`).FindStringSubmatch(sw)
	if m == nil {
		t.Fatalf("sw.js has no list of files:\n%.400s", sw)
	}
	var files map[string]string
	if err := json.Unmarshal([]byte(m[1]), &files); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/", "/js/app.js", "/css/main.css", "/manifest.webmanifest", "/icons/icon-192.png", "/offline/local.js", "/offline/engine.wasm", "/offline/wasm_exec.js"} {
		if files[p] == "" {
			t.Errorf("sw.js does not list %s", p)
		}
	}
	for _, p := range []string{"/sw.js", "/index.html", "/offline/engine.wasm.gz"} {
		if _, ok := files[p]; ok {
			t.Errorf("sw.js lists %s", p)
		}
	}
	for p, hash := range files {
		sum := sha256.Sum256(getFile(t, s, p, false).Body.Bytes())
		if got := hex.EncodeToString(sum[:12]); got != hash {
			t.Errorf("%s: served with hash %s, listed %s", p, got, hash)
		}
	}
}

// A new version of a file makes a new sw.js.
func TestServiceWorkerVersion(t *testing.T) {
	files := fstest.MapFS{
		"index.html": {Data: []byte("<p>one")},
		"sw.js":      {Data: []byte("const FILES = {}; // filled in by the server\n")},
	}
	one := getFile(t, newServer(t, Config{Assets: files}), "/sw.js", false).Body.String()
	files["index.html"] = &fstest.MapFile{Data: []byte("<p>two")}
	two := getFile(t, newServer(t, Config{Assets: files}), "/sw.js", false).Body.String()
	if one == two || !regexp.MustCompile(`^const FILES = \{"/":"[0-9a-f]{24}"\};`).MatchString(two) {
		t.Errorf("sw.js for two versions:\n%s\n%s", one, two)
	}
}

// The engine's wasm is embedded gzipped and served so to browsers, and
// unpacked to clients that take no gzip; the manifest has its type.
func TestEngineServed(t *testing.T) {
	s := newServer(t, Config{})
	gz := getFile(t, s, "/offline/engine.wasm", true)
	if h := gz.Header(); h.Get("Content-Encoding") != "gzip" || h.Get("Content-Type") != "application/wasm" || h.Get("Cache-Control") != "no-cache" || h.Get("ETag") == "" {
		t.Errorf("gzipped: headers %v", h)
	}
	zr, err := gzip.NewReader(gz.Body)
	if err != nil {
		t.Fatal(err)
	}
	unpacked, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	plain := getFile(t, s, "/offline/engine.wasm", false)
	if plain.Header().Get("Content-Encoding") != "" || !bytes.Equal(plain.Body.Bytes(), unpacked) || !bytes.HasPrefix(unpacked, []byte("\x00asm")) {
		t.Errorf("plain: headers %v, %d bytes, gzipped %d bytes unpacked", plain.Header(), plain.Body.Len(), len(unpacked))
	}
	if ct := getFile(t, s, "/manifest.webmanifest", false).Header().Get("Content-Type"); ct != "application/manifest+json" {
		t.Errorf("manifest: Content-Type %q", ct)
	}
}
