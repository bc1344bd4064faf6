package accounts

import (
	"context"
	"errors"

	"oanquan/internal/store"
)

// Rated games (issue 21): an online game with a clock between two
// accounts, created with "rated": true. When it ends, but for an abort,
// the change that ends it and both players' new ratings are saved in one
// transaction of the store (store.Accounts.EndRated); the games' domain
// says which change ends it and writes it down as a store.Ending.

// EndRated saves e, the ending of rated game id, with both players' new
// ratings, and returns them; ok is false, with no error, when the game
// turns out not to be rated in the store (a seat with no account): the
// ending is then to be saved as any change.
func (k *Accounts) EndRated(ctx context.Context, id string, e store.Ending) (rc store.RatingChange, ok bool, err error) {
	rc, err = k.store.EndRated(ctx, id, e)
	if errors.Is(err, store.ErrUnrated) {
		k.log.Warn("a rated game ends unrated: a seat has no account", "id", id)
		return rc, false, nil
	}
	if err != nil {
		return rc, false, err
	}
	k.log.Info("rated game over", "id", id, "speed", rc.Speed,
		"rating0", int(rc.After[0].Rating), "rating1", int(rc.After[1].Rating))
	return rc, true, nil
}
