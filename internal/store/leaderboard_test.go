package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"oanquan/internal/rating"
)

func TestMemoryLeaderboard(t *testing.T)   { testLeaderboard(t, openMemory(t)) }
func TestSQLiteLeaderboard(t *testing.T)   { testLeaderboard(t, openSQLiteTemp(t)) }
func TestPostgresLeaderboard(t *testing.T) { testLeaderboard(t, openPostgresTemp(t)) }

// setRating saves account's rating in speed as it would stand after games.
func setRating(t *testing.T, s Store, account, speed string, r rating.Rating) {
	t.Helper()
	var err error
	switch s := s.(type) {
	case *Memory:
		s.mu.Lock()
		if s.accts.ratings[account] == nil {
			s.accts.ratings[account] = map[string]rating.Rating{}
		}
		s.accts.ratings[account][speed] = r
		s.mu.Unlock()
	case *SQLite:
		err = s.write(context.Background(), func(w *sqliteWriter) error {
			_, err := w.exec(`INSERT INTO ratings (account, speed, rating, rd, volatility, games, updated) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				account, speed, r.Rating, r.RD, r.Volatility, r.Games, r.Updated.UnixNano())
			return err
		})
	case *Postgres:
		_, err = s.pool.Exec(context.Background(), `INSERT INTO ratings (account, speed, rating, rd, volatility, games, updated) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			account, speed, r.Rating, r.RD, r.Volatility, r.Games, r.Updated)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// testLeaderboard: only the speed's ratings, active since the time and
// not provisional, highest first, up to the limit.
func testLeaderboard(t *testing.T, s Store) {
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, a := range []struct {
		id, name string
		r        float64
		rd       float64
		ago      time.Duration
	}{
		{"a1", "An", 1600, 80, time.Hour},
		{"a2", "Binh", 1700, 60, 24 * time.Hour},
		{"a3", "Chi", 1800, 200, time.Hour},           // provisional
		{"a4", "Dung", 1900, 70, 40 * 24 * time.Hour}, // inactive
		{"a5", "Giang", 1650, 110, time.Minute},
	} {
		mustAccount(t, s.(Accounts), a.id, a.name)
		setRating(t, s, a.id, "blitz", rating.Rating{Rating: a.r, RD: a.rd, Volatility: 0.06, Games: 30, Updated: now.Add(-a.ago)})
	}
	setRating(t, s, "a1", "rapid", rating.Rating{Rating: 2000, RD: 50, Volatility: 0.06, Games: 30, Updated: now})
	got, err := s.(Leaderboards).Leaderboard(ctx, "blitz", now.AddDate(0, 0, -30), 110, 100)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range got {
		names = append(names, l.Username)
	}
	if want := "Binh Giang An"; strings.Join(names, " ") != want {
		t.Errorf("Leaderboard(blitz) = %v, want %s", names, want)
	}
	if len(got) > 0 && (got[0].Account != "a2" || got[0].Rating.RD != 60 || got[0].Rating.Games != 30 || !got[0].Rating.Updated.Equal(now.Add(-24*time.Hour))) {
		t.Errorf("first %+v", got[0])
	}
	if got, _ := s.(Leaderboards).Leaderboard(ctx, "blitz", now.AddDate(0, 0, -30), 110, 1); len(got) != 1 {
		t.Errorf("limit 1: %d rows", len(got))
	}
}
