package server

import (
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"oanquan/internal/store"

	"oanquan/internal/store/memory"
	"oanquan/internal/wire"
)

var testAssets = fstest.MapFS{
	"index.html":   {Data: []byte("<!doctype html><title>test</title>")},
	"js/app.js":    {Data: []byte("export {};")},
	"css/main.css": {Data: []byte("body{}")},
	"js/big.js":    {Data: []byte(strings.Repeat("export const pebbles = 5;\n", 200))},
}

func TestStaticFiles(t *testing.T) {
	s := newServer(t, Config{Assets: testAssets})
	for _, tc := range []struct{ path, ctype, body string }{
		{"/", "text/html; charset=utf-8", "<!doctype html><title>test</title>"},
		{"/js/app.js", "text/javascript; charset=utf-8", "export {};"},
		{"/css/main.css", "text/css; charset=utf-8", "body{}"},
	} {
		r := do(t, s, "GET", tc.path, nil)
		if r.status != 200 || r.header.Get("Content-Type") != tc.ctype || string(r.body) != tc.body {
			t.Errorf("GET %s: %s, type %q; want %q of type %q", tc.path, r, r.header.Get("Content-Type"), tc.body, tc.ctype)
			continue
		}
		etag := r.header.Get("ETag")
		if etag == "" || r.header.Get("Cache-Control") != "no-cache" {
			t.Errorf("GET %s: ETag %q, Cache-Control %q; want an ETag and no-cache", tc.path, etag, r.header.Get("Cache-Control"))
			continue
		}
		req := httptest.NewRequest("GET", tc.path, nil)
		req.Header.Set("If-None-Match", etag)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code != http.StatusNotModified {
			t.Errorf("GET %s with its ETag: %d, want 304", tc.path, w.Code)
		}
	}
	if r := do(t, s, "GET", "/js/", nil); r.status != 404 {
		t.Errorf("GET /js/: %s, want 404 and no listing", r)
	}
	if a, b := do(t, s, "GET", "/", nil).header.Get("ETag"), do(t, s, "GET", "/js/app.js", nil).header.Get("ETag"); a == b {
		t.Errorf("two files with the ETag %s", a)
	}
}

// TestEmbeddedPage serves the real page.
func TestEmbeddedPage(t *testing.T) {
	s := newServer(t, Config{})
	r := do(t, s, "GET", "/", nil)
	if r.status != 200 || !strings.Contains(string(r.body), "Ô Ăn Quan") {
		t.Errorf("GET /: %s", r)
	}
}

