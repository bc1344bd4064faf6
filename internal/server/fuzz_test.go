package server

import (
	"reflect"
	"testing"
)

// FuzzRequests posts arbitrary bodies to every endpoint that reads one.
// Whatever the body, the answer is never a 5xx, and a refused request
// leaves the game as it was.
func FuzzRequests(f *testing.F) {
	for _, seed := range []struct {
		endpoint uint8
		body     string
	}{
		{0, `{"mode":"local","level":"hard","human":1,"first":1,"variants":["young-mandarin"]}`},
		{0, `{"position":"5/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 0"}`},
		{0, `{"mode":"ai","variants":[]}`},
		{1, `{"move":"5L","ply":2}`},
		{1, `{"move":"9R"}`},
		{1, `{"move":"7R","ply":1e3}`},
		{1, `{"move":"\u0037R"}`},
		{2, ``},
		{2, `{}`},
		{3, `{"level":"medium"}`},
		{3, `{"level":null}`},
		{1, `{"move":"5L"`},
		{1, "\xff\xfe"},
	} {
		f.Add(seed.endpoint, []byte(seed.body))
	}
	s := New(Config{Engine: first{}})
	f.Cleanup(s.Close)
	f.Fuzz(func(t *testing.T, endpoint uint8, body []byte) {
		g := create(t, s, map[string]any{"mode": "local"})
		for _, mv := range []string{"7R", "1L"} {
			must[turnJSON](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": mv}), 200)
		}
		before := get(t, s, g.ID)
		method, path := "POST", "/api/games/"+g.ID
		switch endpoint % 4 {
		case 0:
			path = "/api/games"
		case 1:
			path += "/moves"
		case 2:
			path += "/undo"
		case 3:
			method, path = "PUT", path+"/level"
		}
		r := do(t, s, method, path, body)
		if r.status >= 500 {
			t.Fatalf("%s %s %q: %s", method, path, body, r)
		}
		if r.status >= 400 {
			wantError(t, r, r.status, decodeAs[errorBody](t, r).Error.Code)
			if after := get(t, s, g.ID); !reflect.DeepEqual(after, before) {
				t.Fatalf("%s %s %q refused (%s) but changed the game:\n%+v\nwant\n%+v", method, path, body, r, after, before)
			}
		}
	})
}
