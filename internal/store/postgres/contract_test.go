package postgres

import (
	"context"
	"testing"

	"oanquan/internal/rating"
	"oanquan/internal/store"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/storetest"
)

// ctx is the tests' context: none of them is cancelled from outside.
var ctx = context.Background()

// openPostgresTemp is the contract's opener: a new database on pgtest's
// server, whose statements read clock instead of the database's if it is
// not nil, closed when t ends.
func openPostgresTemp(t *testing.T, clock *storetest.Clock) store.Full {
	s, err := Open(context.Background(), pgtest.Start(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if clock != nil {
		s.now = clock.Now
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// The contract every store passes (package storetest), on PostgreSQL.

func TestPostgresContract(t *testing.T)    { storetest.Contract(t, openPostgresTemp) }
func TestPostgresAccounts(t *testing.T)    { storetest.Accounts(t, openPostgresTemp) }
func TestPostgresSeeks(t *testing.T)       { storetest.Seeks(t, openPostgresTemp) }
func TestPostgresBlocks(t *testing.T)      { storetest.Blocks(t, openPostgresTemp(t, nil)) }
func TestPostgresBuckets(t *testing.T)     { storetest.Buckets(t, openPostgresTemp(t, nil)) }
func TestPostgresPhrases(t *testing.T)     { storetest.Phrases(t, openPostgresTemp) }
func TestPostgresPlayerGames(t *testing.T) { storetest.PlayerGames(t, openPostgresTemp(t, nil)) }
func TestPostgresRatedInPlay(t *testing.T) { storetest.RatedInPlay(t, openPostgresTemp(t, nil)) }
func TestPostgresProfiles(t *testing.T)    { storetest.Profiles(t, openPostgresTemp(t, nil)) }
func TestPostgresReports(t *testing.T)     { storetest.Reports(t, openPostgresTemp(t, nil)) }

func TestPostgresLeaderboard(t *testing.T) {
	p := openPostgresTemp(t, nil)
	storetest.Leaderboard(t, p, postgresRatings(p.(*DB)))
}

// postgresRatings is the storetest.RatingSetter of p.
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

// TestPostgresProbe: the probe succeeds on a database that takes changes.
func TestPostgresProbe(t *testing.T) {
	if err := store.Prober(openPostgresAt(t, pgtest.Start(t))).Probe(ctx); err != nil {
		t.Errorf("Probe() = %v", err)
	}
}
