package server

import (
	"context"
	"testing"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/players"
	"oanquan/internal/store"
	"oanquan/internal/store/pgtest"
)

// TestReports: two servers on one PostgreSQL. A report needs a reason of
// the list (400 naming the field), a player who exists (404), not
// oneself; it is kept with both names; an account's reports are limited
// across servers: 6 on A and 4 on B, and the 11th (on B, whose address
// bucket is fresh) is 429.
func TestReports(t *testing.T) {
	url := pgtest.Start(t)
	st := openPostgresURL(t, url)
	_, tsA := accountServerOn(t, st, noLimits)
	_, tsB := accountServerOn(t, openPostgresURL(t, url), noLimits)
	nam, _ := ratedPair(t, tsA)
	namB := &browser{t, tsB.URL, nam.c} // the same browser, its session on B
	wantFieldError(t, nam.call("POST", "/api/players/Lan/report", `{"reason":"rude words here"}`), "reason")
	wantFieldError(t, nam.call("POST", "/api/players/Lan/report", `{}`), "reason")
	wantFieldError(t, nam.call("POST", "/api/players/Lan/report", `{"reason":"stalling","game":"../x"}`), "game")
	wantError(t, nam.call("POST", "/api/players/Nobody/report", `{"reason":"stalling"}`), 404, "not_found")
	wantSelf(t, nam.call("POST", "/api/players/nam/report", `{"reason":"stalling"}`))
	for i := range 10 {
		b := nam
		if i >= 6 {
			b = namB
		}
		if r := b.call("POST", "/api/players/lan/report", `{"reason":"stalling"}`); r.status != 204 {
			t.Fatalf("report %d: %d %s", i+1, r.status, r.body)
		}
	}
	wantError(t, namB.call("POST", "/api/players/Lan/report", `{"reason":"cheating"}`), 429, "rate_limited")
	rs, err := st.(store.Reports).Reports(context.Background(), time.Now().Add(-time.Hour), 100)
	if err != nil || len(rs) != 10 {
		t.Fatalf("%d reports kept, %v; want 10", len(rs), err)
	}
	if r := rs[0]; r.ReporterName != "Nam" || r.ReportedName != "Lan" || r.Reason != "stalling" {
		t.Errorf("kept %+v", r)
	}
}

// wantFieldError checks r is a 400 naming field.
func wantFieldError(t *testing.T, r response, field string) {
	t.Helper()
	wantError(t, r, 400, "bad_request")
	if e := decodeAs[api.ErrorBody](t, r); e.Error.Field != field {
		t.Errorf("field %q, want %q: %s", e.Error.Field, field, r.body)
	}
}

// TestReportsPerAddressAcrossServers: the reports one address makes
// (without an account, so that only the address's limit counts) are
// limited over every server sharing the store, not on each: 20 through
// two servers, then the next is refused on either.
func TestReportsPerAddressAcrossServers(t *testing.T) {
	url := pgtest.Start(t)
	_, tsA := accountServerOn(t, openPostgresURL(t, url), noLimits)
	_, tsB := accountServerOn(t, openPostgresURL(t, url), noLimits)
	newBrowser(t, tsA).signUp("Lan", "trâu ăn cỏ non")
	on := [2]*browser{newBrowser(t, tsA), newBrowser(t, tsB)}
	for i := range players.ReportRate.Burst {
		if r := on[i%2].call("POST", "/api/players/Lan/report", `{"reason":"stalling"}`); r.status != 204 {
			t.Fatalf("report %d: %s", i+1, r)
		}
	}
	for i := range on {
		wantError(t, on[i].call("POST", "/api/players/Lan/report", `{"reason":"stalling"}`), 429, "rate_limited")
	}
}

// wantSelf checks that r refuses a player's own name in the path (to
// block or report oneself): 400 naming the field name, reason self, for
// the page to say it in the player's language.
func wantSelf(t *testing.T, r response) {
	t.Helper()
	wantFieldError(t, r, "name")
	if e := decodeAs[api.ErrorBody](t, r); e.Error.Reason != "self" {
		t.Errorf("reason %q, want self: %s", e.Error.Reason, r.body)
	}
}
