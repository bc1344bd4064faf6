//go:build !js

package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"oanquan/internal/offline"
	"oanquan/internal/server"
)

// step is one request of a sequence in testdata/conformance.json.
type step struct {
	Method string          `json:"method"`
	Path   string          `json:"path"` // "{id}": the id of the sequence's game
	Body   json.RawMessage `json:"body"` // JSON; absent: none
	Raw    *string         `json:"raw"`  // a body that is not JSON
	Status int             `json:"status"`
	// Compare is how the two answers' bodies must agree: "" the same
	// JSON; "shape" the same keys and lengths (a search's moves and
	// scores may differ with its time); "status" only the status and
	// error code.
	Compare string `json:"compare"`
}

// sequence is a named list of steps, about at most one game: the one the
// first step that answers 201 made.
type sequence struct {
	Name  string `json:"name"`
	Steps []step `json:"steps"`
}

// answer is a status and a body normalised for comparing.
type answer struct {
	status int
	body   any
}

// transport sends a step, with the id of the sequence's game.
type transport interface {
	send(t *testing.T, s step, path string) (status int, body []byte)
}

// TestConformance runs every sequence of testdata/conformance.json
// against the server (over loopback HTTP) and against the engine in the
// browser, and requires the same statuses and JSON of both, and the
// status the corpus says.
func TestConformance(t *testing.T) {
	data, err := os.ReadFile("testdata/conformance.json")
	if err != nil {
		t.Fatal(err)
	}
	var corpus []sequence
	if err := json.Unmarshal(data, &corpus); err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{IdleTimeout: -1, Limits: server.Limits{
		Creates: server.Rate{PerMinute: 1e6, Burst: 1000},
		Hints:   server.Rate{PerMinute: 1e6, Burst: 1000},
		Reviews: server.Rate{PerMinute: 1e6, Burst: 1000},
	}})
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	for _, seq := range corpus {
		t.Run(seq.Name, func(t *testing.T) {
			onServer := &httpClient{url: hs.URL}
			inBrowser := &engineClient{e: offline.New(func(offline.Update) {})}
			for i, s := range seq.Steps {
				a := run(t, onServer, s)
				b := run(t, inBrowser, s)
				where := fmt.Sprintf("step %d, %s %s", i, s.Method, s.Path)
				if a.status != s.Status {
					t.Errorf("%s: the server answered %d %v, want %d", where, a.status, a.body, s.Status)
				}
				if b.status != a.status || !agree(s.Compare, a.body, b.body) {
					t.Errorf("%s:\nserver  %d %v\nbrowser %d %v", where, a.status, a.body, b.status, b.body)
				}
			}
		})
	}
}

// run sends s with c and normalises its answer: the game's id made
// "{id}", the secrets, times of creation and dates of records taken out.
func run(t *testing.T, c transport, s step) answer {
	t.Helper()
	game := c.(interface{ gameID() string })
	status, body := c.send(t, s, strings.ReplaceAll(s.Path, "{id}", game.gameID()))
	text := string(body)
	if id := game.gameID(); id != "" {
		text = strings.ReplaceAll(text, id, "{id}")
	}
	text = recordDate.ReplaceAllString(text, `[Date \"…\"]`)
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("%s %s: the answer is not JSON: %v in %q", s.Method, s.Path, err, text)
	}
	return answer{status, strip(v)}
}

// recordDate is the date of a record (docs/RECORD.md), which is the day
// its game was made.
var recordDate = regexp.MustCompile(`\[Date \\"[^\\]*\\"\]`)

// strip removes the keys whose values differ by right: secrets and
// times of creation.
func strip(v any) any {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "secret")
		delete(v, "created")
		for k, x := range v {
			v[k] = strip(x)
		}
	case []any:
		for i, x := range v {
			v[i] = strip(x)
		}
	}
	return v
}

// agree reports whether two normalised bodies agree as compare asks.
func agree(compare string, a, b any) bool {
	switch compare {
	case "status":
		return code(a) == code(b)
	case "shape":
		return shape(a) == shape(b)
	}
	return reflect.DeepEqual(a, b)
}

