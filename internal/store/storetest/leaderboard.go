package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"oanquan/internal/rating"
	"oanquan/internal/store"
)

// RatingSetter saves account's rating in speed as it would stand after
// games, as only a backend can (no interface writes a rating directly).
type RatingSetter func(t *testing.T, account, speed string, r rating.Rating)

// Leaderboard: only the speed's ratings, active since the time and
// not provisional, highest first, up to the limit.
func Leaderboard(t *testing.T, s store.Full, setRating RatingSetter) {
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
		MustAccount(t, s.(store.Accounts), a.id, a.name)
		setRating(t, a.id, "blitz", rating.Rating{Rating: a.r, RD: a.rd, Volatility: 0.06, Games: 30, Updated: now.Add(-a.ago)})
	}
	setRating(t, "a1", "rapid", rating.Rating{Rating: 2000, RD: 50, Volatility: 0.06, Games: 30, Updated: now})
	got, err := s.(store.Leaderboards).Leaderboard(ctx, "blitz", now.AddDate(0, 0, -30), 110, 100)
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
	if got, _ := s.(store.Leaderboards).Leaderboard(ctx, "blitz", now.AddDate(0, 0, -30), 110, 1); len(got) != 1 {
		t.Errorf("limit 1: %d rows", len(got))
	}
}
