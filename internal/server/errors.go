package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"oanquan/internal/match"
	"oanquan/internal/store"
	"oanquan/internal/wire"
)

// The server's own kinds of refusal, beside match's.
var (
	errBadRequest = errors.New("bad request")
	errTooLarge   = errors.New("request too large")
	errNotFound   = errors.New("not found")
	errMethod     = errors.New("method not allowed")
	errForbidden  = errors.New("cross-origin request")
	errTimeout    = errors.New("request timeout")
)

// errorTable maps every kind of error to its status and the code of
// docs/API.md: the one place where domain errors meet HTTP. Errors of no
// kind here are the server's own faults: 500, and their text is logged,
// never shown.
var errorTable = []struct {
	kind   error
	status int
	code   string
}{
	{errBadRequest, http.StatusBadRequest, "bad_request"},
	{match.ErrInvalid, http.StatusBadRequest, "bad_request"},
	{errTooLarge, http.StatusRequestEntityTooLarge, "too_large"},
	{errNotFound, http.StatusNotFound, "not_found"},
	{store.ErrNotFound, http.StatusNotFound, "not_found"},
	{errMethod, http.StatusMethodNotAllowed, "method_not_allowed"},
	{errForbidden, http.StatusForbidden, "forbidden"},
	{errSeat, http.StatusForbidden, "not_your_seat"},
	{errRate, http.StatusTooManyRequests, "rate_limited"},
	{errTimeout, http.StatusRequestTimeout, "timeout"},
	{match.ErrNotYourTurn, http.StatusConflict, "not_your_turn"},
	{match.ErrIllegalMove, http.StatusUnprocessableEntity, "illegal_move"},
	{match.ErrGameOver, http.StatusConflict, "game_over"},
	{match.ErrStale, http.StatusConflict, "conflict"},
	{match.ErrNothingToUndo, http.StatusConflict, "conflict"},
	{match.ErrConflict, http.StatusConflict, "conflict"},
	{errConflictSeat, http.StatusConflict, "seat_taken"},
	{match.ErrClosed, http.StatusServiceUnavailable, "unavailable"},
}

// apiError is a refusal of the server's own, with a message for the
// client.
type apiError struct {
	kind error
	msg  string
}

func (e *apiError) Error() string { return e.msg }
func (e *apiError) Unwrap() error { return e.kind }

func fail(kind error, format string, args ...any) error {
	return &apiError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// errorBody is the JSON of every error answer.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	// State is the game as it stands, with a conflict over a move: the
	// client catches up from it.
	State *wire.Game `json:"state,omitempty"`
}

// staleError is a conflict answered with the game's state.
type staleError struct {
	error
	state wire.Game
}

func (e *staleError) Unwrap() error { return e.error }

// writeError answers with err's status and code. Only refusals
// (*apiError, *match.Error) show their message; anything else is logged
// and answered with a 500 that says nothing of it.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var body errorBody
	status := http.StatusInternalServerError
	body.Error.Code, body.Error.Message = "internal", "internal server error"
	for _, row := range errorTable {
		if errors.Is(err, row.kind) {
			status, body.Error.Code = row.status, row.code
			body.Error.Message = http.StatusText(status)
			break
		}
	}
	var ae *apiError
	var me *match.Error
	var re *rateError
	var se *staleError
	if errors.As(err, &se) {
		body.State = &se.state
	}
	switch {
	case errors.As(err, &re):
		body.Error.Message = re.msg
		w.Header().Set("Retry-After", strconv.Itoa(retrySeconds(re.retry)))
	case errors.As(err, &ae):
		body.Error.Message = ae.msg
	case errors.As(err, &me):
		body.Error.Message = me.Msg
	case status == http.StatusInternalServerError && r.Context().Err() != nil && errors.Is(err, r.Context().Err()):
		// The client left before the answer: not the server's fault,
		// and nobody reads this answer.
		s.log.Debug("client left", "method", r.Method, "path", r.URL.Path)
	case status == http.StatusInternalServerError:
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	if status >= 500 && status != http.StatusInternalServerError {
		s.log.Warn("request refused", "method", r.Method, "path", r.URL.Path, "status", status)
	}
	writeJSON(w, status, body)
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		// Only the server's own types are written here, and they all
		// marshal: a failure is a bug.
		panic(err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

// maxBody bounds every request body.
const maxBody = 64 << 10

// decode reads r's body, at most maxBody bytes, as exactly one JSON value
// into v, refusing unknown fields. An empty body leaves v as it is when
// emptyOK, and is refused otherwise.
func decode(w http.ResponseWriter, r *http.Request, v any, emptyOK bool) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if errors.Is(err, io.EOF) && emptyOK {
		return nil
	}
	if err == nil {
		// Nothing but white space may follow the value.
		if _, err = dec.Token(); errors.Is(err, io.EOF) {
			return nil
		}
		if err == nil {
			return fail(errBadRequest, "malformed JSON: more than one value in the body")
		}
	}
	var mbe *http.MaxBytesError
	var ute *json.UnmarshalTypeError
	var ne net.Error
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		return ae // a field's own check (seatChoice) says what it wants
	case errors.As(err, &ne) && ne.Timeout():
		// Say nothing of the socket: its addresses are in err's text.
		return fail(errTimeout, "the request body did not arrive in time")
	case errors.As(err, &mbe):
		return fail(errTooLarge, "the body is larger than %d bytes", maxBody)
	case errors.Is(err, io.EOF):
		return fail(errBadRequest, "malformed JSON: the body is empty")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fail(errBadRequest, "malformed JSON: the body ends too soon")
	case errors.As(err, &ute) && ute.Field != "":
		return fail(errBadRequest, "field %s: want %s, not %s", short(ute.Field), jsonKind(ute.Type), ute.Value)
	case errors.As(err, &ute):
		return fail(errBadRequest, "want a JSON object, not %s", ute.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fail(errBadRequest, "malformed JSON at byte %d: %s", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if strings.HasPrefix(msg, "unknown field ") {
		return fail(errBadRequest, "unknown field %s", short(strings.Trim(strings.TrimPrefix(msg, "unknown field "), `"`)))
	}
	return fail(errBadRequest, "malformed JSON")
}

// short quotes a client's string for a message, cut to a length that a
// message can carry: errors never echo long input back.
func short(s string) string {
	const most = 24
	if r := []rune(s); len(r) > most {
		return strconv.Quote(string(r[:most])) + "…"
	}
	return strconv.Quote(s)
}

// jsonKind names the JSON type that decodes into t, for messages.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "an object"
}
