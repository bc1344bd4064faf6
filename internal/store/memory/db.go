package memory

import (
	"sync"
	"time"

	"oanquan/internal/store"
)

// DB is a Store that keeps games in memory, for tests and for a
// server that need not remember games across restarts. The zero DB
// is not usable; create one with New. It is safe for concurrent
// use.
type DB struct {
	mu       sync.RWMutex
	games    map[string]*store.Game
	leases   map[string]lease
	finished map[string]time.Time // by game: when it ended (Finish)
	accts    memAccounts
	seeks    map[string]store.Seek // the lobby's, by id
	blocks   []memoryBlock         // who blocked whom, in the order blocked
	reported []store.Report        // players' reports, in the order made
	phrases  map[phraseKey]phraseCount
	buckets  map[string]store.BucketRow // Buckets', by key
	now      func() time.Time
}

type lease struct {
	owner string
	until time.Time
}

// New returns an empty DB.
func New() *DB {
	return &DB{games: make(map[string]*store.Game), leases: make(map[string]lease), finished: make(map[string]time.Time), accts: newMemAccounts(),
		phrases: make(map[phraseKey]phraseCount), now: time.Now}
}

// Close does nothing: a DB holds no resources but memory.
func (m *DB) Close() error { return nil }

// Len returns how many games m holds.
func (m *DB) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.games)
}