func TestSecurityHeaders(t *testing.T) {
	s := newServer(t, Config{Assets: testAssets})
	for _, path := range []string{"/", "/js/app.js", "/api/games/nope", "/nothing"} {
		h := do(t, s, "GET", path, nil).header
		csp := h.Get("Content-Security-Policy")
		// 'self' only, and WebAssembly for the engine in the browser;
		// nothing unsafe else (no 'unsafe-eval', no 'unsafe-inline').
		rest := strings.Replace(csp, "script-src 'self' 'wasm-unsafe-eval';", "", 1)
		if !strings.Contains(csp, "default-src 'self'") || rest == csp || strings.Contains(rest, "unsafe") || strings.Contains(csp, "*") {
			t.Errorf("GET %s: Content-Security-Policy %q, want 'self' only, and 'wasm-unsafe-eval' in script-src", path, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" || h.Get("Referrer-Policy") == "" {
			t.Errorf("GET %s: headers %v", path, h)
		}
		if api := strings.HasPrefix(path, "/api/"); api != (h.Get("Cache-Control") == "no-store") {
			t.Errorf("GET %s: Cache-Control %q", path, h.Get("Cache-Control"))
		}
	}
}

// TestCrossOrigin: another site's page cannot change a game.
func TestCrossOrigin(t *testing.T) {
	s := newServer(t, Config{})
	g := create(t, s, map[string]any{"mode": "local"})
	for _, h := range []http.Header{
		{"Sec-Fetch-Site": {"cross-site"}},
		{"Origin": {"http://evil.example"}},
	} {
		req := httptest.NewRequest("POST", "/api/games/"+g.ID+"/moves", strings.NewReader(`{"move":"7R"}`))
		for k, v := range h {
			req.Header[k] = v
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		wantError(t, response{w.Code, w.Header(), w.Body.Bytes()}, 403, "forbidden")
	}
	unchanged(t, s, g)
	// The same origin may.
	req := httptest.NewRequest("POST", "/api/games/"+g.ID+"/moves", strings.NewReader(`{"move":"7R"}`))
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	secret, _ := secrets.Load(g.ID)
	req.Header.Set("Authorization", "Bearer "+secret.(string))
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	if w.Code != 200 {
		t.Errorf("same-origin move: %d %s", w.Code, w.Body)
	}
}

// TestPersistence: games are saved as they change, and a new server on
// the same store takes them up where they were.
func TestPersistence(t *testing.T) {
	st := memory.New()
	s := newServer(t, Config{Store: st})
	g := create(t, s, map[string]any{"mode": "local", "level": "medium", "variants": []string{"young-mandarin"}})
	for _, mv := range []string{"7R", "1L", "9L"} {
		must[wire.Turn](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": mv}), 200)
	}
	do(t, s, "PUT", "/api/games/"+g.ID+"/level", `{"level":"hard"}`)
	do(t, s, "POST", "/api/games/"+g.ID+"/undo", nil)
	saved, err := st.Get(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(saved.Moves, " ") != "7R 1L" || saved.Level != "hard" || saved.Mode != "local" || saved.Created.IsZero() {
		t.Errorf("saved %+v, want moves 7R 1L at hard", saved)
	}
	want := get(t, s, g.ID)
	s.Close()

	s2 := newServer(t, Config{Store: st})
	unchanged(t, s2, want)
	must[wire.Turn](t, do(t, s2, "POST", "/api/games/"+g.ID+"/moves", `{"move":"8L"}`), 200)

	// A saved game that no longer makes sense is the server's fault, not
	// the client's: a 500 that says nothing of it.
	st.Create(context.Background(), store.Game{ID: "broken", Mode: "ai", Level: "easy", Start: "nonsense"})
	wantError(t, do(t, s2, "GET", "/api/games/broken", nil), 500, "internal")
}

func TestGzip(t *testing.T) {
	s := newServer(t, Config{Assets: testAssets})
	fetch := func(path, accept, ifNoneMatch string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", path, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		if ifNoneMatch != "" {
			req.Header.Set("If-None-Match", ifNoneMatch)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w
	}
	plain := fetch("/js/big.js", "", "")
	if plain.Header().Get("Content-Encoding") != "" || plain.Body.String() != string(testAssets["js/big.js"].Data) {
		t.Fatalf("without Accept-Encoding: %v", plain.Header())
	}
	for _, accept := range []string{"gzip", "br, gzip;q=0.5, deflate", "GZIP"} {
		w := fetch("/js/big.js", accept, "")
		if w.Code != 200 || w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("Content-Type") != "text/javascript; charset=utf-8" ||
			w.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: %d %v", accept, w.Code, w.Header())
			continue
		}
		zr, err := gzip.NewReader(w.Body)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(zr)
		if string(data) != string(testAssets["js/big.js"].Data) {
			t.Errorf("Accept-Encoding %q: the gzipped body is not the file", accept)
		}
		etag := w.Header().Get("ETag")
		if etag == "" || etag == plain.Header().Get("ETag") {
			t.Errorf("gzipped ETag %q, plain %q: want two different tags", etag, plain.Header().Get("ETag"))
		}
		if w := fetch("/js/big.js", accept, etag); w.Code != http.StatusNotModified {
			t.Errorf("revalidating the gzipped file: %d, want 304", w.Code)
		}
	}
	for _, accept := range []string{"gzip;q=0", "br", "identity"} {
		if w := fetch("/js/big.js", accept, ""); w.Header().Get("Content-Encoding") != "" {
			t.Errorf("Accept-Encoding %q: sent gzipped", accept)
		}
	}
	if w := fetch("/css/main.css", "gzip", ""); w.Header().Get("Content-Encoding") != "" || w.Body.String() != "body{}" {
		t.Errorf("a tiny file was gzipped: %v", w.Header())
	}
}

// TestEvictIdle: games nobody uses leave memory but not the store; games
// watched or thought about stay.
func TestEvictIdle(t *testing.T) {
	gt := newGate()
	s := newServer(t, Config{Engine: gt, IdleTimeout: -1})
	ts := httptest.NewServer(s)
	defer ts.Close()
	idle := create(t, s, map[string]any{"mode": "local"})
	must[wire.Turn](t, do(t, s, "POST", "/api/games/"+idle.ID+"/moves", `{"move":"7R"}`), 200)
	idle = get(t, s, idle.ID)
	watched := create(t, s, map[string]any{"mode": "local"})
	ws := dial(t, ts, watched.ID)
	ws.want("state")
	thinking := create(t, s, map[string]any{"human": 1})
	c := <-gt.Calls

	if n := s.evict(time.Now().Add(-time.Hour)); n != 0 {
		t.Errorf("evicted %d games used just now", n)
	}
	if n := s.evict(time.Now().Add(time.Hour)); n != 1 {
		t.Errorf("evicted %d games, want the idle one only", n)
	}
	if _, live := s.live[idle.ID]; live {
		t.Error("the idle game is still live")
	}
	if c.Ctx.Err() != nil {
		t.Error("eviction canceled the computer's search")
	}
	unchanged(t, s, idle) // back from the store
	if _, live := s.live[idle.ID]; !live {
		t.Error("the idle game did not come back")
	}
	for _, id := range []string{watched.ID, thinking.ID} {
		if _, live := s.live[id]; !live {
			t.Errorf("game %s was evicted", id)
		}
	}
	c.Reply <- c.Pos.LegalMoves(nil)[0]
}

// TestComputerFirstSaved: the computer's first move, played as the game
// is made, is saved after the new game, not overwritten by it.
func TestComputerFirstSaved(t *testing.T) {
	st := memory.New()
	s := New(Config{Store: st, Engine: first{}})
	ts := httptest.NewServer(s)
	defer ts.Close()
	g := create(t, s, map[string]any{"human": 1})
	ws := dial(t, ts, g.ID)
	for m := ws.next(); m.Type != "turn" && (m.State == nil || len(m.State.Moves) == 0); m = ws.next() {
	}
	ws.c.CloseNow()
	s.Close() // waits for the computer's goroutine, save included
	saved, err := st.Get(context.Background(), g.ID)
	if err != nil || len(saved.Moves) != 1 {
		t.Errorf("saved %+v, %v; want the computer's move", saved, err)
	}
}

// TestPageRoutes: a profile's and a leaderboard's addresses answer the
// page itself, as "/" does (same body, type, ETag and cache headers,
// gzipped alike), whatever the name; only those addresses.
func TestPageRoutes(t *testing.T) {
	s := newServer(t, Config{Assets: testAssets})
	fetch := func(method, path, accept string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w
	}
	root := fetch("GET", "/", "")
	for _, path := range []string{"/@/someone", "/@/Ng%E1%BB%8Dc_Lan", "/@/no-such-player-at-all", "/@/%D9%85%D8%B1%DB%8C%D9%85",
		"/leaderboard", "/leaderboard/blitz", "/leaderboard/nonsense"} {
		w := fetch("GET", path, "")
		if w.Code != 200 || w.Body.String() != root.Body.String() {
			t.Errorf("GET %s: %d %q, want the page", path, w.Code, w.Body)
			continue
		}
		for _, k := range []string{"Content-Type", "ETag", "Cache-Control", "Content-Security-Policy", "X-Frame-Options"} {
			if got, want := w.Header().Get(k), root.Header().Get(k); got != want || want == "" {
				t.Errorf("GET %s: %s %q, want %q as for /", path, k, got, want)
			}
		}
		if h := fetch("HEAD", path, ""); h.Code != 200 || h.Body.Len() != 0 {
			t.Errorf("HEAD %s: %d, %d bytes", path, h.Code, h.Body.Len())
		}
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("If-None-Match", root.Header().Get("ETag"))
		w = httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code != http.StatusNotModified {
			t.Errorf("GET %s with the page's ETag: %d, want 304", path, w.Code)
		}
	}
	for _, path := range []string{"/@/", "/@/a/b", "/leaderboard/blitz/x", "/leaderboards", "/@"} {
		if w := fetch("GET", path, ""); w.Code != 404 {
			t.Errorf("GET %s: %d %q, want 404", path, w.Code, w.Body)
		}
	}
	if w := fetch("POST", "/@/someone", ""); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /@/someone: %d, want 405", w.Code)
	}
	// The real page is large enough to go gzipped: so it does at a profile.
	real := newServer(t, Config{})
	req := httptest.NewRequest("GET", "/@/someone", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	w := httptest.NewRecorder()
	real.ServeHTTP(w, req)
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("Vary") != "Accept-Encoding" {
		t.Fatalf("GET /@/someone gzip: %d %v", w.Code, w.Header())
	}
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(zr)
	if !strings.Contains(string(data), "Ô Ăn Quan") {
		t.Errorf("GET /@/someone gzip: not the page")
	}
	// The page may say <base href="/"> (the CSP's base-uri allows its
	// own origin, and only it).
	if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "base-uri 'self'") {
		t.Errorf("Content-Security-Policy %q: want base-uri 'self'", csp)
	}
}
