package postgres

import (
	"context"
	"oanquan/internal/rating"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestPostgresLeaderboard(t *testing.T) {
	p := openPostgresTemp(t)
	storetest.Leaderboard(t, p, postgresRatings(p.(*DB)))
}

// postgresRatings is the ratingSetter of a Postgres.
func postgresRatings(p *DB) storetest.RatingSetter {
	return func(t *testing.T, account, speed string, r rating.Rating) {
		t.Helper()
		_, err := p.pool.Exec(context.Background(), `INSERT INTO ratings (account, speed, rating, rd, volatility, games, updated) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			account, speed, r.Rating, r.RD, r.Volatility, r.Games, r.Updated)
		if err != nil {
			t.Fatal(err)
		}
	}
}
