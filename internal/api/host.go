package api

import (
	"context"

	"oanquan/ai"
	"oanquan/internal/match"
	"oanquan/rules"
)

// Host is where games live, as one request sees them: the transport
// makes one for each request, and knows who asks (the server from the
// request's secret and address; the browser holds every seat).
type Host interface {
	// Allow refuses a request of the kind named ("new game", "hint",
	// "review", "join", "sign-in", "sign-up") beyond the caller's rate
	// limit.
	Allow(kind string) error
	// Create makes a new game of cfg (its id, seed and time of creation
	// the host's to choose) whose seats are the caller's, and returns it
	// and the secret that acts for them.
	Create(ctx context.Context, cfg match.Config, seats []rules.Player) (*match.Match, string, error)
	// Game returns the game id, refusing (ErrNotFound) an id it has no
	// game for.
	Game(ctx context.Context, id string) (Game, error)
	// Review reviews one move of a game (the server on its pool, with a
	// cache of the moves reviewed lately).
	Review(ctx context.Context, q ReviewQuery) (ai.MoveReview, error)
}

// Game is one live game, with the caller known.
type Game interface {
	Match() *match.Match
	// Held returns the seats the caller holds, as the host knows them.
	Held() []rules.Player
	// Authorize refuses (ErrSeat) a caller who holds no seat.
	Authorize() error
	// Player returns the caller's seat in an online game, looking again
	// where the seats are kept if it holds none (a friend may have
	// joined elsewhere); it refuses (ErrSeat) a caller who holds none.
	Player(ctx context.Context) (rules.Player, error)
	// Resync brings the game up to where it stands where it is kept:
	// another server may have changed it.
	Resync()
	// Claim gives a free seat of an online game to the caller, and
	// returns it and its new secret; ErrSeatTaken if none is free.
	Claim(ctx context.Context) (rules.Player, string, error)
	// Rematch makes the game that follows this one, agreed by both
	// players, and returns this one's state, which names it.
	Rematch(ctx context.Context) (match.State, error)
}

// ReviewQuery is one move of a game to review: Moves[Ply], played from
// History (the positions from Start up to it).
type ReviewQuery struct {
	Rules   rules.Rules
	Start   rules.Position
	Moves   []rules.Move
	Ply     int
	History []rules.Position
	Move    rules.Move
}
