package account

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"fmt"
)

// Hasher hashes and verifies passwords with argon2id, at most a fixed
// number at once. Each hash holds Params.Memory of memory for its whole
// time; the bound keeps a flood of sign-ins from taking more than
// concurrency × Memory (two at 46 MiB: 92 MiB), the rest waiting their
// turn or giving up with their context. Make one with NewHasher; it is
// safe for concurrent use.
type Hasher struct {
	params Params
	slots  chan struct{}
	// dummy is what an unknown username is verified against: a hash of
	// nothing, under the current Params, that no password matches.
	dummy encoded
	// derive is idKey; tests count its calls.
	derive func(pw, salt []byte, p Params) []byte
}

// NewHasher returns a Hasher that hashes with p and runs at most
// concurrency hashes at once (at least 1; the number of cores is the
// natural choice, as a hash with Threads 1 keeps one core busy).
func NewHasher(p Params, concurrency int) (*Hasher, error) {
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("account: NewHasher: %v", err)
	}
	if concurrency < 1 {
		return nil, fmt.Errorf("account: NewHasher: concurrency %d; want 1 or more", concurrency)
	}
	dummy := encoded{params: p, salt: make([]byte, p.SaltLen), key: make([]byte, p.KeyLen)}
	rand.Read(dummy.salt)
	rand.Read(dummy.key)
	return &Hasher{params: p, slots: make(chan struct{}, concurrency), dummy: dummy, derive: idKey}, nil
}

// Params returns the parameters h hashes with.
func (h *Hasher) Params() Params { return h.params }

// Hash returns the encoded argon2id hash of pw (in NFKC) with a new
// random salt, in the PHC string format, for storage. It fails when pw
// is longer than MaxPasswordBytes, or when ctx ends while it waits for
// its turn. It does not check pw against the rest of the policy:
// CheckPassword does.
func (h *Hasher) Hash(ctx context.Context, pw Password) (string, error) {
	if len(pw) > MaxPasswordBytes {
		return "", passwordErr("too_long", "is longer than %d bytes", MaxPasswordBytes)
	}
	e := encoded{params: h.params, salt: make([]byte, h.params.SaltLen)}
	rand.Read(e.salt)
	key, err := h.run(ctx, pw, e.salt, e.params)
	if err != nil {
		return "", err
	}
	e.key = key
	return e.String(), nil
}

// Verify reports whether pw matches the stored hash, and whether that
// hash should be replaced by h.Hash(pw) because it was made with other
// parameters (to be done once the sign-in succeeds). The comparison takes
// the same time wherever the keys differ.
//
// An empty stored hash stands for a username with no account: Verify
// then runs argon2id with the current parameters on a dummy hash and
// answers false, so a sign-in takes as long whether the name exists or
// not. Call it for every sign-in, found or not.
//
// Verify fails when ctx ends before its turn, or when the stored hash
// does not parse (a fault of storage, not of the player).
func (h *Hasher) Verify(ctx context.Context, stored string, pw Password) (ok, rehash bool, err error) {
	e := h.dummy
	if stored != "" {
		if e, err = parseEncoded(stored); err != nil {
			return false, false, err
		}
	}
	// No stored password is longer than MaxPasswordBytes (CheckPassword
	// refuses it), so a longer one is wrong; it is hashed cut short, to
	// bound the work and still take the usual time.
	tooLong := len(pw) > MaxPasswordBytes
	if tooLong {
		pw = pw[:MaxPasswordBytes]
	}
	key, err := h.run(ctx, pw, e.salt, e.params)
	if err != nil {
		return false, false, err
	}
	match := subtle.ConstantTimeCompare(key, e.key) == 1
	if stored == "" || tooLong {
		return false, false, nil
	}
	return match, match && e.params != h.params, nil
}

// run derives the key once a slot is free, or returns ctx's error.
func (h *Hasher) run(ctx context.Context, pw Password, salt []byte, p Params) ([]byte, error) {
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("account: waiting to hash: %w", ctx.Err())
	}
	defer func() { <-h.slots }()
	if err := ctx.Err(); err != nil { // both were ready: select picked at random
		return nil, fmt.Errorf("account: waiting to hash: %w", err)
	}
	return h.derive([]byte(pw.normalized()), salt, p), nil
}
