package sqlite

import (
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
	"testing"
	"time"
)

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
