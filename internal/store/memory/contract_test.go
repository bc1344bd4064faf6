package memory

import (
	"context"
	"testing"

	"oanquan/internal/rating"
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
)

// ctx is the tests' context: none of them is cancelled from outside.
var ctx = context.Background()

// openMemory is the contract's opener: an empty DB, on clock if not nil.
func openMemory(t *testing.T, clock *storetest.Clock) store.Full {
	m := New()
	if clock != nil {
		m.now = clock.Now
	}
	return m
}

// The contract every store passes (package storetest), on memory.

func TestMemoryContract(t *testing.T)    { storetest.Contract(t, openMemory) }
func TestMemoryAccounts(t *testing.T)    { storetest.Accounts(t, openMemory) }
func TestMemorySeeks(t *testing.T)       { storetest.Seeks(t, openMemory) }
func TestMemoryBlocks(t *testing.T)      { storetest.Blocks(t, openMemory(t, nil)) }
func TestMemoryBuckets(t *testing.T)     { storetest.Buckets(t, openMemory(t, nil)) }
func TestMemoryPhrases(t *testing.T)     { storetest.Phrases(t, openMemory) }
func TestMemoryPlayerGames(t *testing.T) { storetest.PlayerGames(t, openMemory(t, nil)) }
func TestMemoryRatedInPlay(t *testing.T) { storetest.RatedInPlay(t, openMemory(t, nil)) }
func TestMemoryProfiles(t *testing.T)    { storetest.Profiles(t, openMemory(t, nil)) }
func TestMemoryReports(t *testing.T)     { storetest.Reports(t, openMemory(t, nil)) }

func TestMemoryLeaderboard(t *testing.T) {
	m := New()
	storetest.Leaderboard(t, m, memoryRatings(m))
}

// memoryRatings is the storetest.RatingSetter of m.
func memoryRatings(m *DB) storetest.RatingSetter {
	return func(t *testing.T, account, speed string, r rating.Rating) {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.accts.ratings[account] == nil {
			m.accts.ratings[account] = map[string]rating.Rating{}
		}
		m.accts.ratings[account][speed] = r
	}
}

// TestMemoryProbe: memory's probe succeeds.
func TestMemoryProbe(t *testing.T) {
	if err := store.Prober(New()).Probe(ctx); err != nil {
		t.Errorf("Probe() = %v", err)
	}
}
