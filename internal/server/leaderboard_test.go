package server

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/store/sqlite"
)

// TestLeaderboard: GET /api/leaderboard/blitz lists, ranked, the
// accounts rated in blitz in the last 30 days and not provisional (RD ≤
// 110 now), highest first; an unknown speed is 404. The ratings are
// written into the SQLite file beside the server, as rated games would
// leave them.
func TestLeaderboard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	st, err := sqlite.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	_, ts := accountServerOn(t, st, noLimits)
	nam, lan := ratedPair(t, ts)
	newBrowser(t, ts).signUp("Chi", "mèo trèo cây cau")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Now()
	for _, r := range []struct {
		name    string
		rating  float64
		rd      float64
		updated time.Time
	}{
		{"Nam", 1650, 70, now.Add(-time.Hour)},
		{"Lan", 1720, 60, now.Add(-2 * time.Hour)},
		{"Chi", 1900, 150, now}, // provisional
	} {
		if _, err := db.Exec(`INSERT INTO ratings (account, speed, rating, rd, volatility, games, updated)
			SELECT id, 'blitz', ?, ?, 0.06, 40, ? FROM accounts WHERE username = ?`, r.rating, r.rd, r.updated.UnixNano(), r.name); err != nil {
			t.Fatal(err)
		}
	}
	b := must[api.Leaderboard](t, nam.call("GET", "/api/leaderboard/blitz", nil), 200)
	if len(b.Leaders) != 2 || b.Leaders[0].Username != "Lan" || b.Leaders[0].Rank != 1 || b.Leaders[1].Username != "Nam" || b.Leaders[1].Rank != 2 {
		t.Fatalf("leaderboard %+v, want Lan then Nam", b)
	}
	if r := b.Leaders[0].Rating; r.Rating != 1720 || r.Provisional || r.Games != 40 {
		t.Errorf("Lan's rating %+v", r)
	}
	if b := must[api.Leaderboard](t, lan.call("GET", "/api/leaderboard/rapid", nil), 200); len(b.Leaders) != 0 || b.Speed != "rapid" {
		t.Errorf("rapid %+v, want empty", b)
	}
	wantError(t, lan.call("GET", "/api/leaderboard/lightning", nil), 404, "not_found")
}
