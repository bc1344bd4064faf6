package api

import (
	"context"
	"time"
)

// History answers GET /api/players/{name}/history: a player's rating
// after each of its rated games, by speed ("blitz", …), oldest first,
// the last MaxHistory of each speed it has played.
type History struct {
	History map[string][]HistoryPoint `json:"history"`
}

// HistoryPoint is a player's rating right after one rated game, as it
// stood then.
type HistoryPoint struct {
	Game   string    `json:"game"`
	At     time.Time `json:"at"` // when the game ended
	Rating float64   `json:"rating"`
	RD     float64   `json:"rd"`
}

// MaxHistory is the most games of one speed a history holds.
const MaxHistory = 500

// HistoryHost is the part of a Host that keeps players' rating
// histories: the server's.
type HistoryHost interface {
	// History returns player name's history (ErrNotFound for no such
	// player).
	History(ctx context.Context, name string) (History, error)
}

func history(c *Call) (Response, error) {
	h, isHost := c.Host.(HistoryHost)
	if !isHost {
		return Response{}, Fail(ErrNotOffline, "players' histories need the server")
	}
	out, err := h.History(c.Ctx, c.ID)
	if err != nil {
		return Response{}, err
	}
	return ok(out)
}
