package server

import (
	"net/http"
	"time"

	"oanquan/internal/ids"
)

// A lobby user's poster key (issue 21): a random id the browser keeps in
// an HttpOnly cookie, set by the first lobby call that lacks it, and
// sent with every later one. Its SHA-256 is saved with each seek the
// browser posts (store.Seek.Poster), so that an anonymous player, whom
// no account names, never sees nor accepts nor is paired with a seek of
// their own: the secret of one seek tells only that seek.

// posterCookie names the cookie; over TLS it is the __Host- form (no
// Domain, Path /, Secure), as the session's.
const (
	posterCookie       = "oq_poster"
	posterCookieSecure = "__Host-oq_poster"
	posterAge          = 365 * 24 * time.Hour
)

// posterCookieName returns the poster cookie's name for r.
func (s *Server) posterCookieName(r *http.Request) string {
	if s.cfg.Accounts.BehindTLS || r.TLS != nil {
		return posterCookieSecure
	}
	return posterCookie
}

// posterKey returns the SHA-256 of r's poster key, or nil for none (or a
// malformed one).
func (s *Server) posterKey(r *http.Request) []byte {
	c, err := r.Cookie(s.posterCookieName(r))
	if err != nil || !validSecret(c.Value) {
		return nil
	}
	return hashSecret(c.Value)
}

// ensurePosterKey returns the SHA-256 of r's poster key, giving r's
// browser a new one (the cookie, on w) if it has none.
func (s *Server) ensurePosterKey(w http.ResponseWriter, r *http.Request) []byte {
	if k := s.posterKey(r); k != nil {
		return k
	}
	key := newSecret()
	if w != nil {
		secure := s.cfg.Accounts.BehindTLS || r.TLS != nil
		http.SetCookie(w, &http.Cookie{Name: s.posterCookieName(r), Value: key, Path: "/", MaxAge: int(posterAge / time.Second),
			Secure: secure, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	}
	return hashSecret(key)
}

// validSecret reports whether v has the form newSecret gives.
func validSecret(v string) bool { return ids.ValidSecret(v) }
