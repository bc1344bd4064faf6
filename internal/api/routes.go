package api

import (
	"context"
	"io"
	"strconv"
	"strings"
)

// Route is one endpoint of docs/API.md: a method and a path pattern as
// Go's http.ServeMux writes them ("/api/games/{id}/moves").
type Route struct {
	Method, Pattern string
	// Name names the route for the transport, which serves itself the
	// routes that have no Op ("ws", "health", "ready", "live", "qr",
	// "lobby", "records").
	Name string
	// Op answers the route; nil: the transport's own.
	Op func(*Call) (Response, error)
	// Online marks what only the server can do: the engine in the
	// browser answers it with ErrNotOffline.
	Online bool
}

// Routes is the API: the one table of endpoints that both the server's
// ServeMux and the engine in the browser route by.
var Routes = []Route{
	{"POST", "/api/games", "create", create, false},
	{"GET", "/api/games/{id}", "get", get, false},
	{"POST", "/api/games/{id}/moves", "move", move, false},
	{"POST", "/api/games/{id}/undo", "undo", undo, false},
	{"PUT", "/api/games/{id}/level", "level", level, false},
	{"GET", "/api/games/{id}/hints", "hints", hints, false},
	{"GET", "/api/games/{id}/record", "record", record, false},
	{"GET", "/api/games/{id}/review", "review", review, false},
	{"POST", "/api/review", "reviewRecord", reviewRecord, false},
	{"GET", "/api/games/{id}/ws", "ws", nil, true},
	{"GET", "/api/health", "health", nil, true},
	{"GET", "/api/health/ready", "ready", nil, true},
	{"GET", "/api/health/live", "live", nil, true},
	{"GET", "/api/qr.svg", "qr", nil, true},
	{"POST", "/api/games/{id}/join", "join", join, true},
	{"POST", "/api/games/{id}/resign", "resign", resign, true},
	{"POST", "/api/games/{id}/abort", "abort", abort, true},
	{"POST", "/api/games/{id}/draw", "draw", offer(kindDraw), true},
	{"POST", "/api/games/{id}/takeback", "takeback", offer(kindTakeback), true},
	{"POST", "/api/games/{id}/rematch", "rematch", offer(kindRematch), true},
	{"POST", "/api/games/{id}/claim", "claim", claim, true},
	{"POST", "/api/accounts", "signUp", signUp, true},
	{"POST", "/api/session", "signIn", signIn, true},
	{"DELETE", "/api/session", "signOut", signOut(false), true},
	{"DELETE", "/api/sessions", "signOutEverywhere", signOut(true), true},
	{"GET", "/api/me", "me", me, true},
	{"PUT", "/api/me/password", "password", changePassword, true},
	{"DELETE", "/api/me", "deleteAccount", deleteAccount, true},
	{"GET", "/api/players/{id}", "player", playerProfile, true}, // {id}: the username
	{"GET", "/api/games/{id}/players", "players", seats, true},
	{"POST", "/api/seeks", "postSeek", postSeek, true},
	{"GET", "/api/seeks", "seeks", listSeeks, true},
	{"GET", "/api/seeks/{id}", "seek", getSeek, true},
	{"DELETE", "/api/seeks/{id}", "cancelSeek", cancelSeek, true},
	{"POST", "/api/seeks/{id}/accept", "acceptSeek", acceptSeek, true},
	{"GET", "/api/lobby/ws", "lobby", nil, true},
	{"POST", "/api/pairing", "pairing", joinPool, true},
	{"GET", "/api/me/blocks", "blocks", listBlocks, true},
	{"POST", "/api/me/blocks/{id}", "block", block, true},                // {id}: the username
	{"DELETE", "/api/me/blocks/{id}", "unblock", unblock, true},          // {id}: the username
	{"POST", "/api/players/{id}/report", "report", report, true},         // {id}: the username
	{"GET", "/api/leaderboard/{id}", "leaderboard", leaderboard, true},   // {id}: the speed
	{"GET", "/api/players/{id}/games", "playerGames", playerGames, true}, // {id}: the username
	{"GET", "/api/players/{id}/history", "history", history, true},       // {id}: the username
	{"GET", "/api/players/{id}/records", "records", nil, true},           // {id}: the username; streamed by the transport
}

// Call is one request to an operation.
type Call struct {
	Ctx   context.Context
	Host  Host
	ID    string    // the {id} of the path
	Query Values    // the path's query
	Body  io.Reader // the request's body; nil: none
}

// Response is an operation's answer: a status, and the JSON of its body
// (or, if Body is a string, its text), with the headers it needs.
type Response struct {
	Status int
	Body   any
	Header map[string]string
}

// Allowed returns the methods a pattern has, as an Allow header lists
// them (a GET also answers HEAD).
func Allowed(pattern string) []string {
	var methods []string
	for _, r := range Routes {
		if r.Pattern == pattern {
			methods = append(methods, r.Method)
			if r.Method == "GET" {
				methods = append(methods, "HEAD")
			}
		}
	}
	return methods
}

// NotAllowed refuses method on a path whose pattern has only the
// methods allowed.
func NotAllowed(method string, allowed []string) error {
	return Fail(ErrMethod, "%s is not allowed here: use %s", Short(method), strings.Join(allowed, " or "))
}

// NoSuchAPI refuses a path under /api/ that no route has.
func NoSuchAPI(method, path string) error {
	return Fail(ErrNotFound, "no such API: %s %s", Short(method), Short(path))
}

// Find returns the route for method and path (with no query), and the
// {id} in the path, as http.ServeMux would route them; NoSuchAPI or
// NotAllowed if none.
func Find(method, path string) (Route, string, error) {
	var allowed []string
	for _, r := range Routes {
		id, ok := matchPattern(r.Pattern, path)
		if !ok {
			continue
		}
		if r.Method == method || r.Method == "GET" && method == "HEAD" {
			return r, id, nil
		}
		allowed = Allowed(r.Pattern)
	}
	if allowed != nil {
		return Route{}, "", NotAllowed(method, allowed)
	}
	return Route{}, "", NoSuchAPI(method, path)
}

// matchPattern reports whether path has pattern's segments, its {id}
// any one non-empty segment, and returns that segment.
func matchPattern(pattern, path string) (string, bool) {
	want, got := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(want) != len(got) {
		return "", false
	}
	var id string
	for i, w := range want {
		switch {
		case w == "{id}" && got[i] != "":
			id = got[i] // no id has a character to escape
		case w != got[i]:
			return "", false
		}
	}
	return id, true
}

// Values are a query's parameters by name, as url.Values (which package
// api does without: it would make the engine in the browser larger).
type Values map[string][]string

// Get returns the first value of name, or "".
func (v Values) Get(name string) string {
	if vs := v[name]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// ParseQuery reads a URL's query ("ply=3&x=y"), as url.ParseQuery does
// but for its refusal of malformed escapes: one that does not decode is
// kept as it is.
func ParseQuery(query string) Values {
	v := Values{}
	for part := range strings.SplitSeq(query, "&") {
		if part == "" {
			continue
		}
		name, value, _ := strings.Cut(part, "=")
		v[unescape(name)] = append(v[unescape(name)], unescape(value))
	}
	return v
}

// unescape decodes a query's '+' and %XX escapes.
func unescape(s string) string {
	s = strings.ReplaceAll(s, "+", " ")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
