package offline

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"oanquan/ai/endgames"
	. "oanquan/e2e/internal/browsertest"
	"oanquan/internal/server"
	"oanquan/notation"
	"oanquan/rules"
)

// endgameStart is a position with 3 pebbles on the board whose every move
// the table of 6 pebbles knows exactly as the start of a game, and which
// a search of 14 plies does not prove: player 1 to move.
const endgameStart = "1/0/1/0/0/0/0/0/1/0/0/0* 1 12,0,0 35,1,0 30"

// askEngine starts the engine in a worker of its own, as local.js does,
// and asks it: which table it has, Hard's search of endgameStart, and the
// hints of a game of two players set up there. (The worker is started
// with the network cut: the table can come only from the service
// worker's cache.)
const askEngine = `(async () => {
  const w = new Worker('/offline/engine-worker.js');
  let n = 0;
  const ask = (req) => new Promise((resolve) => {
    const id = ++n;
    w.addEventListener('message', function f(e) { if (e.data.n === id) { w.removeEventListener('message', f); resolve(JSON.parse(e.data.answer)); } });
    w.postMessage({ n: id, request: JSON.stringify(req) });
  });
  const t0 = performance.now();
  const table = (await ask({ op: 'endgames' })).body;
  const started = performance.now() - t0;
  const search = (await ask({ op: 'search', search: { position: POSITION, moveTime: 2000 } })).body;
  const game = (await ask({ method: 'POST', path: '/api/games', body: { mode: 'local', position: POSITION } })).body;
  const hints = (await ask({ method: 'GET', path: '/api/games/' + game.id + '/hints', game: { id: game.id, mode: 'local', level: 'easy', human: 0, first: 1, variants: [], start: POSITION, moves: [], seed: 1 } })).body;
  w.terminate();
  return { pebbles: table.pebbles, started, search, hints: hints.hints };
})()`

// TestOfflineEndgames: the server builds the page's endgame table in the
// background; after a first visit the service worker has fetched it (the
// page's load did not wait for it); with the network cut, the engine in
// the browser reads it: Hard's search of a position inside it is proven
// at once (depth 0) with the table's value, and every hint is the
// table's exact score. E2E_OFFLINE_PEBBLES sets the table's size (6; the
// server's default is 9) to measure the real one.
func TestOfflineEndgames(t *testing.T) {
	pebbles := 6
	if v, err := strconv.Atoi(os.Getenv("E2E_OFFLINE_PEBBLES")); err == nil {
		pebbles = v
	}
	dir := t.TempDir()
	s := server.New(server.Config{Endgames: server.Endgames{Dir: dir, Offline: pebbles}})
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		s.Close()
	})
	// The table built before the first visit, so that the visit finds it.
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
	tb, err := endgames.OpenFile(filepath.Join(dir, endgames.Name(pebbles)))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	pos, err := notation.ParsePosition(endgameStart)
	if err != nil {
		t.Fatal(err)
	}
	var r rules.Rules
	ms, b, ok := tb.Moves(&pos, &r, func(*rules.Position) bool { return false })
	if !ok || !b.Exact() {
		t.Fatalf("the table does not know %s exactly: %v", endgameStart, b)
	}
	value, moves := endgames.Final(&pos, b.Lo), map[string]int{}
	for _, m := range ms {
		moves[notation.FormatMove(m.Move)] = endgames.Final(&pos, m.Bounds.Lo)
	}

	t.Setenv("E2E_URL", ts.URL)
	p := NewPage(t, 390, 844, `{"anim":"off"}`)
	p.Wait(Controlled, 30*time.Second)
	const kept = `caches.open('oanquan').then((c) => c.match('/offline/endgames.egtb')).then((r) => r ? r.arrayBuffer().then((b) => b.byteLength) : 0)`
	var size int
	for end := time.Now().Add(60 * time.Second); size == 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the service worker did not keep the table")
		}
		size = Eval[int](p, kept)
	}
	if fi, err := os.Stat(filepath.Join(dir, endgames.Name(pebbles))); err != nil || int64(size) != fi.Size() {
		t.Errorf("the service worker keeps %d bytes, the table has %v (%v)", size, fi.Size(), err)
	}

	p.Offline(true)
	type hint struct {
		Move  string
		Score int
	}
	got := Eval[struct {
		Pebbles int
		Started float64
		Search  struct {
			Move    string
			Score   int
			Proven  bool
			Verdict string
			Depth   int
			MS      int
		}
		Hints []hint
	}](p, `(() => { const POSITION = `+strconv.Quote(endgameStart)+`; return `+askEngine+`; })()`)
	t.Logf("engine answering with the table of %d pebbles (%d bytes) after %.0f ms", got.Pebbles, size, got.Started)
	if got.Pebbles != pebbles {
		t.Errorf("the engine in the browser reads a table of %d pebbles, want %d", got.Pebbles, pebbles)
	}
	if s := got.Search; !s.Proven || s.Depth != 0 || s.Score != value || s.Verdict == "" {
		t.Errorf("offline search of %s: %+v; want proven from the table (depth 0), score %d, a verdict", endgameStart, s, value)
	}
	if len(got.Hints) != len(moves) {
		t.Errorf("offline hints %v, want %d", got.Hints, len(moves))
	}
	for _, h := range got.Hints {
		if want, ok := moves[h.Move]; !ok || h.Score != want {
			t.Errorf("offline hint %s scores %d, the table %d", h.Move, h.Score, want)
		}
	}
	p.ForgetUnreachable()
}
