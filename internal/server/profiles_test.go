package server

import (
	"context"
	"fmt"
	"math"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/store"
	"oanquan/internal/store/memory"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/postgres"
	"oanquan/internal/wire"
	"oanquan/notation"
)

// profileGames plays, between Nam (browser a) and Lan (b): a rated game
// to its end by the rules, a rated game Lan resigns, a casual game drawn
// by agreement, a rated game aborted and a casual game going on. It
// returns their ids in that order and the final states of the first
// four.
func profileGames(t *testing.T, a, b *browser) ([5]string, [4]wire.Game) {
	t.Helper()
	var ids [5]string
	var ends [4]wire.Game
	var ps [2]player
	ids[0], ps = ratedGame(t, a, b)
	ends[0] = playOut(t, a, ids[0], ps)

	ids[1], ps = ratedGame(t, a, b)
	st := must[wire.Game](t, a.call("GET", "/api/games/"+ids[1], nil), 200)
	must[wire.Turn](t, a.act(ps[st.ToMove], "POST", "/api/games/"+ids[1]+"/moves", `{"move":"`+st.Legal[0]+`"}`), 200)
	lanSeat := ps[seatOf(t, b, ids[1], "Lan")]
	ends[1] = must[wire.Game](t, b.act(lanSeat, "POST", "/api/games/"+ids[1]+"/resign", ""), 200)

	c := must[api.Created](t, a.call("POST", "/api/games", `{"mode":"online"}`), 201)
	j := must[api.Joined](t, b.call("POST", "/api/games/"+c.ID+"/join", ""), 200)
	ids[2] = c.ID
	must[wire.Game](t, a.call("POST", "/api/games/"+c.ID+"/draw", `{"action":"offer"}`, "Authorization", "Bearer "+c.Secret), 200)
	ends[2] = must[wire.Game](t, b.call("POST", "/api/games/"+c.ID+"/draw", `{"action":"accept"}`, "Authorization", "Bearer "+j.Secret), 200)

	ids[3], ps = ratedGame(t, a, b)
	ends[3] = must[wire.Game](t, a.act(ps[0], "POST", "/api/games/"+ids[3]+"/abort", ""), 200)

	c = must[api.Created](t, a.call("POST", "/api/games", `{"mode":"online"}`), 201)
	must[api.Joined](t, b.call("POST", "/api/games/"+c.ID+"/join", ""), 200)
	ids[4] = c.ID
	for i, e := range ends {
		if !e.Over {
			t.Fatalf("game %d not over: %+v", i, e)
		}
	}
	return ids, ends
}

// seatOf returns the seat of the player named name in game id.
func seatOf(t *testing.T, b *browser, id, name string) int {
	t.Helper()
	seats := must[api.Seats](t, b.call("GET", "/api/games/"+id+"/players", nil), 200)
	if u := seats.Players[1].Username; u != nil && *u == name {
		return 1
	}
	return 0
}

// resultFor is the result of a game that ended as end for the player
// whose username is name.
func resultFor(t *testing.T, b *browser, id string, end wire.Game, name string) string {
	t.Helper()
	if end.Offer == nil && end.EndReason == "player" && end.End == "abort" {
		return api.ResultAborted
	}
	seat := seatOf(t, b, id, name)
	switch w := end.Result.Winner; {
	case w == nil || *w < 0:
		return api.ResultDraw
	case *w == seat:
		return api.ResultWin
	}
	return api.ResultLoss
}

// TestProfile, on SQLite and on PostgreSQL: a player's profile counts its results (rated and casual,
// not aborted or going on) and says when it joined; its history has the
// rating after each rated game, oldest first, as GET …/players says; its
// games carry their result and rating change; its records download as
// one file of records, newest first, each read back by notation; an
// unknown player is 404 everywhere; the download is limited per address.
func TestProfile(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) { testProfile(t, db) })
	}
}

