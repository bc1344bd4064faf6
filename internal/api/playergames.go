package api

import (
	"context"
	"strconv"
	"time"
)

// PlayerGame is one game of a player's list: who played it, as the
// player's profile shows it.
type PlayerGame struct {
	ID       string    `json:"id"`
	Created  time.Time `json:"created"`
	Rated    string    `json:"rated,omitempty"` // the speed of a rated game
	Seat     int       `json:"seat"`            // the player's seat
	Opponent *string   `json:"opponent"`        // null: no account (or deleted)
	Moves    int       `json:"moves"`
	// Result is the game's result for the player: ResultWin,
	// ResultLoss, ResultDraw or ResultAborted; "" while it goes on.
	Result string `json:"result,omitempty"`
	// RatingDiff is the change the game made to the player's rating,
	// once it ended rated; nil otherwise.
	RatingDiff *float64 `json:"ratingDiff,omitempty"`
}

// The results of a player's game (PlayerGame.Result).
const (
	ResultWin     = "win"
	ResultLoss    = "loss"
	ResultDraw    = "draw"
	ResultAborted = "aborted"
)

// PlayerGames answers GET /api/players/{name}/games: a page of the
// player's games, newest first, and Next, the value of before for the
// next page (absent on the last).
type PlayerGames struct {
	Games []PlayerGame `json:"games"`
	Next  string       `json:"next,omitempty"`
}

// PlayerGamesHost is the part of a Host that lists players' games: the
// server's.
type PlayerGamesHost interface {
	// PlayerGames returns the games of player name created before
	// before, newest first, at most limit (ErrNotFound for no such
	// player).
	PlayerGames(ctx context.Context, name string, before time.Time, limit int) (PlayerGames, error)
}

// maxGamesPage is the most games one page lists.
const maxGamesPage = 50

func playerGames(c *Call) (Response, error) {
	h, isHost := c.Host.(PlayerGamesHost)
	if !isHost {
		return Response{}, Fail(ErrNotOffline, "players' games need the server")
	}
	before := time.Now().Add(time.Hour)
	if s := c.Query.Get("before"); s != "" {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return Response{}, &FieldError{"before", "format", "want a time as RFC 3339 (the next of the page before)"}
		}
		before = t
	}
	limit := 20
	if s := c.Query.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxGamesPage {
			return Response{}, &FieldError{"limit", "bounds", "want a whole number from 1 to " + strconv.Itoa(maxGamesPage)}
		}
		limit = n
	}
	p, err := h.PlayerGames(c.Ctx, c.ID, before, limit)
	if err != nil {
		return Response{}, err
	}
	return ok(p)
}
