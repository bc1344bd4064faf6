package account

import (
	"fmt"
	"log/slog"

	"golang.org/x/text/unicode/norm"
)

const redacted = "[redacted]"

// Password is a password as the player typed it. Printed, logged or
// marshalled it shows only "[redacted]": by fmt with any verb, by
// log/slog with any handler, by encoding/json. It still decodes from
// JSON as a string, so it can be the field of a request body. Only
// string(p) gives it up, which this package does where it hashes it.
// A struct that holds one should hold it in an exported field: fmt
// cannot call the methods of an unexported field's value.
type Password string

// Token is a session token: what the cookie carries. It is redacted as
// Password is; the store keeps only its Key.
type Token string

// String returns "[redacted]".
func (Password) String() string { return redacted }

// GoString returns "[redacted]", for %#v.
func (Password) GoString() string { return redacted }

// Format writes "[redacted]" whatever the verb: fmt would print a wrong
// verb's operand (%d) raw, without String.
func (Password) Format(f fmt.State, _ rune) { f.Write([]byte(redacted)) }

// LogValue makes log/slog show "[redacted]".
func (Password) LogValue() slog.Value { return slog.StringValue(redacted) }

// MarshalText makes encoding/json and slog's handlers write "[redacted]".
func (Password) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// String returns "[redacted]".
func (Token) String() string { return redacted }

// GoString returns "[redacted]", for %#v.
func (Token) GoString() string { return redacted }

// Format writes "[redacted]" whatever the verb.
func (Token) Format(f fmt.State, _ rune) { f.Write([]byte(redacted)) }

// LogValue makes log/slog show "[redacted]".
func (Token) LogValue() slog.Value { return slog.StringValue(redacted) }

// MarshalText makes encoding/json and slog's handlers write "[redacted]".
func (Token) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// normalized returns p in NFKC, as SP 800-63B asks before hashing, so
// that "Nguyễn" typed with a precomposed ễ or with e and two combining
// marks (Vietnamese keyboards send either) is one password.
func (p Password) normalized() string { return norm.NFKC.String(string(p)) }

// Credentials is the body of a sign-up or sign-in request:
// {"username": …, "password": …}. Logging it shows the username alone.
type Credentials struct {
	Username string   `json:"username"`
	Password Password `json:"password"`
}