// code is an error body's code, or "".
func code(v any) string {
	m, _ := v.(map[string]any)
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

// shape describes v's keys and the lengths of its arrays, not its values.
func shape(v any) string {
	switch v := v.(type) {
	case map[string]any:
		var keys []string
		for k, x := range v {
			keys = append(keys, k+":"+shape(x))
		}
		slices.Sort(keys)
		return "{" + strings.Join(keys, ",") + "}"
	case []any:
		return fmt.Sprintf("[%d]", len(v))
	}
	return "."
}

// httpClient sends steps to the server, with the secret of the game the
// sequence made.
type httpClient struct {
	url, id, secret string
}

func (c *httpClient) gameID() string { return c.id }

func (c *httpClient) send(t *testing.T, s step, path string) (int, []byte) {
	var body io.Reader
	switch {
	case s.Raw != nil:
		body = strings.NewReader(*s.Raw)
	case s.Body != nil:
		body = bytes.NewReader(s.Body)
	}
	req, err := http.NewRequest(s.Method, c.url+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if c.secret != "" {
		req.Header.Set("Authorization", "Bearer "+c.secret)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		data, _ = json.Marshal(string(data)) // a record: text, as the engine answers it
	}
	if resp.StatusCode == http.StatusCreated && c.id == "" {
		var made struct{ ID, Secret string }
		json.Unmarshal(data, &made)
		c.id, c.secret = made.ID, made.Secret
	}
	return resp.StatusCode, data
}

// engineClient sends steps to the engine in the browser, as the page's
// worker does, with the game as the page keeps it.
type engineClient struct {
	e    *offline.Engine
	kept *offline.Saved
}

func (c *engineClient) gameID() string {
	if c.kept == nil {
		return ""
	}
	return c.kept.ID
}

func (c *engineClient) send(t *testing.T, s step, path string) (int, []byte) {
	q := offline.Request{Method: s.Method, Path: path, Body: s.Body, Game: c.kept}
	if s.Raw != nil {
		q.Body = json.RawMessage(*s.Raw)
	}
	a := c.e.Do(q)
	if a.Saved != nil && (c.kept == nil || a.Saved.ID == c.kept.ID) {
		c.kept = a.Saved
	}
	data, err := json.Marshal(a.Body)
	if err != nil {
		t.Fatal(err)
	}
	return a.Status, data
}

// TestClockNeedsServer: a clocked game is the server's; the engine in
// the browser refuses it with not_offline (the corpus holds only what
// both answer alike).
func TestClockNeedsServer(t *testing.T) {
	c := &engineClient{e: offline.New(func(offline.Update) {})}
	s := step{Method: "POST", Path: "/api/games", Body: json.RawMessage(`{"mode":"online","clock":{"initial":180,"increment":2}}`)}
	status, body := c.send(t, s, s.Path)
	if status != 501 || !strings.Contains(string(body), `"not_offline"`) {
		t.Errorf("a clocked game in the browser: %d %s, want 501 not_offline", status, body)
	}
}

// TestAccountsNeedServer: accounts, sessions and the lobby are the server's; the
// engine in the browser answers every route of them 501 not_offline.
func TestAccountsNeedServer(t *testing.T) {
	c := &engineClient{e: offline.New(func(offline.Update) {})}
	for _, s := range []step{
		{Method: "POST", Path: "/api/accounts", Body: json.RawMessage(`{"username":"Nam","password":"gà trống gáy sáng"}`)},
		{Method: "POST", Path: "/api/session", Body: json.RawMessage(`{"username":"Nam","password":"gà trống gáy sáng"}`)},
		{Method: "DELETE", Path: "/api/session"},
		{Method: "DELETE", Path: "/api/sessions"},
		{Method: "GET", Path: "/api/me"},
		{Method: "PUT", Path: "/api/me/password", Body: json.RawMessage(`{"old":"a","new":"b"}`)},
		{Method: "DELETE", Path: "/api/me", Body: json.RawMessage(`{"password":"a"}`)},
		{Method: "GET", Path: "/api/players/Nam"},
		{Method: "GET", Path: "/api/games/abc/players"},
		{Method: "POST", Path: "/api/seeks", Body: json.RawMessage(`{"clock":{"initial":180,"increment":2},"rated":false}`)},
		{Method: "GET", Path: "/api/seeks"},
		{Method: "GET", Path: "/api/seeks/abc"},
		{Method: "DELETE", Path: "/api/seeks/abc"},
		{Method: "POST", Path: "/api/seeks/abc/accept"},
		{Method: "POST", Path: "/api/pairing", Body: json.RawMessage(`{"clock":{"initial":180,"increment":2},"rated":false}`)},
	} {
		status, body := c.send(t, s, s.Path)
		if status != 501 || !strings.Contains(string(body), `"not_offline"`) {
			t.Errorf("%s %s in the browser: %d %s, want 501 not_offline", s.Method, s.Path, status, body)
		}
	}
}
