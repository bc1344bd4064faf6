package account

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testParams keep the tests fast; the bounds they test do not depend on
// the memory.
var testParams = Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

func newTestHasher(t *testing.T, p Params, n int) *Hasher {
	t.Helper()
	h, err := NewHasher(p, n)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestVerifyReference checks hashes made by the reference implementation
// of Argon2 (Debian's argon2 command, from the PHC's code):
//
//	echo -n password | argon2 somesalt12345678 -id -t 1 -k 256 -p 1 -l 32 -e
func TestVerifyReference(t *testing.T) {
	h := newTestHasher(t, DefaultParams, 1)
	for _, tc := range []struct{ stored, pw string }{
		{"$argon2id$v=19$m=256,t=1,p=1$c29tZXNhbHQxMjM0NTY3OA$Kc1EwykBFvEiuPkFEaHDoea4g5YWCkwpav3M4GyyJME", "password"},
		{"$argon2id$v=19$m=64,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$sv23Ve4i9YCNro5AQNIoIWJq3Zq+SjJLPw3vn+B+RBc", "Nguyễn mật khẩu"},
		// the same, typed with combining marks: NFKC makes it one password
		{"$argon2id$v=19$m=64,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$sv23Ve4i9YCNro5AQNIoIWJq3Zq+SjJLPw3vn+B+RBc", "Nguye\u0302\u0303n ma\u0302\u0323t kha\u0302\u0309u"},
	} {
		ok, rehash, err := h.Verify(context.Background(), tc.stored, Password(tc.pw))
		if !ok || !rehash || err != nil {
			t.Errorf("Verify(%s, %+q) = %v, %v, %v; want true, true (other params), nil", tc.stored, tc.pw, ok, rehash, err)
		}
		ok, _, err = h.Verify(context.Background(), tc.stored, Password(tc.pw+"x"))
		if ok || err != nil {
			t.Errorf("Verify(%s, wrong) = %v, %v; want false, nil", tc.stored, ok, err)
		}
	}
}

func TestHashVerify(t *testing.T) {
	h := newTestHasher(t, testParams, 2)
	ctx := context.Background()
	a, err := h.Hash(ctx, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := h.Hash(ctx, "correct horse")
	if a == b {
		t.Errorf("two hashes of one password are equal (%s): the salt is not random", a)
	}
	if want := "$argon2id$v=19$m=64,t=1,p=1$"; !strings.HasPrefix(a, want) {
		t.Errorf("Hash = %s, want it to begin %s", a, want)
	}
	for _, tc := range []struct {
		pw     Password
		ok     bool
		rehash bool
	}{
		{"correct horse", true, false},
		{"correct horsE", false, false},
		{"", false, false},
	} {
		ok, rehash, err := h.Verify(ctx, a, tc.pw)
		if ok != tc.ok || rehash != tc.rehash || err != nil {
			t.Errorf("Verify(hash, %q) = %v, %v, %v; want %v, %v, nil", string(tc.pw), ok, rehash, err, tc.ok, tc.rehash)
		}
	}
}

// TestVerifyTooLong: a password past MaxPasswordBytes never matches, even
// when it begins with the right one, and is hashed cut to the bound.
func TestVerifyTooLong(t *testing.T) {
	ctx := context.Background()
	h := newTestHasher(t, testParams, 1)
	right := Password(strings.Repeat("x7", MaxPasswordBytes/2))
	stored, err := h.Hash(ctx, right)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Hash(ctx, right+"!"); !errors.Is(err, ErrInvalid) {
		t.Errorf("Hash(%d bytes) = %v, want ErrInvalid", len(right)+1, err)
	}
	longest := 0
	h.derive = func(pw, salt []byte, p Params) []byte {
		longest = max(longest, len(pw))
		return idKey(pw, salt, p)
	}
	for _, stored := range []string{stored, ""} {
		if ok, _, err := h.Verify(ctx, stored, right+Password(strings.Repeat("!", 1<<20))); ok || err != nil {
			t.Errorf("Verify(%.20q, right password and 1 MiB more) = %v, %v; want false, nil", stored, ok, err)
		}
	}
	if longest > MaxPasswordBytes {
		t.Errorf("argon2id was given %d bytes, want at most %d", longest, MaxPasswordBytes)
	}
}

// TestRehash: a hash made with older parameters verifies, and is due
// for a rehash only once the password is known right.
func TestRehash(t *testing.T) {
	ctx := context.Background()
	old := newTestHasher(t, testParams, 1)
	stored, _ := old.Hash(ctx, "correct horse")
	for _, p := range []Params{
		{Memory: 128, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32},
		{Memory: 64, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32},
		{Memory: 64, Time: 1, Threads: 2, SaltLen: 16, KeyLen: 32},
		{Memory: 64, Time: 1, Threads: 1, SaltLen: 32, KeyLen: 32},
		{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 64},
	} {
		h := newTestHasher(t, p, 1)
		if ok, rehash, err := h.Verify(ctx, stored, "correct horse"); !ok || !rehash || err != nil {
			t.Errorf("%+v: Verify(old hash, right) = %v, %v, %v; want true, true, nil", p, ok, rehash, err)
		}
		if ok, rehash, err := h.Verify(ctx, stored, "wrong horse"); ok || rehash || err != nil {
			t.Errorf("%+v: Verify(old hash, wrong) = %v, %v, %v; want false, false, nil", p, ok, rehash, err)
		}
	}
}

// TestUnknownUserRunsTheSameHash: the sign-in of a name with no account
// derives one argon2id key with the current parameters and salt size,
// exactly as a sign-in of a real account does, and never succeeds.
func TestUnknownUserRunsTheSameHash(t *testing.T) {
	ctx := context.Background()
	h := newTestHasher(t, testParams, 1)
	stored, _ := h.Hash(ctx, "correct horse")
	type call struct {
		p        Params
		pw, salt int
	}
	var calls []call
	h.derive = func(pw, salt []byte, p Params) []byte {
		calls = append(calls, call{p, len(pw), len(salt)})
		return idKey(pw, salt, p)
	}
	for _, pw := range []Password{"correct horse", "wrong horse"} {
		calls = nil
		if ok, _, err := h.Verify(ctx, stored, pw); err != nil {
			t.Fatalf("Verify(known, %q) = %v, %v", string(pw), ok, err)
		}
		known := calls
		calls = nil
		if ok, rehash, err := h.Verify(ctx, "", pw); ok || rehash || err != nil {
			t.Errorf("Verify(unknown, %q) = %v, %v, %v; want false, false, nil", string(pw), ok, rehash, err)
		}
		if len(calls) != 1 || len(known) != 1 || calls[0] != known[0] {
			t.Errorf("argon2id calls: unknown name %+v, known name %+v; want one each, alike", calls, known)
		}
	}
}

// TestConcurrencyBound: no more than n hashes run at once, however many
// are asked for.
func TestConcurrencyBound(t *testing.T) {
	const n = 2
	h := newTestHasher(t, testParams, n)
	var running, most atomic.Int32
	h.derive = func(pw, salt []byte, p Params) []byte {
		r := running.Add(1)
		for m := most.Load(); r > m && !most.CompareAndSwap(m, r); m = most.Load() {
		}
		time.Sleep(time.Millisecond)
		running.Add(-1)
		return idKey(pw, salt, p)
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if _, err := h.Hash(context.Background(), "correct horse"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if m := most.Load(); m < 1 || m > n {
		t.Errorf("at most %d hashes ran at once; want 1 to %d", m, n)
	}
}

// TestWaitCancelled: a hash waiting for its turn gives up when its
// context ends, and never runs.
func TestWaitCancelled(t *testing.T) {
	h := newTestHasher(t, testParams, 1)
	inside, release := make(chan bool), make(chan bool)
	var calls atomic.Int32
	h.derive = func(pw, salt []byte, p Params) []byte {
		if calls.Add(1) == 1 {
			inside <- true
			<-release
		}
		return idKey(pw, salt, p)
	}
	done := make(chan error)
	go func() { _, err := h.Hash(context.Background(), "first one"); done <- err }()
	<-inside
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, _, err := h.Verify(ctx, "", "second one")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Verify while the one slot is taken = %v, want context.DeadlineExceeded", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Errorf("first Hash = %v", err)
	}
	// With a slot free and the context already over, select could take
	// either; the hash must not run.
	cancel()
	for range 20 {
		if _, err := h.Hash(ctx, "late"); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Hash(ended context) = %v, want context.DeadlineExceeded", err)
		}
	}
	if c := calls.Load(); c != 1 {
		t.Errorf("argon2id ran %d times, want 1 (the cancelled ones must not run)", c)
	}
}

func TestVerifyRefusesBadStored(t *testing.T) {
	h := newTestHasher(t, testParams, 1)
	for _, stored := range []string{
		"plain text",
		"$argon2i$v=19$m=64,t=1,p=1$c2FsdHNhbHRzYWx0c2FsdA$sv23Ve4i9YCNro5AQNIoIWJq3Zq+SjJLPw3vn+B+RBc",
		"$argon2id$v=19$m=4194304,t=1,p=1$c2FsdHNhbHRzYWx0c2FsdA$sv23Ve4i9YCNro5AQNIoIWJq3Zq+SjJLPw3vn+B+RBc",
	} {
		if ok, _, err := h.Verify(context.Background(), stored, "password"); ok || err == nil {
			t.Errorf("Verify(%q) = %v, %v; want false and an error", stored, ok, err)
		}
	}
}

func TestNewHasherRefuses(t *testing.T) {
	for _, tc := range []struct {
		p Params
		n int
	}{
		{DefaultParams, 0},
		{Params{Memory: 64, Time: 0, Threads: 1, SaltLen: 16, KeyLen: 32}, 1},
		{Params{Memory: 4, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1},
		{Params{Memory: 64, Time: 1, Threads: 0, SaltLen: 16, KeyLen: 32}, 1},
		{Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 4, KeyLen: 32}, 1},
		{Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 8}, 1},
		{Params{Memory: 2 << 20, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1},
	} {
		if _, err := NewHasher(tc.p, tc.n); err == nil {
			t.Errorf("NewHasher(%+v, %d) succeeded, want an error", tc.p, tc.n)
		}
	}
}

// BenchmarkHash times one hash with DefaultParams (the figure the package
// doc gives) and with the other settings considered. Keep it short on a
// shared machine: -benchtime 20x.
func BenchmarkHash(b *testing.B) {
	for _, bc := range []struct {
		name string
		p    Params
	}{
		{"m=46MiB,t=1 (default)", DefaultParams},
		{"m=19MiB,t=2", Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}},
		{"m=64MiB,t=3", Params{Memory: 64 * 1024, Time: 3, Threads: 1, SaltLen: 16, KeyLen: 32}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			h, err := NewHasher(bc.p, 1)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				h.Hash(context.Background(), "correct horse battery staple")
			}
		})
	}
}

// BenchmarkVerify compares a sign-in of a known and an unknown name: the
// two should take the same time.
func BenchmarkVerify(b *testing.B) {
	h, _ := NewHasher(DefaultParams, 1)
	stored, _ := h.Hash(context.Background(), "correct horse battery staple")
	for _, bc := range []struct{ name, stored string }{{"known", stored}, {"unknown", ""}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				h.Verify(context.Background(), bc.stored, "wrong horse battery staple")
			}
		})
	}
}
