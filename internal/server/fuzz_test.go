package server

import (
	"reflect"
	"testing"

	"oanquan/internal/api"
	"oanquan/internal/wire"
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
		{0, `{"mode":"online","first":"random","human":1}`},
		{4, `{"action":"offer"}`},
		{5, `{"action":"accept"}`},
		{6, `{"action":"decline"}`},
		{7, ``},
		{12, `{"action":"offer"}`},
		{13, `{"action":7}`},
	} {
		f.Add(seed.endpoint, []byte(seed.body))
	}
	s := New(Config{Engine: first{}, Limits: Limits{Creates: Rate{PerMinute: 1e9, Burst: 1e6}, Hints: Rate{PerMinute: 1e9, Burst: 1e6}}})
	f.Cleanup(s.Close)
	f.Fuzz(func(t *testing.T, endpoint uint8, body []byte) {
		// Endpoints 0-7 act in a two-player game on one device, 8-15 in
		// a game online, as its creator, with a friend joined.
		mode := "local"
		if endpoint%16 >= 8 {
			mode = "online"
		}
		g := create(t, s, map[string]any{"mode": mode})
		if mode == "online" {
			must[api.Joined](t, player{}.act(t, s, "POST", "/api/games/"+g.ID+"/join", ""), 200)
			must[wire.Turn](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": "7R"}), 200)
		} else {
			for _, mv := range []string{"7R", "1L"} {
				must[wire.Turn](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": mv}), 200)
			}
		}
		before := get(t, s, g.ID)
		method, path := "POST", "/api/games/"+g.ID
		switch endpoint % 8 {
		case 0:
			path = "/api/games"
		case 1:
			path += "/moves"
		case 2:
			path += "/undo"
		case 3:
			method, path = "PUT", path+"/level"
		case 4:
			path += "/draw"
		case 5:
			path += "/takeback"
		case 6:
			path += "/rematch"
		case 7:
			path += "/join"
		}
		r := do(t, s, method, path, body)
		if r.status >= 500 {
			t.Fatalf("%s %s %q: %s", method, path, body, r)
		}
		if r.status >= 400 {
			wantError(t, r, r.status, decodeAs[api.ErrorBody](t, r).Error.Code)
			if after := get(t, s, g.ID); !reflect.DeepEqual(after, before) {
				t.Fatalf("%s %s %q refused (%s) but changed the game:\n%+v\nwant\n%+v", method, path, body, r, after, before)
			}
		}
	})
}
