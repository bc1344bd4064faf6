package rating

import (
	"errors"
	"fmt"
)

// ErrInvalid is what every input error of this package matches with
// errors.Is: a server answers it with 400.
var ErrInvalid = errors.New("rating: invalid input")

// InputError says which input was out of range and what was expected.
type InputError struct {
	Field   string // such as "rd", "results[1].opponent.volatility", "increment"
	Problem string // such as "is -1; want 0 or more"
}

func (e *InputError) Error() string { return "rating: " + e.Field + " " + e.Problem }

// Is makes every InputError match ErrInvalid.
func (e *InputError) Is(target error) bool { return target == ErrInvalid }

func inputErr(field, format string, args ...any) error {
	return &InputError{Field: field, Problem: fmt.Sprintf(format, args...)}
}
