package api

import "context"

// Leader is one row of a leaderboard: a player and its rating in the
// board's speed, as it stands now.
type Leader struct {
	Rank     int     `json:"rank"`
	Username string  `json:"username"`
	Rating   *Rating `json:"rating"`
}

// Leaderboard answers GET /api/leaderboard/{speed}.
type Leaderboard struct {
	Speed   string   `json:"speed"`
	Leaders []Leader `json:"leaders"`
}

// LeaderHost is the part of a Host that reads the leaderboards: the
// server's.
type LeaderHost interface {
	// Leaderboard returns the top players of speed (ErrNotFound for a
	// speed that does not exist).
	Leaderboard(ctx context.Context, speed string) (Leaderboard, error)
}

func leaderboard(c *Call) (Response, error) {
	h, isHost := c.Host.(LeaderHost)
	if !isHost {
		return Response{}, Fail(ErrNotOffline, "the leaderboards need the server")
	}
	l, err := h.Leaderboard(c.Ctx, c.ID)
	if err != nil {
		return Response{}, err
	}
	return ok(l)
}
