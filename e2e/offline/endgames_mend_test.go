package offline

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"oanquan/ai/endgames"
	. "oanquan/e2e/internal/browsertest"
	"oanquan/internal/server"
)

// tableRelay stands between the browser and a game server that a test
// may replace (a server restarted with other flags), as a proxy would:
// it can alter the body of the first answers carrying the endgame table,
// and it holds every request for /offline/endgames.egtb (the address a
// worker of an older version asked, which reached the network from a page
// its service worker did not control) until the test ends.
type tableRelay struct {
	mu     sync.Mutex
	next   http.Handler
	alter  int           // table answers still to alter
	tables int           // table answers sent
	infos  map[int]int   // answers to /offline/endgames.json, by status
	held   chan struct{} // closed at the test's end
}

func (r *tableRelay) serve(h http.Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next = h
}

// count returns the table answers sent and the answers of the given
// status to /offline/endgames.json.
func (r *tableRelay) count(status int) (tables, infos int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tables, r.infos[status]
}

func (r *tableRelay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	next, alter := r.next, false
	switch p := req.URL.Path; {
	case p == "/offline/endgames.egtb":
		r.mu.Unlock()
		select {
		case <-r.held:
		case <-req.Context().Done():
		}
		return
	case strings.HasPrefix(p, "/offline/endgames-"):
		r.tables++
		alter = r.alter > 0
		r.alter--
	}
	r.mu.Unlock()
	if !strings.HasPrefix(req.URL.Path, "/offline/endgames") {
		next.ServeHTTP(w, req) // the WebSocket's upgrade included
		return
	}
	rec := httptest.NewRecorder()
	if alter {
		req.Header.Del("Accept-Encoding") // the plain file, to alter a byte of
	}
	next.ServeHTTP(rec, req)
	if req.URL.Path == "/offline/endgames.json" {
		r.mu.Lock()
		r.infos[rec.Code]++
		r.mu.Unlock()
	}
	body := rec.Body.Bytes()
	if alter && len(body) > 0 {
		body[len(body)/2] ^= 0x40
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	w.Write(body)
}

// keptTable is the size of the endgame table the service worker keeps (0:
// none), and the hash it was kept under.
const keptTable = `caches.open('oanquan').then((c) => c.match('/offline/endgames.egtb')).then((r) => r ? r.arrayBuffer().then((b) => b.byteLength + ' ' + r.headers.get('X-Hash')) : '0 ')`

// askUpdate asks the service worker to update the table, as a page's
// load does (offline/install.js).
const askUpdate = `navigator.serviceWorker.ready.then((r) => { r.active.postMessage('endgames'); return true; })`

// askTable starts the engine's worker, as local.js does, and returns the
// pebbles of the table it reads, or -1 when it has not answered in 10 s.
const askTable = `(async () => {
  const w = new Worker('/offline/engine-worker.js');
  const answer = new Promise((resolve) => {
    w.onmessage = (e) => { if (e.data.n === 1) resolve(JSON.parse(e.data.answer).body.pebbles); };
  });
  w.postMessage({ n: 1, request: JSON.stringify({ op: 'endgames' }) });
  const pebbles = await Promise.race([answer, new Promise((resolve) => setTimeout(() => resolve(-1), 10000))]);
  w.terminate();
  return pebbles;
})()`

// TestOfflineEndgamesMend: the service worker fetches the table past the
// browser's HTTP cache, so that a copy altered on the way (which fails
// the hash check) is fetched again at the next try, not for ever taken
// from that cache; the engine's worker of a page the service worker does
// not control reads the kept table from the cache, without waiting for a
// network that stalls; a table the engine refuses is deleted; the kept
// table stays while the server builds its own (503) and is deleted when
// the server has none (404).
func TestOfflineEndgamesMend(t *testing.T) {
	const pebbles = 4
	dir := t.TempDir()
	withTable := server.New(server.Config{Endgames: server.Endgames{Dir: dir, Offline: pebbles}})
	relay := &tableRelay{next: withTable, alter: 1, infos: map[int]int{}, held: make(chan struct{})}
	ts := httptest.NewServer(relay)
	t.Cleanup(func() {
		close(relay.held)
		ts.Close()
		withTable.Close()
	})
	for end := time.Now().Add(3 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(ts.URL + "/offline/endgames.json")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == 200 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("no table offered: %s", resp.Status)
		}
	}
	fi, err := os.Stat(filepath.Join(dir, endgames.Name(pebbles)))
	if err != nil {
		t.Fatal(err)
	}
	whole := func(kept string) bool { return strings.HasPrefix(kept, strconv.FormatInt(fi.Size(), 10)+" ") }

	t.Setenv("E2E_URL", ts.URL)
	p := NewPage(t, 390, 844, `{"anim":"off"}`)
	p.Wait(Controlled, 30*time.Second)
	// The first copy fetched was altered: each visit asks again.
	var kept string
	for end := time.Now().Add(30 * time.Second); !whole(kept); time.Sleep(500 * time.Millisecond) {
		if time.Now().After(end) {
			tables, _ := relay.count(0)
			t.Fatalf("after a copy altered on the way, the table is not kept (%q): %d copies fetched from the server", kept, tables)
		}
		Eval[bool](p, askUpdate)
		kept = Eval[string](p, keptTable)
	}
	if tables, _ := relay.count(0); tables != 2 {
		t.Errorf("%d copies of the table fetched from the server, want 2 (the altered one, then the good one)", tables)
	}

	// A page the service worker does not control (a reload bypassing the
	// caches) while the network stalls.
	p.Do(chromedp.Evaluate[chromedp.Void](`window.oldPage = true`), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		ignore := true
		_, err := cdp.Call(ctx, tg, cdppage.Reload, cdppage.ReloadParams{IgnoreCache: &ignore})
		return err
	}))
	p.WaitReload(`window.oldPage`, 20*time.Second)
	if Eval[bool](p, Controlled) {
		t.Fatal("the page reloaded bypassing the caches is controlled by the service worker")
	}
	if got := Eval[int](p, askTable); got != pebbles {
		t.Errorf("the engine of a page the service worker does not control: table of %d pebbles (-1: no answer), want %d", got, pebbles)
	}

	// A table the engine refuses: of another format.
	Eval[bool](p, `caches.open('oanquan').then(async (c) => {
  const b = new Uint8Array(await (await c.match('/offline/endgames.egtb')).arrayBuffer());
  b[7] = '1'.charCodeAt(0);
  await c.put('/offline/endgames.egtb', new Response(b, { headers: { 'X-Hash': 'old' } }));
  return true;
})`)
	if got := Eval[int](p, askTable); got != 0 {
		t.Errorf("the engine reads a table of another format: %d pebbles", got)
	}
	p.Wait(`caches.open('oanquan').then((c) => c.match('/offline/endgames.egtb')).then((r) => !r)`, 10*time.Second)

	// Kept again; then a server building its table keeps it, one with none
	// has it deleted.
	Eval[bool](p, askUpdate)
	for end, kept := time.Now().Add(30*time.Second), ""; !whole(kept); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the table not kept again: %q", kept)
		}
		kept = Eval[string](p, keptTable)
	}
	building := server.New(server.Config{Endgames: server.Endgames{Dir: t.TempDir(), Offline: 9}})
	relay.serve(building)
	Eval[bool](p, askUpdate)
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, n := relay.count(http.StatusServiceUnavailable); n > 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the service worker did not ask the server building its table")
		}
	}
	time.Sleep(500 * time.Millisecond) // the service worker's answer to it
	building.Close()
	if now := Eval[string](p, keptTable); now != kept {
		t.Errorf("while the server builds its table, the kept one is %q, want %q", now, kept)
	}
	none := server.New(server.Config{})
	t.Cleanup(none.Close)
	relay.serve(none)
	Eval[bool](p, askUpdate)
	p.Wait(`caches.open('oanquan').then((c) => c.match('/offline/endgames.egtb')).then((r) => !r)`, 10*time.Second)
	p.ForgetUnreachable()
}
