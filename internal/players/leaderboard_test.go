package players

import (
	"testing"
	"time"

	"oanquan/internal/api"
)

// TestLeaderboardCached: a leaderboard read again within leaderFresh is
// answered from memory (the route has no per-address limit): a rating
// saved meanwhile shows only once it is stale.
func TestLeaderboardCached(t *testing.T) {
	var c leaderCache
	now := time.Now()
	if _, ok := c.get("blitz", now); ok {
		t.Fatal("an empty cache answered")
	}
	b := api.Leaderboard{Speed: "blitz", Leaders: []api.Leader{{Rank: 1, Username: "Lan"}}}
	c.put("blitz", b, now)
	if got, ok := c.get("blitz", now.Add(leaderFresh-time.Millisecond)); !ok || got.Leaders[0].Username != "Lan" {
		t.Errorf("within leaderFresh: %+v %v, want Lan from memory", got, ok)
	}
	if _, ok := c.get("blitz", now.Add(leaderFresh)); ok {
		t.Error("a stale board answered")
	}
	if _, ok := c.get("rapid", now); ok {
		t.Error("another speed answered")
	}
}
