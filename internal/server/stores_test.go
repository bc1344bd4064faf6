package server

import (
	"net/http"
	"reflect"
	"testing"

	"oanquan/internal/store"

	"oanquan/internal/store/memory"
)

// TestWrappedStoreKeepsFeatures: a store wrapped in a type of a test's
// (slowStore, which embeds a Store to slow its reads) still serves
// every feature the server has: the lobby, accounts and the
// leaderboard. Before the server's store was typed, such a wrapper
// lost them (the lobby answered 501 "keeps no lobby"); a wrapper that
// embeds only store.Store does not compile as a Config's Store (shown
// here by reflection: it does not implement Store).
func TestWrappedStoreKeepsFeatures(t *testing.T) {
	s := newServer(t, Config{Store: slowStore{memory.New()}, Limits: noLimits, Accounts: Accounts{Hashing: fastHashing}})
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
	if reflect.TypeFor[struct{ store.Store }]().Implements(reflect.TypeFor[Store]()) {
		t.Error("a store.Store with no more methods passes as a Store")
	}
	if !reflect.TypeFor[slowStore]().Implements(reflect.TypeFor[Store]()) {
		t.Error("the wrapped store is no Store")
	}
}
