package account

import (
	"errors"
	"fmt"
)

// ErrInvalid is what every input error of this package matches with
// errors.Is: a server answers it with 400 bad_request.
var ErrInvalid = errors.New("account: invalid input")

// InputError says which field was refused and why. Its text never holds
// the input itself (a password must not be echoed); for a username it may
// name the one character that is refused.
type InputError struct {
	Field string // "username" or "password"
	// Reason is a stable word for the rule broken, for the page to pick
	// its message in the player's language: "encoding", "too_short",
	// "too_long", "character", "start", "end", "separators", "styled",
	// "scripts", "digits", "reserved" (usernames); "encoding",
	// "too_short", "too_long", "same_as_username", "common",
	// "repetitive" (passwords).
	Reason  string
	Problem string // in English, such as "has 2 characters; want 3 to 20"
}

func (e *InputError) Error() string { return e.Field + ": " + e.Problem }

// Is makes every InputError match ErrInvalid.
func (e *InputError) Is(target error) bool { return target == ErrInvalid }

func inputErr(field, reason, format string, args ...any) error {
	return &InputError{Field: field, Reason: reason, Problem: fmt.Sprintf(format, args...)}
}
