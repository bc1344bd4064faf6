package server

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"oanquan/internal/api"
	"oanquan/internal/ids"
	"oanquan/rules"
)

// newSecret returns a new seat secret (ids.NewSecret).
func newSecret() string { return ids.NewSecret() }

// hashSecret is what the store keeps of a secret (ids.Hash).
func hashSecret(secret string) []byte { return ids.Hash(secret) }

// bearer returns the secret in r's Authorization header, or "".
func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	const prefix = "bearer "
	if len(h) <= len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return ""
	}
	return strings.TrimSpace(h[len(prefix):])
}

// seatsOf returns the seats of g that r's secret acts for.
func (g *liveGame) seatsOf(r *http.Request) []rules.Player {
	return g.seatsOfSecret(bearer(r))
}

// seatsOfSecret returns the seats of g that secret acts for.
func (g *liveGame) seatsOfSecret(secret string) []rules.Player {
	if secret == "" {
		return nil
	}
	h := hashSecret(secret)
	var out []rules.Player
	for p, want := range g.hashes() {
		// Constant time, though what is compared is a hash of a random
		// secret: no timing may tell how much of it was right.
		if want != nil && subtle.ConstantTimeCompare(h, want) == 1 {
			out = append(out, rules.Player(p))
		}
	}
	return out
}

// authorize refuses r unless its secret acts for one of g's seats.
func (g *liveGame) authorize(r *http.Request) error {
	if len(g.seatsOf(r)) > 0 {
		return nil
	}
	if bearer(r) == "" {
		return api.Fail(api.ErrSeat, "this request acts for a player: send the secret given when the game was created, as Authorization: Bearer SECRET")
	}
	return api.Fail(api.ErrSeat, "the secret sent is not that of a player of this game")
}
