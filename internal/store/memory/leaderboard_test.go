package memory

import (
	"oanquan/internal/rating"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestMemoryLeaderboard(t *testing.T) {
	m := New()
	storetest.Leaderboard(t, m, memoryRatings(m))
}

// memoryRatings is the ratingSetter of a Memory.
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
