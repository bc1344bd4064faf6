package store

import (
	"fmt"

	"oanquan/internal/rating"
)

// RatedGame is a game as Accounts.EndRated reads it, inside the
// transaction that ends it: what EndRating checks the ending against.
type RatedGame struct {
	ID       string
	Speed    string    // Game.Rated: "" for a casual game
	Accounts [2]string // each seat's account; "" for none
	Status   string    // Game.Status
	Moves    int       // the number of moves saved
	Rated    bool      // a RatingChange is saved already
}

// EndRating is the part of Accounts.EndRated that every store shares,
// worked out in Go once: it checks that ending e fits game g (else an
// error wrapping ErrUnrated or ErrConflict), reads each seat's rating as
// it stands through before (in the order of the seats' account ids, the
// order in which a store that locks accounts must lock them), and rates
// the game with the Glicko-2 system of package rating. The store then
// writes, in the same transaction, the ending, the change (with the game,
// with the result ResultOfScore(e.Score0) if it has none) and each
// seat's new rating and history row.
//
// A store checks first that both seats' accounts are live (not
// deleted), if it can without locking them (NotRated); one that locks
// them does it in before, returning NotRated.
func EndRating(g RatedGame, e Ending, before func(seat int) (rating.Rating, error)) (RatingChange, error) {
	if g.Speed == "" || g.Accounts[0] == "" || g.Accounts[1] == "" {
		return RatingChange{}, NotRated(g.ID)
	}
	if g.Rated {
		return RatingChange{}, errRatedAlready(g.ID)
	}
	if err := endingFits(g, e); err != nil {
		return RatingChange{}, err
	}
	rc := RatingChange{Speed: g.Speed}
	first, second := 0, 1
	if g.Accounts[1] < g.Accounts[0] {
		first, second = 1, 0
	}
	for _, seat := range []int{first, second} {
		r, err := before(seat)
		if err != nil {
			return RatingChange{}, err
		}
		rc.Before[seat] = r
	}
	var err error
	if rc.After[0], rc.After[1], err = (rating.System{}).Game(rc.Before[0], rc.Before[1], e.Score0, e.At); err != nil {
		return RatingChange{}, err
	}
	return rc, nil
}

// NotRated is the refusal to end game id rated: it is casual, or a seat has
// no account, or a seat's account is deleted (ErrUnrated).
func NotRated(id string) error {
	return fmt.Errorf("game %q: not rated, or a seat has no account: %w", id, ErrUnrated)
}

// errRatedAlready refuses to end a rated game again: it ended, and was
// rated, by a change saved meanwhile (through another server, say: a last
// move there leaves the status a resignation here comes from as it was).
func errRatedAlready(id string) error {
	return fmt.Errorf("game %q: rated already: %w", id, ErrConflict)
}

// endingFits checks e against g as AppendClocked and SetStatus(At) do.
func endingFits(g RatedGame, e Ending) error {
	switch {
	case e.Move != "" && e.Index != g.Moves:
		return fmt.Errorf("game %q: move %d, but %d moves are saved: %w", g.ID, e.Index, g.Moves, ErrConflict)
	case e.Move != "" && e.Clock.State != "" && g.Status != e.Clock.IfStatus:
		return fmt.Errorf("game %q: the status changed meanwhile: %w", g.ID, ErrConflict)
	case e.Move == "" && (g.Status != e.From || e.Flag && g.Moves != e.Index):
		return fmt.Errorf("game %q: the status or the moves changed meanwhile: %w", g.ID, ErrConflict)
	}
	return nil
}
