package server

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"oanquan/ai"
	"oanquan/internal/api"
	"oanquan/internal/wire"
)

// reviewRead is what a program reads of a review's answer.
type reviewRead struct {
	Review        reviewJSON `json:"review"`
	Before, After string
	Moves         int
}

// reviewJSON is what a program reads of a move's review.
type reviewJSON struct {
	Ply       int    `json:"ply"`
	Player    int    `json:"player"`
	Move      string `json:"move"`
	Before    int    `json:"before"`
	After     int    `json:"after"`
	Best      string `json:"best"`
	BestAfter *int   `json:"best_after"`
	Loss      int    `json:"loss"`
	Mark      string `json:"mark"`
	Proven    bool   `json:"proven"`
	Depth     int    `json:"depth"`
}

// blunderStart is a position where 6L throws the game away (as in
// cmd/oanquan's review test) and 4L, the reply, is the best there is.
const blunderStart = "1/0/0/1/0/0/3/10/4/4/2/4* 0 15,0,0 6,1,0 4"

// TestReviewGame: a game's moves are reviewed one by one: the blunder
// is marked with the better move, the best reply is not; bad plies are
// refused with what was expected; an online game is reviewed only after
// its end.
func TestReviewGame(t *testing.T) {
	s := newServer(t, Config{ReviewTime: 100 * time.Millisecond})
	g := create(t, s, map[string]any{"mode": "local", "position": blunderStart})
	for _, m := range []string{"6L", "4L"} {
		must[wire.Turn](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": m}), http.StatusOK)
	}
	answer := must[reviewRead](t, do(t, s, "GET", "/api/games/"+g.ID+"/review?ply=0", nil), http.StatusOK)
	if answer.Before != blunderStart || answer.After == "" || answer.After == answer.Before || answer.Moves != 2 {
		t.Errorf("review of 6L: positions %q → %q, want the start and the position after 6L", answer.Before, answer.After)
	}
	first := answer.Review
	if first.Move != "6L" || first.Mark != "blunder" || first.Best == "" || first.BestAfter == nil || first.Loss < 10 || first.Ply != 0 || first.Player != 0 {
		t.Errorf("review of 6L: %+v, want a blunder by player 0 with a better move", first)
	}
	second := must[reviewRead](t, do(t, s, "GET", "/api/games/"+g.ID+"/review?ply=1", nil), http.StatusOK).Review
	if second.Move != "4L" || second.Mark != "" || second.Best != "" || second.Loss != 0 || second.Player != 1 {
		t.Errorf("review of 4L: %+v, want the best move, unmarked", second)
	}
	// Watching is enough to review: no secret needed.
	if r := (player{}).act(t, s, "GET", "/api/games/"+g.ID+"/review?ply=1", ""); r.status != http.StatusOK {
		t.Errorf("a review without the seat's secret: %s", r)
	}
	for _, bad := range []string{"", "?ply=", "?ply=-1", "?ply=2", "?ply=x", "?ply=99999999999999999999"} {
		r := do(t, s, "GET", "/api/games/"+g.ID+"/review"+bad, nil)
		wantError(t, r, http.StatusBadRequest, "bad_request")
		if !strings.Contains(string(r.body), "ply") {
			t.Errorf("review%s: %s, want the message to name ply", bad, r.body)
		}
	}
	wantError(t, do(t, s, "GET", "/api/games/nosuchgame/review?ply=0", nil), http.StatusNotFound, "not_found")
	fresh := create(t, s, map[string]any{"mode": "local"})
	wantError(t, do(t, s, "GET", "/api/games/"+fresh.ID+"/review?ply=0", nil), http.StatusBadRequest, "bad_request")

	id, a, b := onlineGame(t, s, `{"mode":"online","first":0}`)
	mover(get(t, s, id), a, b).act(t, s, "POST", "/api/games/"+id+"/moves", `{"move":"7R"}`)
	wantError(t, a.act(t, s, "GET", "/api/games/"+id+"/review?ply=0", ""), http.StatusConflict, "conflict")
	must[wire.Game](t, a.act(t, s, "POST", "/api/games/"+id+"/resign", ""), http.StatusOK)
	if r := must[reviewRead](t, a.act(t, s, "GET", "/api/games/"+id+"/review?ply=0", ""), http.StatusOK).Review; r.Move != "7R" {
		t.Errorf("the ended online game's review: %+v", r)
	}
}

// TestReviewRecord: a pasted game record is reviewed the same way; a bad
// record or ply is refused with what was wrong.
func TestReviewRecord(t *testing.T) {
	s := newServer(t, Config{ReviewTime: 100 * time.Millisecond})
	record := "[Start \"" + blunderStart + "\"]\n\n1. 6L 4L *\n"
	first := must[reviewRead](t, do(t, s, "POST", "/api/review", map[string]any{"record": record, "ply": 0}), http.StatusOK).Review
	if first.Move != "6L" || first.Mark != "blunder" || first.Best == "" {
		t.Errorf("review of the record's 6L: %+v, want a blunder with a better move", first)
	}
	for _, c := range []struct {
		body any
		says string
	}{
		{map[string]any{"ply": 0}, `missing \"record\"`},
		{map[string]any{"record": record}, `missing \"ply\"`},
		{map[string]any{"record": record, "ply": 2}, "ply: want a move's index, 0 to 1"},
		{map[string]any{"record": "\n1. 7R 9X *\n", "ply": 0}, "record:"},
		{map[string]any{"record": "\n1. 7R 7R *\n", "ply": 0}, "record:"},
		{map[string]any{"record": 7, "ply": 0}, "record"},
		{`{"record": "", "ply": 0, "extra": 1}`, "extra"},
	} {
		r := do(t, s, "POST", "/api/review", c.body)
		wantError(t, r, http.StatusBadRequest, "bad_request")
		if !strings.Contains(string(r.body), c.says) {
			t.Errorf("POST /api/review %v: %s, want it to say %q", c.body, r.body, c.says)
		}
	}
}

// TestReviewCached: a move reviewed again (by the other player, a
// watcher, after a reload, or from the game's record) is answered from
// the server's cache with no search; another move at that ply, or the
// same move after other moves, is reviewed afresh.
func TestReviewCached(t *testing.T) {
	s := newServer(t, Config{ReviewTime: 100 * time.Millisecond})
	g := create(t, s, map[string]any{"mode": "local", "position": blunderStart})
	for _, m := range []string{"6L", "4L"} {
		must[wire.Turn](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": m}), http.StatusOK)
	}
	first := must[reviewRead](t, do(t, s, "GET", "/api/games/"+g.ID+"/review?ply=0", nil), http.StatusOK).Review
	if n := s.reviews.order.Len(); n != 1 {
		t.Fatalf("%d reviews kept after one, want 1", n)
	}
	// Mark the kept review, so that an answer from the cache shows.
	kept := s.reviews.order.Front().Value.(*reviewEntry)
	marked := kept.review
	marked.Loss, marked.Mark = 42, ai.Inaccuracy
	s.reviews.put(kept.key, marked)
	again := must[reviewRead](t, do(t, s, "GET", "/api/games/"+g.ID+"/review?ply=0", nil), http.StatusOK)
	if again.Review.Loss != 42 || again.Review.Move != first.Move || again.Moves != 2 {
		t.Errorf("reviewed again: %+v, want the kept review (loss 42) of %s", again, first.Move)
	}
	record := "[Start \"" + blunderStart + "\"]\n\n1. 6L 4L 7R *\n"
	if r := must[reviewRead](t, do(t, s, "POST", "/api/review", map[string]any{"record": record, "ply": 0}), http.StatusOK); r.Review.Loss != 42 || r.Moves != 3 {
		t.Errorf("the game's record reviewed: %+v, want the kept review (loss 42) in a game of 3 moves", r)
	}

	// The best move in 6L's place is another move: searched, not the kept one.
	for range 2 {
		must[wire.Game](t, do(t, s, "POST", "/api/games/"+g.ID+"/undo", nil), http.StatusOK)
	}
	must[wire.Turn](t, do(t, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": first.Best}), http.StatusOK)
	if r := must[reviewRead](t, do(t, s, "GET", "/api/games/"+g.ID+"/review?ply=0", nil), http.StatusOK).Review; r.Move != first.Best || r.Loss != 0 || r.Mark != "" {
		t.Errorf("the better move reviewed: %+v, want %s, unmarked", r, first.Best)
	}
	if n := s.reviews.order.Len(); n != 2 {
		t.Errorf("%d reviews kept after two moves reviewed, want 2", n)
	}
}

// TestReviewCacheForgets: the cache keeps its size, forgetting the
// review used least lately.
func TestReviewCacheForgets(t *testing.T) {
	c := newReviewCache(2)
	key := func(s string) reviewKey { return reviewKey{record: s} }
	for i, k := range []string{"a", "b"} {
		c.put(key(k), ai.MoveReview{Ply: i})
	}
	c.get(key("a"))
	c.put(key("c"), ai.MoveReview{Ply: 2})
	if _, ok := c.get(key("b")); ok {
		t.Error("b, used least lately, is still kept")
	}
	for _, k := range []string{"a", "c"} {
		if _, ok := c.get(key(k)); !ok {
			t.Errorf("%s forgotten", k)
		}
	}
	if c.order.Len() != 2 || len(c.byKey) != 2 {
		t.Errorf("%d and %d kept, want 2", c.order.Len(), len(c.byKey))
	}
}

// TestReviewRateLimited: reviews have a bucket of their own per address.
func TestReviewRateLimited(t *testing.T) {
	s := newServer(t, Config{ReviewTime: 20 * time.Millisecond, Limits: Limits{Reviews: Rate{PerMinute: 1, Burst: 1}}})
	record := "[Start \"" + blunderStart + "\"]\n\n1. 6L 4L *\n"
	must[reviewRead](t, do(t, s, "POST", "/api/review", map[string]any{"record": record, "ply": 1}), http.StatusOK)
	r := do(t, s, "POST", "/api/review", map[string]any{"record": record, "ply": 1})
	wantError(t, r, http.StatusTooManyRequests, "rate_limited")
	if r.header.Get("Retry-After") == "" {
		t.Error("a refused review says nothing of when to try again")
	}
}

// FuzzReview: whatever body or ply a review is asked with, the answer is
// a review or a well-formed refusal, never a server error.
func FuzzReview(f *testing.F) {
	record := "[Start \"" + blunderStart + "\"]\n\n1. 6L 4L *\n"
	for _, seed := range []struct{ body, ply string }{
		{`{"record":` + strconv.Quote(record) + `,"ply":0}`, "0"},
		{`{"record":"\n1. 7R 3L *\n","ply":1}`, "1"},
		{`{"record":"[Variant \"young-mandarin\"]\n\n1. 7R *","ply":0}`, "-1"},
		{`{"record":"","ply":0}`, "x"},
		{`{"ply":1e9}`, "99999999999999999999"},
		{`{"record":"\n1. 7R 7R *\n","ply":0}`, ""},
	} {
		f.Add([]byte(seed.body), seed.ply)
	}
	s := New(Config{Engine: first{}, ReviewTime: time.Millisecond, Limits: Limits{Creates: Rate{PerMinute: 1e9, Burst: 1e6}, Reviews: Rate{PerMinute: 1e9, Burst: 1e6}}})
	f.Cleanup(s.Close)
	g := create(f, s, map[string]any{"mode": "local", "position": blunderStart})
	for _, m := range []string{"6L", "4L"} {
		must[wire.Turn](f, do(f, s, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": m}), http.StatusOK)
	}
	f.Fuzz(func(t *testing.T, body []byte, ply string) {
		for _, r := range []response{
			do(t, s, "POST", "/api/review", body),
			do(t, s, "GET", "/api/games/"+g.ID+"/review?ply="+url.QueryEscape(ply), nil),
		} {
			switch {
			case r.status == http.StatusOK:
				decodeAs[reviewRead](t, r)
			case r.status >= 500:
				t.Fatalf("%q, ply %q: %s", body, ply, r)
			default:
				wantError(t, r, r.status, decodeAs[api.ErrorBody](t, r).Error.Code)
			}
		}
	})
}
