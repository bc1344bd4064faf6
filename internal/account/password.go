package account

import (
	_ "embed"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Bounds of a password. The minimum counts characters (code points after
// NFKC), as SP 800-63B counts them; the maximum counts bytes as typed,
// and only bounds the work a request can ask for: 256 bytes is far above
// any passphrase a person types, and above SP 800-63B's "at least 64".
const (
	MinPassword      = 8
	MaxPasswordBytes = 256
)

// CheckPassword checks a new password (at sign-up or change) for the
// player username, and returns an *InputError (matching ErrInvalid) that
// names the rule broken, never the password. Any character is allowed:
// letters of any script, spaces, symbols, emoji. It refuses what an
// attacker tries first: the username itself, a password from the list of
// the most common ones (which holds the service's own name), and one
// character repeated or a run such as "12345678" or "abcdefgh".
// Comparisons ignore case.
func CheckPassword(pw Password, username string) error {
	if len(pw) > MaxPasswordBytes {
		return passwordErr("too_long", "is longer than %d bytes", MaxPasswordBytes)
	}
	if !utf8.ValidString(string(pw)) {
		return passwordErr("encoding", "is not valid UTF-8")
	}
	p := pw.normalized()
	if n := utf8.RuneCountInString(p); n < MinPassword {
		return passwordErr("too_short", "has %d characters; want at least %d", n, MinPassword)
	}
	f := fold(p)
	switch {
	case username != "" && (f == fold(norm.NFKC.String(username)) || UsernameKey(p) == UsernameKey(username)):
		return passwordErr("same_as_username", "is the username")
	case commonPasswords[f]:
		return passwordErr("common", "is too common: it is among the first an attacker tries")
	case monotonous(f):
		return passwordErr("repetitive", "is one character repeated or a run of consecutive characters")
	}
	return nil
}

func passwordErr(reason, format string, args ...any) error {
	return inputErr("password", reason, format, args...)
}

// monotonous reports whether s is a run with one step between each
// character and the next: -1, 0 or +1 ("aaaaaaaa", "12345678",
// "zyxwvuts").
func monotonous(s string) bool {
	var prev, step rune
	for i, r := range []rune(s) {
		switch d := r - prev; {
		case i == 0:
		case d < -1 || d > 1:
			return false
		case i == 1:
			step = d
		case d != step:
			return false
		}
		prev = r
	}
	return true
}

//go:embed common_passwords.txt
var commonText string

// commonPasswords holds the lines of common_passwords.txt, folded; lines
// shorter than MinPassword are refused by their length already and are
// not in the file.
var commonPasswords = func() map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(commonText, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			m[fold(line)] = true
		}
	}
	return m
}()
