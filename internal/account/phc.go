package account

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's costs and sizes. They are written into every
// encoded hash, so a hash made with older Params still verifies, and
// Verify says when to rehash it with the current ones.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes over the memory
	Threads uint8  // lanes; the Go implementation runs one goroutine per lane
	SaltLen uint32 // bytes of random salt
	KeyLen  uint32 // bytes of hash
}

// DefaultParams are this server's: OWASP's first argon2id configuration
// (m = 46 MiB, t = 1, p = 1), measured at 40 to 50 ms a hash on this
// project's 2-core server (BenchmarkHash; see the package doc). A lane
// keeps a hash on one core, so a sign-in never takes both.
var DefaultParams = Params{Memory: 46 * 1024, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// Bounds on the parameters of a hash read back from storage: a corrupt
// or planted hash must not make one sign-in take gigabytes or minutes.
const (
	maxMemory  = 1 << 20 // KiB: 1 GiB
	maxTime    = 16
	maxThreads = 16
	minSalt    = 8 // RFC 9106: 16 recommended, 8 the least
	maxSalt    = 64
	minKey     = 16
	maxKey     = 64
	maxEncoded = 256 // bytes: the longest the bounds above allow, with room
)

// The PHC string format ("$argon2id$v=19$m=47104,t=1,p=1$salt$hash"),
// base64 without padding as the format asks.
const phcPrefix = "$argon2id$v=19$"

var b64 = base64.RawStdEncoding.Strict()

func (p Params) check() error {
	switch {
	case p.Threads < 1 || p.Threads > maxThreads:
		return fmt.Errorf("p=%d; want 1 to %d", p.Threads, maxThreads)
	case p.Memory < 8*uint32(p.Threads) || p.Memory > maxMemory:
		return fmt.Errorf("m=%d; want %d to %d KiB", p.Memory, 8*uint32(p.Threads), maxMemory)
	case p.Time < 1 || p.Time > maxTime:
		return fmt.Errorf("t=%d; want 1 to %d", p.Time, maxTime)
	case p.SaltLen < minSalt || p.SaltLen > maxSalt:
		return fmt.Errorf("salt of %d bytes; want %d to %d", p.SaltLen, minSalt, maxSalt)
	case p.KeyLen < minKey || p.KeyLen > maxKey:
		return fmt.Errorf("hash of %d bytes; want %d to %d", p.KeyLen, minKey, maxKey)
	}
	return nil
}

// encoded is a parsed hash.
type encoded struct {
	params Params
	salt   []byte
	key    []byte
}

func (e encoded) String() string {
	return fmt.Sprintf("%sm=%d,t=%d,p=%d$%s$%s", phcPrefix, e.params.Memory, e.params.Time,
		e.params.Threads, b64.EncodeToString(e.salt), b64.EncodeToString(e.key))
}

// parseEncoded reads a hash in the PHC string format that String writes,
// and nothing else: argon2id, version 19 (0x13), the three parameters in
// that order in decimal without leading zeros, salt and hash in base64
// without padding, every number within the bounds above. So a stored
// hash and its parse are one to one (FuzzParseEncoded checks it).
func parseEncoded(s string) (encoded, error) {
	var e encoded
	if len(s) > maxEncoded {
		return e, fmt.Errorf("account: encoded hash of %d bytes; want at most %d", len(s), maxEncoded)
	}
	rest, ok := strings.CutPrefix(s, phcPrefix)
	if !ok {
		return e, fmt.Errorf("account: encoded hash does not begin with %q", phcPrefix)
	}
	parts := strings.Split(rest, "$")
	if len(parts) != 3 {
		return e, fmt.Errorf("account: encoded hash has %d fields after the version; want 3 (parameters, salt, hash)", len(parts))
	}
	var err error
	if e.params, err = parseParams(parts[0]); err != nil {
		return e, err
	}
	if e.salt, err = decode64(parts[1]); err != nil {
		return e, fmt.Errorf("account: encoded hash: salt: %v", err)
	}
	if e.key, err = decode64(parts[2]); err != nil {
		return e, fmt.Errorf("account: encoded hash: hash: %v", err)
	}
	e.params.SaltLen, e.params.KeyLen = uint32(len(e.salt)), uint32(len(e.key))
	if err := e.params.check(); err != nil {
		return e, fmt.Errorf("account: encoded hash: %v", err)
	}
	return e, nil
}

// decode64 decodes base64 without padding, refusing the line breaks
// that package base64 skips: a hash has one text.
func decode64(s string) ([]byte, error) {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return nil, fmt.Errorf("line break at %d", i)
	}
	return b64.DecodeString(s)
}

// parseParams reads "m=47104,t=1,p=1".
func parseParams(s string) (Params, error) {
	var p Params
	fields := strings.Split(s, ",")
	if len(fields) != 3 {
		return p, fmt.Errorf("account: encoded hash: parameters %q; want m=…,t=…,p=…", s)
	}
	var n [3]uint64
	for i, name := range []string{"m", "t", "p"} {
		v, ok := strings.CutPrefix(fields[i], name+"=")
		if !ok {
			return p, fmt.Errorf("account: encoded hash: parameter %d; want %s=", i+1, name)
		}
		var err error
		n[i], err = strconv.ParseUint(v, 10, 32)
		if err != nil || strconv.FormatUint(n[i], 10) != v {
			return p, fmt.Errorf("account: encoded hash: %s=%q; want a decimal number", name, v)
		}
	}
	if n[2] > maxThreads {
		return p, fmt.Errorf("account: encoded hash: p=%d; want 1 to %d", n[2], maxThreads)
	}
	return Params{Memory: uint32(n[0]), Time: uint32(n[1]), Threads: uint8(n[2])}, nil
}

// idKey is argon2id itself, the one place the package calls it.
func idKey(pw, salt []byte, p Params) []byte {
	return argon2.IDKey(pw, salt, p.Time, p.Memory, p.Threads, p.KeyLen)
}
