package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"oanquan/ai"
	"oanquan/ai/endgames"
	"oanquan/internal/match"
	"oanquan/rules"
)

// Endgames says which endgame tables (package endgames, docs/AI.md) the
// server uses. The zero value uses none: the server plays, hints and
// reviews by search alone, and the page offline has no table.
type Endgames struct {
	// Dir holds the tables. The computer's moves at Hard, the hints and
	// the reviews read the one for the most pebbles there that can be
	// read; one that cannot (damaged, of another version, unfinished) is
	// logged and left out.
	Dir string
	// Offline is the pebbles of the small table the page's engine keeps
	// for offline play (docs/OFFLINE.md), served at /offline/endgames.json
	// and built into Dir in the background when it is not there or cannot
	// be read (it is then also the server's own table if Dir had none, or
	// only smaller ones). 0: OfflinePebbles; negative: none.
	Offline int
}

// OfflinePebbles is the size of the browser's table: every position with
// at most 10 pebbles on the board, 5.2 MB, 2.5 MB gzipped (docs/AI.md says
// why 10).
const OfflinePebbles = 10

// endgameTables are the server's tables: its own, for its searches, and
// the browser's, to serve. Both may appear after New (the browser's is
// built in the background), hence the atomic pointers.
type endgameTables struct {
	dir     string
	pebbles int // of the browser's table; negative: none
	log     *slog.Logger

	own     atomic.Pointer[endgames.Table]
	offline atomic.Pointer[offlineTable]
	// preparing is true from New until the browser's table is served or
	// found impossible: the page is told to come back (503), not that
	// there is none (404, on which its service worker forgets its copy).
	preparing atomic.Bool
	closers   []func() error   // set before the server serves; closed by close
	bad       map[string]error // the tables in dir that could not be opened (logged) and why
}

// offlineTable is the browser's table, ready to serve.
type offlineTable struct {
	pebbles int
	hash    string // of the file's bytes, in hex (as the service worker's list)
	plain   []byte // the file
	gz      []byte // gzipped
	info    []byte // the JSON of /offline/endgames.json
}

// The paths of the browser's table: what it is, and the table itself,
// named by its hash so that a new table is a new address.
const (
	offlineInfoPath  = "/offline/endgames.json"
	offlineTablePath = "/offline/endgames-"
)

// openEndgames opens the server's own table in cfg.Dir, logging which
// (or why none): the one for the most pebbles that can be read, each
// larger one that cannot being logged and left out.
func openEndgames(cfg Endgames, log *slog.Logger) *endgameTables {
	e := &endgameTables{dir: cfg.Dir, pebbles: cfg.Offline, log: log, bad: map[string]error{}}
	if e.pebbles == 0 {
		e.pebbles = OfflinePebbles
	}
	if e.dir == "" {
		e.pebbles = -1
		return e
	}
	e.preparing.Store(e.pebbles >= 0)
	paths := endgames.Paths(e.dir)
	if len(paths) == 0 {
		log.Info("endgame tables: none in the directory; searching without", "dir", e.dir)
		return e
	}
	for _, path := range paths {
		t, err := endgames.OpenFile(path)
		if err != nil {
			log.Warn("endgame table not used: the server reads a smaller one, or none", "err", err)
			e.bad[path] = err
			continue
		}
		e.use(t, path)
		e.closers = append(e.closers, t.Close)
		return e
	}
	return e
}

// use makes t the server's own table, and says so.
func (e *endgameTables) use(t *endgames.Table, path string) {
	var size int64
	if fi, err := os.Stat(path); err == nil {
		size = fi.Size()
	}
	e.own.Store(t)
	e.log.Info("endgame table used by Hard, hints and reviews", "pebbles", t.Pebbles(), "bytes", size, "path", path)
}

// table returns the server's own table, or nil.
func (e *endgameTables) table() *endgames.Table { return e.own.Load() }

// close releases the tables: once nothing searches any more.
func (e *endgameTables) close() {
	for _, c := range e.closers {
		c()
	}
}

// buildNice is the nice value of the thread that builds the browser's
// table on Linux: lower still than the searches' (10, internal/match),
// since players wait for those and nobody waits for the table.
const buildNice = 15

// prepareOffline makes the browser's table ready to serve: read from
// Dir, or first built there (on one core, at a low priority, so that
// games go on), also when the file there cannot be read (damaged,
// truncated, unfinished, or of another format, left by an older server):
// Build replaces it. A table that cannot be built or read is logged, and
// the page plays offline without one. An interrupted build (the server
// stopping: it stops within a few milliseconds) resumes at the next
// start. Several servers sharing Dir may build it at once: each writes
// its own temporary file and renames it whole into place
// (endgames.Build), so none reads a part of a file. The table is also
// the server's own when it has none, or a smaller one.
func (e *endgameTables) prepareOffline(ctx context.Context) {
	if e.pebbles < 0 {
		return
	}
	n := e.pebbles
	path := filepath.Join(e.dir, endgames.Name(n))
	data, t, err := readTable(path)
	if err != nil {
		if err := e.build(ctx, path, err); err != nil {
			if !errors.Is(err, context.Canceled) { // else stopping: the checkpoint is kept
				e.preparing.Store(false) // none: logged
			}
			return
		}
		if data, t, err = readTable(path); err != nil {
			e.log.Warn("endgame table for the page offline not served: the page plays offline without it", "err", err)
			e.preparing.Store(false)
			return
		}
	}
	o := newOfflineTable(t.Pebbles(), data)
	e.offline.Store(o)
	e.preparing.Store(false)
	e.log.Info("endgame table for the page offline served", "pebbles", o.pebbles, "bytes", len(o.plain), "gzipped", len(o.gz), "hash", o.hash)
	if own := e.own.Load(); own == nil || own.Pebbles() < t.Pebbles() {
		// A table read, not mapped: it needs no closing. The one it
		// replaces may still be read by a search: it is closed by close.
		e.use(t, path)
	}
}

