package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"oanquan/internal/api"
	"oanquan/internal/match/matchtest"
	"oanquan/internal/wire"
)

// guard bounds every wait, so that a broken test fails instead of hanging.
const guard = matchtest.Guard

// first is the engine that plays the first legal move at once and hints
// the moves in order.
type first = matchtest.First

func newGate() *matchtest.Gate { return matchtest.NewGate() }

func newServer(t testing.TB, cfg Config) *Server {
	t.Helper()
	if cfg.Engine == nil {
		cfg.Engine = first{}
	}
	if cfg.Limits == (Limits{}) {
		cfg.Limits = Limits{Creates: Rate{PerMinute: 1e6, Burst: 1000}, Hints: Rate{PerMinute: 1e6, Burst: 1000}}
	}
	s := New(cfg)
	t.Cleanup(s.Close)
	return s
}

// response is a recorded answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) String() string { return http.StatusText(r.status) + ": " + string(r.body) }

// do sends a request to h; a body that is not a string or []byte is
// sent as JSON.
func do(t testing.TB, h http.Handler, method, path string, body any) response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req := httptest.NewRequest(method, path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	// Act for the game's seats, as its creator does.
	if parts := strings.Split(path, "/"); len(parts) > 3 && parts[1] == "api" && parts[2] == "games" {
		if secret, ok := secrets.Load(parts[3]); ok {
			req.Header.Set("Authorization", "Bearer "+secret.(string))
		}
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return response{w.Code, w.Header(), w.Body.Bytes()}
}

// decodeAs decodes a JSON answer, refusing fields the test types do not
// know.
func decodeAs[T any](t testing.TB, r response) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding %s: %v", r, err)
	}
	return v
}

// must checks the status of r and decodes its body.
func must[T any](t testing.TB, r response, status int) T {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	return decodeAs[T](t, r)
}

// secrets holds the secret of every game the tests created, by id: do
// sends it with each request about the game.
var secrets sync.Map

// create makes a game and returns its state; do then acts for its
// creator's seats.
func create(t testing.TB, h http.Handler, body any) wire.Game {
	t.Helper()
	c := must[api.Created](t, do(t, h, "POST", "/api/games", body), http.StatusCreated)
	if len(c.Secret) < 22 || len(c.Seats) == 0 || c.Seat != c.Seats[0] {
		t.Fatalf("created game: secret %q, seat %d, seats %v; want a secret of 128 bits or more and the seats it holds", c.Secret, c.Seat, c.Seats)
	}
	secrets.Store(c.ID, c.Secret)
	return c.Game
}

func get(t testing.TB, h http.Handler, id string) wire.Game {
	t.Helper()
	return must[wire.Game](t, do(t, h, "GET", "/api/games/"+id, nil), http.StatusOK)
}

// wantError checks that r is an error answer with status and code.
func wantError(t *testing.T, r response, status int, code string) {
	t.Helper()
	if r.status != status {
		t.Errorf("status %d, want %d (%s): %s", r.status, status, code, r.body)
		return
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	e := decodeAs[api.ErrorBody](t, r)
	if e.Error.Code != code || e.Error.Message == "" {
		t.Errorf("error %+v, want code %q and a message", e.Error, code)
	}
}

// unchanged checks that game id has state want.
func unchanged(t *testing.T, h http.Handler, want wire.Game) {
	t.Helper()
	if got := get(t, h, want.ID); !reflect.DeepEqual(got, want) {
		t.Errorf("the game changed:\n got %+v\nwant %+v", got, want)
	}
}
