package server

import (
	"net/http"
	"testing"

	"oanquan/internal/store"
)

// TestWrappedStoreKeepsFeatures: a store wrapped in a type of a test's
// (slowStore, which embeds a Store to slow its reads) still serves
// every feature the server has: the lobby, accounts and the
// leaderboard. Before the server's store was typed, such a wrapper
// lost them (the lobby answered 501 "keeps no lobby"); a wrapper that
// embeds only store.Store does not compile as a Config's Store, which
// AsStore shows at run time for a store opened by name.
func TestWrappedStoreKeepsFeatures(t *testing.T) {
	s := newServer(t, Config{Store: slowStore{store.NewMemory()}, Limits: noLimits, Accounts: Accounts{Hashing: fastHashing}})
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/seeks", `{"clock":{"initial":180,"increment":2}}`},
		{"GET", "/api/seeks", ""},
		{"GET", "/api/leaderboard/blitz", ""},
		{"POST", "/api/accounts", `{"username":"Wrapped","password":"correct horse battery"}`},
	} {
		var body any
		if c.body != "" {
			body = c.body
		}
		r := do(t, s, c.method, c.path, body)
		if r.status >= 500 || r.status == http.StatusNotImplemented {
			t.Errorf("%s %s on a wrapped store: %s", c.method, c.path, r)
		}
	}
	if _, ok := AsStore(struct{ store.Store }{store.NewMemory()}); ok {
		t.Error("a store.Store with no more methods passes as a Store")
	}
	for name, st := range map[string]store.Store{"memory": store.NewMemory(), "wrapped": slowStore{store.NewMemory()}} {
		if _, ok := AsStore(st); !ok {
			t.Errorf("AsStore(%s) refused", name)
		}
	}
}
