package account

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"time"
)

// tokenBytes is a token's randomness: 256 bits, so that guessing one of
// even billions of live sessions is out of reach (OWASP asks 64 bits at
// least).
const tokenBytes = 32

// ErrNoSession is what SessionCookies.Token returns when a request has no
// session cookie, or one that is not a token this package made: the
// request is anonymous.
var ErrNoSession = errors.New("account: no session")

// NewToken returns a new session token: 256 bits from crypto/rand in
// base64url without padding (43 characters, safe in a cookie).
func NewToken() Token {
	b := make([]byte, tokenBytes)
	rand.Read(b) // never fails: it crashes the program rather than return too little
	return Token(base64.RawURLEncoding.EncodeToString(b))
}

// ParseToken returns s as a Token if it is one NewToken could have made,
// and ErrNoSession if not; so a cookie of any other shape is refused
// before it is hashed or looked up.
func ParseToken(s string) (Token, error) {
	if len(s) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return "", ErrNoSession
	}
	if _, err := base64.RawURLEncoding.Strict().DecodeString(s); err != nil {
		return "", ErrNoSession
	}
	return Token(s), nil
}

// SessionKey is the SHA-256 of a token: the only form of it the store
// keeps. A copy of the sessions table gives no one a cookie, and a hash
// without salt or slowness is enough because the token has 256 random bits
// (nothing to guess from a dictionary).
type SessionKey [sha256.Size]byte

// Key returns the key under which t's session is stored.
func (t Token) Key() SessionKey { return sha256.Sum256([]byte(t)) }

// String returns k in hexadecimal, for a text column.
func (k SessionKey) String() string { return hex.EncodeToString(k[:]) }

// DefaultSessionAge is how long a session cookie lasts when
// SessionCookies.MaxAge is zero.
const DefaultSessionAge = 30 * 24 * time.Hour

// Names of the session cookie. Over TLS it carries the __Host- prefix
// (RFC 6265bis): browsers accept such a cookie only with Secure, Path=/
// and no Domain, set over HTTPS, so no other site or subdomain can plant
// one.
const (
	CookieName       = "oq_session"
	SecureCookieName = "__Host-oq_session"
)

// SessionCookies builds the session cookies of a server. The zero value
// serves a server reached over plain HTTP (or by TLS it terminates
// itself: a request's TLS field says so) with DefaultSessionAge.
type SessionCookies struct {
	// BehindTLS says that the server is reached over HTTPS through a
	// proxy that terminates TLS, so every cookie is Secure although the
	// requests come in plain. (No header is trusted for this: a flag set
	// by the operator is.)
	BehindTLS bool
	MaxAge    time.Duration // 0: DefaultSessionAge
}

// Session returns the cookie that gives r's client the session t.
func (c SessionCookies) Session(r *http.Request, t Token) *http.Cookie {
	age := c.MaxAge
	if age <= 0 {
		age = DefaultSessionAge
	}
	return c.cookie(r, string(t), int(age/time.Second))
}

// Deletion returns the cookie that makes r's client forget its session
// (sign-out; the store forgets the session itself).
func (c SessionCookies) Deletion(r *http.Request) *http.Cookie { return c.cookie(r, "", -1) }

// Token returns the token of r's session cookie, or ErrNoSession.
func (c SessionCookies) Token(r *http.Request) (Token, error) {
	ck, err := r.Cookie(c.name(r))
	if err != nil {
		return "", ErrNoSession
	}
	return ParseToken(ck.Value)
}

func (c SessionCookies) secure(r *http.Request) bool { return c.BehindTLS || r.TLS != nil }

func (c SessionCookies) name(r *http.Request) string {
	if c.secure(r) {
		return SecureCookieName
	}
	return CookieName
}

// cookie is the one place a session cookie is made: HttpOnly (no script
// reads it), SameSite=Lax (not sent with another site's POST), Path=/,
// no Domain, Secure over TLS. maxAge < 0 deletes it.
func (c SessionCookies) cookie(r *http.Request, value string, maxAge int) *http.Cookie {
	return &http.Cookie{
		Name:     c.name(r),
		Value:    value,
		Path:     "/",
		MaxAge:   maxAge,
		Secure:   c.secure(r),
		HttpOnly: true,
		SameSite: http.SameSiteLaxMode,
	}
}