// build builds the browser's table at path, which could not be read
// (readErr). It returns nil when built, context.Canceled when the server
// stops, else the failure, logged.
func (e *endgameTables) build(ctx context.Context, path string, readErr error) error {
	_, logged := e.bad[path]
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		if !logged {
			e.log.Warn("endgame table for the page offline not served: the page plays offline without it", "err", readErr)
		}
		return readErr // not a file: nothing to replace
	}
	if !logged && !errors.Is(readErr, os.ErrNotExist) {
		e.log.Warn("endgame table for the page offline not served: building it again", "err", readErr)
	}
	n := e.pebbles
	start := time.Now()
	e.log.Info("building the endgame table for the page offline, in the background", "pebbles", n, "dir", e.dir)
	err := os.MkdirAll(e.dir, 0o700)
	if err == nil {
		err = endgames.Build(ctx, n, e.dir, endgames.BuildOptions{Threads: 1, Nice: buildNice})
	}
	switch {
	case err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return context.Canceled
	case err != nil:
		e.log.Warn("the endgame table for the page offline could not be built: the page plays offline without it", "err", err)
		return err
	}
	e.log.Info("built the endgame table for the page offline", "pebbles", n, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// readTable reads the table file at path whole, and the table in it.
func readTable(path string) ([]byte, *endgames.Table, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	t, err := endgames.Load(path, data)
	return data, t, err
}

// newOfflineTable prepares the file data of a table of n pebbles to
// serve.
func newOfflineTable(n int, data []byte) *offlineTable {
	sum := sha256.Sum256(data)
	o := &offlineTable{pebbles: n, hash: hex.EncodeToString(sum[:12]), plain: data}
	var b bytes.Buffer
	// The default level: 0.4% larger than the best, and 5 times faster
	// (0.2 s against 1 s for 9 pebbles in format 2), at each start.
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	o.gz = b.Bytes()
	o.info, _ = json.Marshal(map[string]any{
		"pebbles": n,
		"bytes":   len(data),
		"gzipped": len(o.gz),
		"hash":    o.hash,
		"url":     offlineTablePath + o.hash + ".egtb",
	})
	return o
}

// offlineRetry is how soon a page is told to ask again for the browser's
// table while it is being built (its service worker asks at each visit).
const offlineRetry = "60"

// serveOffline answers the paths of the browser's table: what it is
// (revalidated each time, as the page's files), and the table under its
// hash (never changes: kept a year, and never altered by a proxy, since
// the service worker checks its hash). Both are 503 with Retry-After while
// it is being built, and 404 when there is none (none configured, or it
// could not be made): the page's service worker then forgets its copy.
func (e *endgameTables) serveOffline(w http.ResponseWriter, r *http.Request, p string) {
	o := e.offline.Load()
	h := w.Header()
	switch {
	case o == nil && e.preparing.Load():
		h.Set("Cache-Control", "no-cache")
		h.Set("Retry-After", offlineRetry)
		http.Error(w, "the endgame table is being built: ask again later", http.StatusServiceUnavailable)
	case o != nil && p == offlineInfoPath:
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Type", "application/json")
		h.Set("ETag", `"`+o.hash+`"`)
		http.ServeContent(w, r, p, time.Time{}, bytes.NewReader(o.info))
	case o != nil && p == offlineTablePath+o.hash+".egtb":
		h.Set("Cache-Control", "public, max-age=31536000, immutable, no-transform")
		h.Set("Content-Type", "application/octet-stream")
		h.Set("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			h.Set("Content-Encoding", "gzip")
			h.Set("ETag", `"`+o.hash+`-gz"`)
			http.ServeContent(w, r, p, time.Time{}, bytes.NewReader(o.gz))
			return
		}
		h.Set("ETag", `"`+o.hash+`"`)
		http.ServeContent(w, r, p, time.Time{}, bytes.NewReader(o.plain))
	default:
		h.Set("Cache-Control", "no-cache")
		http.Error(w, "no such endgame table here", http.StatusNotFound)
	}
}

// isOfflinePath reports whether p is one of the browser's table's.
func isOfflinePath(p string) bool {
	return p == offlineInfoPath || strings.HasPrefix(p, offlineTablePath)
}

// engine returns next (nil: package ai) with the server's table given to
// every search that has none.
func (e *endgameTables) engine(next match.Engine) match.Engine {
	if next == nil {
		next = match.AIEngine{}
	}
	return tableEngine{e, next}
}

type tableEngine struct {
	e    *endgameTables
	next match.Engine
}

// Search searches with the table.
func (g tableEngine) Search(ctx context.Context, pos rules.Position, lim ai.Limits) (ai.Result, error) {
	if lim.Endgames == nil {
		lim.Endgames = g.e.table()
	}
	return g.next.Search(ctx, pos, lim)
}

// Hints searches with the table.
func (g tableEngine) Hints(ctx context.Context, pos rules.Position, lim ai.Limits) ([]ai.Hint, error) {
	if lim.Endgames == nil {
		lim.Endgames = g.e.table()
	}
	return g.next.Hints(ctx, pos, lim)
}
