package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"oanquan/internal/api"
	"oanquan/web"
)

// asset is one static file, prepared once: the files are embedded and
// change only with the binary.
type asset struct {
	etag   string // a hash of the content
	ctype  string // from the name's extension; "" lets the file server sniff
	gz     []byte // the content gzipped, or nil where that does not pay
	gzEtag string // the ETag of the gzipped form
	hash   string // the content's hash, in hex (in the ETag, and the service worker's list)
	plain  []byte // the content, as served to those who take no gzip
}

// embeddedAssets returns the embedded files, prepared once for every
// server of the process: they change only with the binary, and preparing
// them (gzip, the engine's wasm unpacked, hashes) takes a while.
var embeddedAssets = sync.OnceValue(func() map[string]*asset { return loadAssets(web.FS()) })

// loadAssets prepares every file of fsys.
func loadAssets(fsys fs.FS) map[string]*asset {
	assets := make(map[string]*asset)
	fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil
		}
		var gz []byte
		if strings.HasSuffix(name, ".gz") { // kept gzipped (the engine's wasm): served as the file it holds
			gz = data
			if data, err = gunzip(gz); err != nil {
				return nil
			}
			name = strings.TrimSuffix(name, ".gz")
		}
		if name == "sw.js" {
			return nil // made last, with the others' hashes
		}
		assets["/"+name] = newAsset(name, data, gz)
		return nil
	})
	if data, err := fs.ReadFile(fsys, "sw.js"); err == nil {
		assets["/sw.js"] = newAsset("sw.js", serviceWorker(data, assets), nil)
	}
	return assets
}

// newAsset prepares the file name with the content data, and gz, if not
// nil, its gzipped form as embedded.
func newAsset(name string, data, gz []byte) *asset {
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:12])
	a := &asset{etag: `"` + hash + `"`, ctype: mime.TypeByExtension(path.Ext(name)), hash: hash, plain: data}
	switch {
	case gz != nil:
		a.gz, a.gzEtag = gz, `"`+hash+`-gz"`
	case compressible(a.ctype):
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(data)
		zw.Close()
		if b.Len() < len(data)*9/10 {
			a.gz, a.gzEtag = b.Bytes(), `"`+hash+`-gz"`
		}
	}
	return a
}

// gunzip returns the content of a gzipped file.
func gunzip(gz []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func compressible(ctype string) bool {
	return strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "javascript") ||
		strings.Contains(ctype, "json") || strings.Contains(ctype, "xml")
}

// static serves the page's files. Each carries an ETag and "no-cache":
// browsers keep them and revalidate, getting a 304 while they have not
// changed. Text files go gzipped to browsers that take it.
func (s *Server) static() http.Handler {
	files := http.FileServerFS(s.cfg.Assets)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			s.writeError(w, r, api.Fail(api.ErrMethod, "%s is not allowed here: use GET", api.Short(r.Method)))
			return
		}
		dir := strings.HasSuffix(r.URL.Path, "/")
		p := path.Clean("/" + r.URL.Path)
		if dir {
			p = path.Join(p, "index.html")
		}
		if isOfflinePath(p) {
			s.endgames.serveOffline(w, r, p) // made at run time (endgames.go)
			return
		}
		a := s.assets[p]
		w.Header().Set("Cache-Control", "no-cache")
		switch {
		case a == nil && dir:
			http.NotFound(w, r) // no directory listings
		case a == nil || strings.HasSuffix(r.URL.Path, "/index.html"):
			files.ServeHTTP(w, r) // 404s, and the redirect of …/index.html to …/
		default:
			serveAsset(w, r, p, a)
		}
	})
}

// page serves the page itself (index.html, as "/" does) at the addresses
// the page routes by path rather than by fragment: a player's profile
// (/@/{name}) and the leaderboards (/leaderboard, /leaderboard/{speed}).
// Whether the name or the speed exists is the page's to say, from the
// API; the server answers the page for any.
func (s *Server) page() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := s.assets["/index.html"]
		if a == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		serveAsset(w, r, "/index.html", a)
	})
}

// serveAsset answers r with the file a at path p: gzipped to browsers
// that take it, with its ETag, revalidated.
func serveAsset(w http.ResponseWriter, r *http.Request, p string, a *asset) {
	h := w.Header()
	switch {
	case a.gz != nil && acceptsGzip(r):
		h.Set("Vary", "Accept-Encoding")
		h.Set("Content-Encoding", "gzip")
		h.Set("Content-Type", a.ctype)
		h.Set("ETag", a.gzEtag)
		http.ServeContent(w, r, p, time.Time{}, bytes.NewReader(a.gz))
	default:
		if a.gz != nil {
			h.Set("Vary", "Accept-Encoding")
		}
		h.Set("ETag", a.etag)
		if a.ctype != "" {
			h.Set("Content-Type", a.ctype)
		}
		http.ServeContent(w, r, p, time.Time{}, bytes.NewReader(a.plain))
	}
}

// acceptsGzip reports whether r's Accept-Encoding takes gzip.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
