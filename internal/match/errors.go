package match

import (
	"errors"
	"fmt"
)

// The kinds of refusal. A Match returns them wrapped in an *Error whose
// message says what happened in words a player understands; test with
// errors.Is. A refused request changes nothing.
var (
	ErrInvalid       = errors.New("invalid setting")     // a mode, level, seat or start the match cannot take
	ErrNotYourTurn   = errors.New("not your turn")       // a human move while the computer is to move or thinking
	ErrIllegalMove   = errors.New("illegal move")        // the rules refuse the move
	ErrGameOver      = errors.New("the game is over")    // a move or hint asked for after the end
	ErrStale         = errors.New("stale ply")           // the move was meant for another ply
	ErrNothingToUndo = errors.New("nothing to undo")     // no move of the human's to take back
	ErrConflict      = errors.New("conflict")            // a request that does not fit the game as it stands (an offer to answer that is not there)
	ErrClosed        = errors.New("the match is closed") // the match has been shut down
	ErrTimeOver      = errors.New("time over")           // a move after the mover's time ran out: the game ended on time
	ErrCannotClaim   = errors.New("cannot claim")        // a claim while the other player is there, or without a real-time clock
)

// ErrNoClock is Sync's error when the saved game has a clock and the
// match none: the match was made from an earlier save (a game with a
// clock not yet ready, as once saved) and must be made again from the
// store.
var ErrNoClock = errors.New("the saved game has a clock, and this copy of it none")

// Error is a refusal: Kind is one of the Err values above, Msg says why.
type Error struct {
	Kind error
	Msg  string
}

// Error returns Msg.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns Kind, so that errors.Is(err, ErrIllegalMove) works.
func (e *Error) Unwrap() error { return e.Kind }

func refuse(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}
