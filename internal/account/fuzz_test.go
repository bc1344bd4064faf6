package account

import (
	"errors"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// FuzzParseUsername: any input gives a valid Username or an *InputError,
// never a panic; a valid name is NFC, within bounds, its own fixed point,
// and its key is stable.
func FuzzParseUsername(f *testing.F) {
	for _, s := range []string{"nam", "Nguyễn", "Nguye\u0302\u0303n", "аdmin", "山田たろう", "a__b", "ｎａｍ", "علی_۱۳۸۰", "\xff", "admin"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := ParseUsername(s)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) || ie.Field != "username" || ie.Reason == "" {
				t.Fatalf("ParseUsername(%q) = %v, want an *InputError with its field and reason", s, err)
			}
			return
		}
		if n := utf8.RuneCountInString(u.Name); n < MinUsername || n > MaxUsername || !norm.NFC.IsNormalString(u.Name) {
			t.Fatalf("ParseUsername(%q).Name = %q: %d characters, NFC %v", s, u.Name, n, norm.NFC.IsNormalString(u.Name))
		}
		again, err := ParseUsername(u.Name)
		if err != nil || again != u {
			t.Fatalf("ParseUsername(%q) = %+v, but ParseUsername of its name = %+v, %v", s, u, again, err)
		}
		if k := UsernameKey(u.Key); k != u.Key {
			t.Fatalf("UsernameKey(%q) = %q: the key is not its own key", u.Key, k)
		}
	})
}

// FuzzParseEncoded: what parses formats back to the same text (one
// string, one hash), and nothing panics.
func FuzzParseEncoded(f *testing.F) {
	f.Add("$argon2id$v=19$m=47104,t=1,p=1$c2FsdHNhbHRzYWx0c2FsdA$MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY")
	f.Add("$argon2id$v=19$m=64,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$sv23Ve4i9YCNro5AQNIoIWJq3Zq+SjJLPw3vn+B+RBc")
	f.Add("$argon2id$v=19$m=064,t=1,p=1$c2FsdA$MDEy")
	f.Fuzz(func(t *testing.T, s string) {
		e, err := parseEncoded(s)
		if err != nil {
			return
		}
		if got := e.String(); got != s {
			t.Fatalf("parseEncoded(%q).String() = %q", s, got)
		}
		if err := e.params.check(); err != nil {
			t.Fatalf("parseEncoded(%q) gave params out of bounds: %v", s, err)
		}
	})
}
