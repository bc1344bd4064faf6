package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"oanquan/internal/rating"
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
)

// ctx is the tests' context: none of them is cancelled from outside.
var ctx = context.Background()

// openSQLiteTemp is the contract's opener: a new file in t's directory,
// on clock if not nil, closed when t ends.
func openSQLiteTemp(t *testing.T, clock *storetest.Clock) store.Full {
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "games.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if clock != nil {
		// Before any change: the writer reads s.now in the changes sent
		// to it, after this.
		s.now = clock.Now
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// The contract every store passes (package storetest), on SQLite.

func TestSQLiteContract(t *testing.T)    { storetest.Contract(t, openSQLiteTemp) }
func TestSQLiteAccounts(t *testing.T)    { storetest.Accounts(t, openSQLiteTemp) }
func TestSQLiteSeeks(t *testing.T)       { storetest.Seeks(t, openSQLiteTemp) }
func TestSQLiteBlocks(t *testing.T)      { storetest.Blocks(t, openSQLiteTemp(t, nil)) }
func TestSQLiteBuckets(t *testing.T)     { storetest.Buckets(t, openSQLiteTemp(t, nil)) }
func TestSQLitePhrases(t *testing.T)     { storetest.Phrases(t, openSQLiteTemp) }
func TestSQLitePlayerGames(t *testing.T) { storetest.PlayerGames(t, openSQLiteTemp(t, nil)) }
func TestSQLiteRatedInPlay(t *testing.T) { storetest.RatedInPlay(t, openSQLiteTemp(t, nil)) }
func TestSQLiteProfiles(t *testing.T)    { storetest.Profiles(t, openSQLiteTemp(t, nil)) }
func TestSQLiteReports(t *testing.T)     { storetest.Reports(t, openSQLiteTemp(t, nil)) }

func TestSQLiteLeaderboard(t *testing.T) {
	s := openSQLiteTemp(t, nil)
	storetest.Leaderboard(t, s, sqliteRatings(s.(*DB)))
}

// sqliteRatings is the storetest.RatingSetter of s.
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

// TestSQLiteProbe: the probe succeeds on a file that takes changes, and
// changes nothing a game sees (SQLite keeps its schema version).
func TestSQLiteProbe(t *testing.T) {
	sq := openSQLiteAt(t, filepath.Join(t.TempDir(), "games.db"))
	defer sq.Close()
	if err := store.Prober(sq).Probe(ctx); err != nil {
		t.Errorf("Probe() = %v", err)
	}
	var v int
	if err := sq.rdb.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != len(sqliteMigrations) {
		t.Errorf("schema version after a probe: %d, %v; want %d", v, err, len(sqliteMigrations))
	}
}
