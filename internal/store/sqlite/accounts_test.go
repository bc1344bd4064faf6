package sqlite

import (
	"oanquan/internal/store/storetest"
	"testing"
)

func TestSQLiteAccounts(t *testing.T) { storetest.Accounts(t, openSQLiteTemp) }

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
