package api

import (
	"errors"
	"fmt"

	"oanquan/internal/match"
	"oanquan/internal/wire"
)

// The kinds of refusal of the API's own, beside match's. The transport
// refuses with some of them too (a body too large, a client over its
// rate limit): all of them have their row in the one table, errorTable.
var (
	ErrBadRequest = errors.New("bad request")
	ErrTooLarge   = errors.New("request too large")
	ErrNotFound   = errors.New("not found")
	ErrMethod     = errors.New("method not allowed")
	ErrForbidden  = errors.New("cross-origin request")
	ErrTimeout    = errors.New("request timeout")
	ErrSeat       = errors.New("not your seat")    // a request that acts for a seat without its secret
	ErrSeatTaken  = errors.New("seat taken")       // a join with no seat free
	ErrRate       = errors.New("rate limited")     // a client over its rate limit
	ErrNotOffline = errors.New("needs the server") // what the engine in the browser cannot do alone
	// ErrUnavailable: the server cannot serve the request now (it is
	// full, or its store cannot be reached or written), and says when to
	// try again.
	ErrUnavailable = errors.New("unavailable")
)

// errorTable maps every kind of error to its status and the code of
// docs/API.md: the one place where domain errors meet status codes, for
// the server and the engine in the browser alike. Errors of no kind here
// are faults: 500, and their text is never shown. text is the message of
// a refusal that carries none of its own.
var errorTable = []struct {
	kind   error
	status int
	code   string
	text   string
}{
	{ErrBadRequest, 400, "bad_request", "Bad Request"},
	{errCredentials, 401, "bad_credentials", "Unauthorized"},
	{errSignedOut, 401, "signed_out", "Unauthorized"},
	{errUsernameTaken, 409, "username_taken", "Conflict"},
	{match.ErrInvalid, 400, "bad_request", "Bad Request"},
	{ErrTooLarge, 413, "too_large", "Request Entity Too Large"},
	{ErrNotFound, 404, "not_found", "Not Found"},
	{ErrMethod, 405, "method_not_allowed", "Method Not Allowed"},
	{ErrForbidden, 403, "forbidden", "Forbidden"},
	{ErrSeat, 403, "not_your_seat", "Forbidden"},
	{ErrRate, 429, "rate_limited", "Too Many Requests"},
	{ErrTimeout, 408, "timeout", "Request Timeout"},
	{match.ErrNotYourTurn, 409, "not_your_turn", "Conflict"},
	{match.ErrIllegalMove, 422, "illegal_move", "Unprocessable Entity"},
	{match.ErrGameOver, 409, "game_over", "Conflict"},
	{match.ErrTimeOver, 409, "time_over", "Conflict"},
	{match.ErrCannotClaim, 409, "cannot_claim", "Conflict"},
	{match.ErrStale, 409, "conflict", "Conflict"},
	{match.ErrNothingToUndo, 409, "conflict", "Conflict"},
	{match.ErrConflict, 409, "conflict", "Conflict"},
	{ErrSeatTaken, 409, "seat_taken", "Conflict"},
	{errSeekTaken, 409, "seek_taken", "Conflict"},
	{errOwnSeek, 409, "own_seek", "Conflict"},
	{errOutOfRange, 403, "out_of_range", "Forbidden"},
	{ErrNotOffline, 501, "not_offline", "Not Implemented"},
	{match.ErrClosed, 503, "unavailable", "Service Unavailable"},
	{ErrUnavailable, 503, "unavailable", "Service Unavailable"},
}

// Error is a refusal with a message for the client.
type Error struct {
	Kind error // one of the kinds of errorTable
	Msg  string
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Kind }

// Fail returns a refusal of kind, its message formatted as by fmt.Sprintf.
func Fail(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Stale is a conflict over a move answered with the game's state, from
// which the client catches up.
type Stale struct {
	error
	State wire.Game
}

func (e *Stale) Unwrap() error { return e.error }

// ErrorBody is the JSON of every error answer.
type ErrorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		// Field and Reason name the field refused and the rule it broke
		// (a *FieldError): for the page to say it in the player's language.
		Field  string `json:"field,omitempty"`
		Reason string `json:"reason,omitempty"`
		// Min and Max are the range a number refused had to be in, and
		// Allowed the values it could take (a *RangeError: the clock's
		// fields), for the page to say them without reading Message.
		Min     *int  `json:"min,omitempty"`
		Max     *int  `json:"max,omitempty"`
		Allowed []int `json:"allowed,omitempty"`
	} `json:"error"`
	// State is the game as it stands, with a conflict over a move: the
	// client catches up from it.
	State *wire.Game `json:"state,omitempty"`
}

// Describe returns the status and body that answer err. Only refusals
// (*Error, *match.Error) show their message; anything else is a fault,
// answered with a 500 that says nothing of it (the caller logs it).
func Describe(err error) (int, ErrorBody) {
	var body ErrorBody
	status := 500
	body.Error.Code, body.Error.Message = "internal", "internal server error"
	for _, row := range errorTable {
		if errors.Is(err, row.kind) {
			status, body.Error.Code, body.Error.Message = row.status, row.code, row.text
			break
		}
	}
	var se *Stale
	if errors.As(err, &se) {
		body.State = &se.State
	}
	var ae *Error
	var me *match.Error
	var fe *FieldError
	var re *RangeError
	var wp *WrongPassword
	switch {
	case errors.As(err, &wp):
		body.Error.Message, body.Error.Field, body.Error.Reason = wp.Error(), wp.Field, "wrong"
	case errors.As(err, &re):
		body.Error.Message, body.Error.Field, body.Error.Reason = re.Msg, re.Field, re.Reason
		body.Error.Min, body.Error.Max, body.Error.Allowed = re.Min, re.Max, re.Allowed
	case errors.As(err, &fe):
		body.Error.Message, body.Error.Field, body.Error.Reason = fe.Error(), fe.Field, fe.Reason
	case errors.As(err, &ae):
		body.Error.Message = ae.Msg
	case errors.As(err, &me):
		body.Error.Message = me.Msg
	}
	return status, body
}
