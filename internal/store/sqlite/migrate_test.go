package sqlite

import (
	"testing"
	"time"

	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
)

// TestSQLiteMigrateFromV6: a file of schema v6 (before accounts) is
// brought to the latest: its games have no accounts and are casual, and accounts
// can be made.
func TestSQLiteMigrateFromV6(t *testing.T) {
	s := migratedSQLite(t, 6, func(old *DB) {
		execOld(t, old, `INSERT INTO games (id, mode, level, human, seed, variants, first, start, nmoves, updated, status)
		VALUES ('old', 'online', 'easy', 0, 7, '[]', 0, 'start', 0, 1700000000000000000, '')`)
	})
	storetest.CheckMigratedV6(t, s)
}

// TestSQLiteMigrateFromV5: a file of schema v5 (before clocks) is brought
// to v6: its games have no clock, and take one.
func TestSQLiteMigrateFromV5(t *testing.T) {
	s := migratedSQLite(t, 5, func(old *DB) {
		execOld(t, old, `INSERT INTO games (id, mode, level, human, seed, variants, first, start, nmoves, updated, status)
		VALUES ('old', 'online', 'easy', 0, 7, '[]', 0, 'start', 0, 1700000000000000000, '')`)
	})
	if g := storetest.MustGet(t, s, "old"); g.Clock != (store.Clock{}) {
		t.Errorf("a v5 game read with the clock %+v", g.Clock)
	}
	c := store.Clock{State: "{}", Deadline: time.Unix(1800000000, 0)}
	if err := s.AppendClocked(ctx, "old", 0, "7R", store.Idle, c); err != nil {
		t.Fatal(err)
	}
	if got := storetest.MustGet(t, s, "old").Clock; !got.Deadline.Equal(c.Deadline) || got.State != c.State {
		t.Errorf("clock after migrating = %+v", got)
	}
}

// TestSQLiteMigrateFromV9: a game finished at schema v9 has no result
// after migrating and is listed to be worked out; its result can then be
// recorded, and its players' phrases counted (v11).
func TestSQLiteMigrateFromV9(t *testing.T) {
	storetest.CheckMigratedV9(t, migratedSQLite(t, 9, func(old *DB) {
		storetest.MustAccount(t, old, "a1", "Nam")
		g := storetest.Sample("old")
		g.Mode, g.Accounts = "online", [2]string{"a1", ""}
		storetest.MustCreate(t, old, g)
		execOld(t, old, `UPDATE games SET finished = updated WHERE id = 'old'`)
	}))
}

// TestSQLiteMigrateFromV7: a file of schema v7 (before seeks) is brought
// to v8, keeping its accounts, and keeps seeks.
func TestSQLiteMigrateFromV7(t *testing.T) {
	storetest.CheckMigratedV7(t, migratedSQLite(t, 7, func(old *DB) { storetest.MustAccount(t, old, "a1", "Nam") }))
}

// TestSQLiteMigrateFromV8: a seek saved at schema v8 (before holds) is
// open after migrating, never held, and may then be held and swept.
func TestSQLiteMigrateFromV8(t *testing.T) {
	storetest.CheckMigratedV8(t, migratedSQLite(t, 8, func(old *DB) {
		execOld(t, old, `INSERT INTO seeks (id, key, address, initial, increment, days, rated, min, max, speed, created, expires)
			VALUES ('s1', x'00', '192.0.2.1', 180, 2, 0, 0, 0, 0, 'blitz', ?, ?)`, storetest.SeekT0.UnixNano(), storetest.SeekT0.Add(time.Hour).UnixNano())
	}))
}