func testProfile(t *testing.T, db string) {
	lim := noLimits
	lim.Records = Rate{PerMinute: 1e-6, Burst: 2}
	lim.ClientIPHeader = "X-Real-IP"
	var ts *httptest.Server
	if db == "postgres" {
		st, err := postgres.Open(context.Background(), pgtest.Start(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		_, ts = accountServerOn(t, st, lim)
	} else {
		_, ts = accountServer(t, lim)
	}
	start := time.Now().Add(-time.Second)
	a, b := ratedPair(t, ts)
	ids, ends := profileGames(t, a, b)

	want := map[string]string{}
	var tally api.Results
	for i, e := range ends {
		r := resultFor(t, a, ids[i], e, "Nam")
		want[ids[i]] = r
		switch r {
		case api.ResultWin:
			tally.Wins++
		case api.ResultDraw:
			tally.Draws++
		case api.ResultLoss:
			tally.Losses++
		}
	}
	if want[ids[2]] != api.ResultDraw || want[ids[3]] != api.ResultAborted || want[ids[1]] != api.ResultWin {
		t.Fatalf("the games ended %v: not as played", want)
	}
	p := must[api.Player](t, b.call("GET", "/api/players/nam", nil), 200)
	if p.Results != tally || p.Joined.Before(start) || p.Joined.After(time.Now()) {
		t.Errorf("profile results %+v joined %v, want %+v and a time since %v", p.Results, p.Joined, tally, start)
	}
	if me, _ := a.me(); me.Results != tally || !me.Joined.Equal(p.Joined) {
		t.Errorf("/api/me results %+v joined %v, want %+v, %v", me.Results, me.Joined, tally, p.Joined)
	}

	// The history: after each rated game that ended with a result.
	h := must[api.History](t, b.call("GET", "/api/players/Nam/history", nil), 200)
	if len(h.History) != 1 || len(h.History["blitz"]) != 2 {
		t.Fatalf("history %+v, want two blitz points", h)
	}
	for i, pt := range h.History["blitz"] {
		seats := must[api.Seats](t, b.call("GET", "/api/games/"+ids[i]+"/players", nil), 200)
		after := seats.Players[seatOf(t, b, ids[i], "Nam")].After
		if pt.Game != ids[i] || math.Abs(pt.Rating-after.Rating) > 1e-9 || math.Abs(pt.RD-after.RD) > 1e-9 || pt.At.Before(start) {
			t.Errorf("history point %d = %+v, want game %s rated %v, RD %v", i, pt, ids[i], after.Rating, after.RD)
		}
	}
	if h := must[api.History](t, b.call("GET", "/api/players/Lan/history", nil), 200); len(h.History["blitz"]) != 2 {
		t.Errorf("Lan's history %+v", h)
	}

	// The games, with their results and rating changes.
	games := must[api.PlayerGames](t, b.call("GET", "/api/players/Nam/games", nil), 200)
	if len(games.Games) != 5 {
		t.Fatalf("games %+v, want 5", games)
	}
	for _, g := range games.Games {
		if g.ID == ids[4] {
			if g.Result != "" || g.RatingDiff != nil {
				t.Errorf("the game going on: %+v", g)
			}
			continue
		}
		if g.Result != want[g.ID] {
			t.Errorf("game %s: result %q, want %q", g.ID, g.Result, want[g.ID])
		}
		seats := must[api.Seats](t, b.call("GET", "/api/games/"+g.ID+"/players", nil), 200)
		switch after := seats.Players[g.Seat].After; {
		case after == nil && g.RatingDiff != nil:
			t.Errorf("game %s (not rated, or aborted): ratingDiff %v", g.ID, *g.RatingDiff)
		case after != nil && (g.RatingDiff == nil || math.Abs(*g.RatingDiff-(after.Rating-seats.Players[g.Seat].Before.Rating)) > 1e-9):
			t.Errorf("game %s: ratingDiff %v, want %v", g.ID, g.RatingDiff, after.Rating-seats.Players[g.Seat].Before.Rating)
		}
	}

	// The records: the four finished, newest first, each a record.
	r := b.call("GET", "/api/players/NAM/records", nil)
	if r.status != 200 || r.header.Get("Content-Type") != "text/plain; charset=utf-8" ||
		r.header.Get("Content-Disposition") != `attachment; filename="Nam-games.txt"` {
		t.Fatalf("records: %d %v", r.status, r.header)
	}
	records := splitRecords(string(r.body))
	if len(records) != 4 {
		t.Fatalf("%d records, want 4:\n%s", len(records), r.body)
	}
	for i, text := range records {
		rec, err := notation.ParseRecord(text)
		if err != nil {
			t.Fatalf("record %d: %v\n%s", i, err, text)
		}
		if _, err := rec.Game(); err != nil {
			t.Errorf("record %d does not replay: %v", i, err)
		}
		id := ids[3-i]
		if rec.Tag("Game") != id {
			t.Errorf("record %d is of game %q, want %s (newest first)", i, rec.Tag("Game"), id)
		}
		names := map[string]bool{rec.Tag("Player0"): true, rec.Tag("Player1"): true}
		if !names["Nam"] || !names["Lan"] {
			t.Errorf("record %d players %v", i, names)
		}
		if rated := rec.Tag("Rated"); (rated == "blitz") != (id != ids[2]) {
			t.Errorf("record %d Rated %q", i, rated)
		}
	}
	if !strings.Contains(records[0], "abort") || !strings.Contains(records[1], "draw") || !strings.Contains(records[2], "resign") {
		t.Errorf("records' endings out of order:\n%s", r.body)
	}
	for _, path := range []string{"/api/players/Nobody", "/api/players/Nobody/history", "/api/players/Nobody/games"} {
		wantError(t, b.call("GET", path, nil), 404, "not_found")
	}
	// The third download from an address is refused; another address is not.
	if r := b.call("GET", "/api/players/Lan/records", nil); r.status != 200 {
		t.Errorf("a second download: %s", r)
	}
	wantError(t, b.call("GET", "/api/players/Nobody/records", nil), 429, "rate_limited")
	if r := b.call("GET", "/api/players/Lan/records", nil, "X-Real-IP", "192.0.2.7"); r.status != 200 || len(splitRecords(string(r.body))) != 4 {
		t.Errorf("another address: %d, %d records", r.status, len(splitRecords(string(r.body))))
	}
	wantError(t, b.call("GET", "/api/players/Nobody/records", nil, "X-Real-IP", "192.0.2.8"), 404, "not_found")
}

// splitRecords splits a file of records, each after the blank line that
// ends the one before (a record's own blank line is followed by its
// moves, never by a tag).
func splitRecords(text string) []string {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	parts := strings.Split(text, "\n\n[")
	for i := 1; i < len(parts); i++ {
		parts[i] = "[" + parts[i]
	}
	return parts
}

// TestProfileOldResults: a game that ended before the store kept results
// (finished, with none) has its result worked out when the profile is
// first read, and counted from then on.
func TestProfileOldResults(t *testing.T) {
	st := memory.New()
	s, ts := accountServerOn(t, st, noLimits)
	a, b := ratedPair(t, ts)
	c := must[api.Created](t, a.call("POST", "/api/games", `{"mode":"online"}`), 201)
	must[api.Joined](t, b.call("POST", "/api/games/"+c.ID+"/join", ""), 200)
	ctx := context.Background()
	saved, err := st.Get(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	// As saved before v10: Lan (seat 1) resigned, finished, no result.
	old := saved
	old.ID, old.Status = "old-game", `{"outcome":{"kind":"resign","player":1}}`
	if err := st.Create(ctx, old); err != nil {
		t.Fatal(err)
	}
	if err := st.Finish(ctx, old.ID, store.NoResult); err != nil {
		t.Fatal(err)
	}
	if saved.Accounts[0] == "" || saved.Accounts[1] == "" {
		t.Fatalf("accounts %q", saved.Accounts)
	}
	want := api.Results{Wins: 1}
	if saved.Players[0] != "Nam" {
		want = api.Results{Losses: 1}
	}
	if p := must[api.Player](t, b.call("GET", "/api/players/Nam", nil), 200); p.Results != want {
		t.Errorf("results %+v, want %+v", p.Results, want)
	}
	if g, _ := st.Get(ctx, old.ID); g.Result != store.Won0 {
		t.Errorf("the old game's result %d, want Won0 recorded", g.Result)
	}
	_ = s
}

// TestRecordsDisposition: the file's name is the player's; beyond ASCII
// it goes in filename* too.
func TestRecordsDisposition(t *testing.T) {
	for name, want := range map[string]string{
		"Nam":    `attachment; filename="Nam-games.txt"`,
		"Nguyễn": `attachment; filename="Nguy_n-games.txt"; filename*=UTF-8''Nguy%E1%BB%85n-games.txt`,
	} {
		if got := recordsDisposition(name); got != want {
			t.Errorf("recordsDisposition(%q) = %s, want %s", name, got, want)
		}
	}
}

// TestProfileLimits: a flood of reads of a player's profile, history,
// games or records, of one's blocks, of a leaderboard or of the lobby's
// seeks from one address (an IPv6 one by its /64) is refused 429 with
// Retry-After once its bucket is empty; another address is unaffected.
func TestProfileLimits(t *testing.T) {
	lim := noLimits
	lim.Profiles = Rate{PerMinute: 1e-6, Burst: 3}
	lim.Records = Rate{PerMinute: 1e-6, Burst: 3}
	lim.ClientIPHeader = "X-Real-IP"
	_, ts := accountServer(t, lim)
	nam, _ := ratedPair(t, ts)
	for i, path := range []string{"/api/players/Lan", "/api/players/Lan/history", "/api/players/Lan/games",
		"/api/players/Lan/records", "/api/me/blocks", "/api/leaderboard/blitz", "/api/seeks"} {
		flood := fmt.Sprintf("2001:db8:%x::1", i)
		neighbour := fmt.Sprintf("2001:db8:%x::2", i) // the same /64
		other := fmt.Sprintf("198.51.100.%d", i+1)
		for n := range 3 {
			if r := nam.call("GET", path, nil, "X-Real-IP", flood); r.status != 200 {
				t.Fatalf("GET %s, request %d: %s", path, n+1, r)
			}
		}
		for _, addr := range []string{flood, neighbour} {
			r := nam.call("GET", path, nil, "X-Real-IP", addr)
			wantError(t, r, 429, "rate_limited")
			if r.header.Get("Retry-After") == "" {
				t.Errorf("GET %s from %s: no Retry-After", path, addr)
			}
		}
		if r := nam.call("GET", path, nil, "X-Real-IP", other); r.status != 200 {
			t.Errorf("GET %s from another address: %s", path, r)
		}
	}
}

// TestRecordsLimitAcrossServers: the downloads of players' records one
// address makes, each a read of all of a player's games, are limited
// over every server sharing the store (two on one PostgreSQL), not on
// each.
func TestRecordsLimitAcrossServers(t *testing.T) {
	lim := noLimits
	lim.Records = Rate{PerMinute: 1e-6, Burst: 2}
	url := pgtest.Start(t)
	_, tsA := accountServerOn(t, openPostgresURL(t, url), lim)
	_, tsB := accountServerOn(t, openPostgresURL(t, url), lim)
	newBrowser(t, tsA).signUp("Lan", "trâu ăn cỏ non")
	on := [2]*browser{newBrowser(t, tsA), newBrowser(t, tsB)}
	for i := range 2 {
		if r := on[i].call("GET", "/api/players/Lan/records", nil); r.status != 200 {
			t.Fatalf("download %d: %s", i+1, r)
		}
	}
	for i := range on {
		wantError(t, on[i].call("GET", "/api/players/Lan/records", nil), 429, "rate_limited")
	}
}

// TestRecordsHideInvitations: an invitation that ended with its seat
// free (aborted by its creator before the friend came) is not in the
// creator's records: its id there would let a stranger take the seat
// (join asks nothing of a game over) and offer the creator a rematch.
func TestRecordsHideInvitations(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	nam, lan := ratedPair(t, ts)
	played, ps := ratedGame(t, nam, lan)
	if r := nam.act(ps[0], "POST", "/api/games/"+played+"/resign", ""); r.status != 200 { // the secret acts, whoever sends it
		t.Fatalf("resign: %s", r)
	}
	invite := must[api.Created](t, nam.call("POST", "/api/games", `{"mode":"online","clock":{"initial":180,"increment":2}}`), 201)
	if r := nam.act(player{invite.Secret, invite.Seat}, "POST", "/api/games/"+invite.ID+"/abort", ""); r.status != 200 {
		t.Fatalf("abort: %s", r)
	}
	r := newBrowser(t, ts).call("GET", "/api/players/Nam/records", nil)
	if r.status != 200 {
		t.Fatalf("records: %s", r)
	}
	if strings.Contains(string(r.body), invite.ID) {
		t.Errorf("the records name the invitation %s, its seat free:\n%s", invite.ID, r.body)
	}
	if !strings.Contains(string(r.body), played) {
		t.Errorf("the records lack the game played %s:\n%s", played, r.body)
	}
}
