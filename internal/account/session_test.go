package account

import (
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestNewToken(t *testing.T) {
	seen := map[Token]bool{}
	for range 100 {
		tok := NewToken()
		b, err := base64.RawURLEncoding.DecodeString(string(tok))
		if err != nil || len(b) != 32 {
			t.Fatalf("NewToken() = %q: %d bytes, %v; want 32 bytes of base64url", string(tok), len(b), err)
		}
		if seen[tok] {
			t.Fatalf("NewToken() repeated %q", string(tok))
		}
		seen[tok] = true
		if got, err := ParseToken(string(tok)); got != tok || err != nil {
			t.Errorf("ParseToken(NewToken()) = %q, %v", string(got), err)
		}
	}
}

func TestParseTokenRefuses(t *testing.T) {
	good := string(NewToken())
	for _, s := range []string{
		"",
		good[:42],
		good + "A",
		good[:42] + "=",
		good[:42] + "+",               // base64, not base64url
		strings.Repeat("A", 42) + "B", // trailing bits not zero: not canonical
		strings.Repeat("A", 10000),    // never hashed
		"../../etc/passwd_______________________xxxx", // 43 characters
	} {
		if _, err := ParseToken(s); err != ErrNoSession {
			t.Errorf("ParseToken(%q) = %v, want ErrNoSession", s, err)
		}
	}
}

func TestSessionKey(t *testing.T) {
	tok := NewToken()
	want := sha256.Sum256([]byte(tok))
	if k := tok.Key(); k != SessionKey(want) {
		t.Errorf("Key() = %s, want the SHA-256 of the token", k)
	}
	if k := tok.Key().String(); len(k) != 64 || strings.Contains(k, string(tok)) {
		t.Errorf("Key().String() = %q, want 64 hex digits", k)
	}
}

func TestSessionCookies(t *testing.T) {
	plain := httptest.NewRequest("GET", "http://example.org/", nil)
	overTLS := httptest.NewRequest("GET", "https://example.org/", nil)
	overTLS.TLS = &tls.ConnectionState{}
	tok := NewToken()
	for _, tc := range []struct {
		name   string
		c      SessionCookies
		r      *http.Request
		want   string
		delete string
	}{
		{"plain", SessionCookies{}, plain,
			"oq_session=" + string(tok) + "; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax",
			"oq_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"},
		{"TLS", SessionCookies{}, overTLS,
			"__Host-oq_session=" + string(tok) + "; Path=/; Max-Age=2592000; HttpOnly; Secure; SameSite=Lax",
			"__Host-oq_session=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax"},
		{"behind TLS, a week", SessionCookies{BehindTLS: true, MaxAge: 7 * 24 * time.Hour}, plain,
			"__Host-oq_session=" + string(tok) + "; Path=/; Max-Age=604800; HttpOnly; Secure; SameSite=Lax",
			"__Host-oq_session=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax"},
	} {
		if got := tc.c.Session(tc.r, tok).String(); got != tc.want {
			t.Errorf("%s: Session = %s, want %s", tc.name, got, tc.want)
		}
		if got := tc.c.Deletion(tc.r).String(); got != tc.delete {
			t.Errorf("%s: Deletion = %s, want %s", tc.name, got, tc.delete)
		}
		// the cookie set is the cookie read back
		r := tc.r.Clone(tc.r.Context())
		r.AddCookie(tc.c.Session(tc.r, tok))
		if got, err := tc.c.Token(r); got != tok || err != nil {
			t.Errorf("%s: Token(request with the cookie) = %v; want the token", tc.name, err)
		}
	}
}

func TestSessionCookiesTokenRefuses(t *testing.T) {
	var c SessionCookies
	r := httptest.NewRequest("GET", "/", nil)
	if _, err := c.Token(r); err != ErrNoSession {
		t.Errorf("Token(no cookie) = %v, want ErrNoSession", err)
	}
	r.AddCookie(&http.Cookie{Name: CookieName, Value: "forged"})
	if _, err := c.Token(r); err != ErrNoSession {
		t.Errorf("Token(malformed cookie) = %v, want ErrNoSession", err)
	}
	// a plain cookie is not the session of a request over TLS
	r = httptest.NewRequest("GET", "https://example.org/", nil)
	r.TLS = &tls.ConnectionState{}
	r.AddCookie(&http.Cookie{Name: CookieName, Value: string(NewToken())})
	if _, err := c.Token(r); err != ErrNoSession {
		t.Errorf("Token(TLS request, cookie without __Host-) = %v, want ErrNoSession", err)
	}
}
