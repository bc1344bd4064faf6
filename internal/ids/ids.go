// Package ids makes and checks the ids and secrets of games, seeks and
// seats: random ids beyond guessing, the bearer secrets that act for a
// seat or a seek, and their hashes, which are all the store keeps.
//
//	id, secret := ids.New(), ids.NewSecret()
//	saved := ids.Hash(secret) // compared in constant time with what is sent
//
// Every domain that names a game or a seek (the game, the lobby; next a
// tournament's pairings) uses these, so that an id made by one is valid
// for all.
package ids

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"strings"
)

// New returns a random id: twenty lower-case letters and digits, 96 bits
// from crypto/rand, beyond guessing. (Ids made before were ten, 48 bits;
// they are still Valid.)
func New() string {
	var b [12]byte
	rand.Read(b[:])
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
}

// Valid reports whether id could be an id, so that nonsense never
// reaches the store.
func Valid(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// SecretBytes is the size of a secret: 192 random bits.
const SecretBytes = 24

// NewSecret returns a new secret, as the client sends it back.
func NewSecret() string {
	b := make([]byte, SecretBytes)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ValidSecret reports whether v has the form NewSecret gives.
func ValidSecret(v string) bool {
	b, err := base64.RawURLEncoding.DecodeString(v)
	return err == nil && len(b) == SecretBytes
}

// Hash is what the store keeps of a secret. The secrets are random and
// long, so a plain hash is enough: there is nothing to guess.
func Hash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}
