package sqlite

import (
	"context"
	"oanquan/internal/rating"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestSQLiteLeaderboard(t *testing.T) {
	s := openSQLiteTemp(t)
	storetest.Leaderboard(t, s, sqliteRatings(s.(*DB)))
}

// sqliteRatings is the ratingSetter of a SQLite.
func sqliteRatings(s *DB) storetest.RatingSetter {
	return func(t *testing.T, account, speed string, r rating.Rating) {
		t.Helper()
		err := s.write(context.Background(), func(w *sqliteWriter) error {
			_, err := w.exec(`INSERT INTO ratings (account, speed, rating, rd, volatility, games, updated) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				account, speed, r.Rating, r.RD, r.Volatility, r.Games, r.Updated.UnixNano())
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
