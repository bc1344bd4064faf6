package accounts

import (
	"testing"

	"oanquan/internal/api"
	"oanquan/internal/rating"
	"oanquan/internal/store"
)

// TestPlayerGame checks how a player's list of games shows a saved
// game's result, opponent and rating change, from either seat.
func TestPlayerGame(t *testing.T) {
	rc := &store.RatingChange{Speed: "blitz"}
	rc.Before[0], rc.After[0] = rating.Rating{Rating: 1500}, rating.Rating{Rating: 1520}
	rc.Before[1], rc.After[1] = rating.Rating{Rating: 1500}, rating.Rating{Rating: 1480}
	for _, tc := range []struct {
		name   string
		result store.Result
		rc     *store.RatingChange
		acct   string
		want   string
		diff   float64 // 0: none
		oppo   string
	}{
		{"going on", store.NoResult, nil, "a", "", 0, "Binh"},
		{"seat 0 wins", store.Won0, rc, "a", api.ResultWin, 20, "Binh"},
		{"seat 1 loses", store.Won0, rc, "b", api.ResultLoss, -20, "An"},
		{"drawn", store.Drawn, nil, "b", api.ResultDraw, 0, "An"},
		{"aborted", store.Aborted, &store.RatingChange{}, "a", api.ResultAborted, 0, "Binh"},
	} {
		g := store.Game{ID: "g", Result: tc.result, RatingChange: tc.rc, Accounts: [2]string{"a", "b"}, Players: [2]string{"An", "Binh"}}
		v := playerGame(g, tc.acct)
		if v.Result != tc.want {
			t.Errorf("%s: Result = %q, want %q", tc.name, v.Result, tc.want)
		}
		if v.Opponent == nil || *v.Opponent != tc.oppo {
			t.Errorf("%s: Opponent = %v, want %s", tc.name, v.Opponent, tc.oppo)
		}
		switch {
		case tc.diff == 0 && v.RatingDiff != nil:
			t.Errorf("%s: RatingDiff = %v, want none", tc.name, *v.RatingDiff)
		case tc.diff != 0 && (v.RatingDiff == nil || *v.RatingDiff != tc.diff):
			t.Errorf("%s: RatingDiff = %v, want %v", tc.name, v.RatingDiff, tc.diff)
		}
	}
}
