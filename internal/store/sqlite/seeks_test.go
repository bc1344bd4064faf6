package sqlite

import (
	"oanquan/internal/store/storetest"
	"testing"
	"time"
)

func TestSQLiteSeeks(t *testing.T) { storetest.Seeks(t, openSQLiteTemp) }

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
