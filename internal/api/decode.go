package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// decode reads body as exactly one JSON value into v, refusing unknown
// fields. An empty body (or none: nil) leaves v as it is when emptyOK,
// and is refused otherwise. A read error that is already a refusal (the
// transport's: too large, too slow) is returned as it is.
func decode(body io.Reader, v any, emptyOK bool) error {
	if body == nil {
		body = strings.NewReader("")
	}
	dec := json.NewDecoder(body)
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
			return Fail(ErrBadRequest, "malformed JSON: more than one value in the body")
		}
	}
	return decodeError(err)
}

// decodeError is the refusal of a body that did not decode.
func decodeError(err error) error {
	var ute *json.UnmarshalTypeError
	var ae *Error
	var re *RangeError
	switch {
	case errors.As(err, &ae):
		return ae // the transport's, or a field's own check (Seat) says what it wants
	case errors.As(err, &re):
		return re // a clock's check, with its field and range
	case errors.Is(err, io.EOF):
		return Fail(ErrBadRequest, "malformed JSON: the body is empty")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Fail(ErrBadRequest, "malformed JSON: the body ends too soon")
	case errors.As(err, &ute) && ute.Field != "":
		// The field is one of the request's own (unknown ones are
		// refused below), so naming it echoes nothing of the client's.
		return &FieldError{ute.Field, "type", fmt.Sprintf("want %s, not %s", jsonKind(ute.Type), ute.Value)}
	case errors.As(err, &ute):
		return Fail(ErrBadRequest, "want a JSON object, not %s", ute.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return Fail(ErrBadRequest, "malformed JSON at byte %d: %s", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if strings.HasPrefix(msg, "unknown field ") {
		return Fail(ErrBadRequest, "unknown field %s", Short(strings.Trim(strings.TrimPrefix(msg, "unknown field "), `"`)))
	}
	return Fail(ErrBadRequest, "malformed JSON")
}

// Short quotes a client's string for a message, cut to a length that a
// message can carry: errors never echo long input back.
func Short(s string) string {
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
