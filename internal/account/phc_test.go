package account

import (
	"strings"
	"testing"
)

func TestEncodedRoundTrip(t *testing.T) {
	e := encoded{
		params: Params{Memory: 47104, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32},
		salt:   []byte("saltsaltsaltsalt"),
		key:    []byte("0123456789abcdef0123456789abcdef"),
	}
	const want = "$argon2id$v=19$m=47104,t=1,p=1$c2FsdHNhbHRzYWx0c2FsdA$MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY"
	if got := e.String(); got != want {
		t.Fatalf("String() = %s, want %s", got, want)
	}
	back, err := parseEncoded(want)
	if err != nil || back.String() != want || back.params != e.params {
		t.Errorf("parseEncoded(%s) = %+v, %v; want %+v", want, back, err, e)
	}
}

func TestParseEncodedRefuses(t *testing.T) {
	const salt, key = "c2FsdHNhbHRzYWx0c2FsdA", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY"
	for _, tc := range []struct{ name, s string }{
		{"empty", ""},
		{"argon2i", "$argon2i$v=19$m=64,t=1,p=1$" + salt + "$" + key},
		{"version 16", "$argon2id$v=16$m=64,t=1,p=1$" + salt + "$" + key},
		{"no version", "$argon2id$m=64,t=1,p=1$" + salt + "$" + key},
		{"order", "$argon2id$v=19$t=1,m=64,p=1$" + salt + "$" + key},
		{"leading zero", "$argon2id$v=19$m=064,t=1,p=1$" + salt + "$" + key},
		{"plus sign", "$argon2id$v=19$m=+64,t=1,p=1$" + salt + "$" + key},
		{"4 parameters", "$argon2id$v=19$m=64,t=1,p=1,k=2$" + salt + "$" + key},
		{"m past 1 GiB", "$argon2id$v=19$m=1048577,t=1,p=1$" + salt + "$" + key},
		{"m past 32 bits", "$argon2id$v=19$m=4294967296,t=1,p=1$" + salt + "$" + key},
		{"m below 8p", "$argon2id$v=19$m=15,t=1,p=2$" + salt + "$" + key},
		{"t=0", "$argon2id$v=19$m=64,t=0,p=1$" + salt + "$" + key},
		{"t=17", "$argon2id$v=19$m=64,t=17,p=1$" + salt + "$" + key},
		{"p=0", "$argon2id$v=19$m=64,t=1,p=0$" + salt + "$" + key},
		{"p=256", "$argon2id$v=19$m=4096,t=1,p=256$" + salt + "$" + key},
		{"padded salt", "$argon2id$v=19$m=64,t=1,p=1$" + salt + "==$" + key},
		{"url alphabet", "$argon2id$v=19$m=64,t=1,p=1$" + salt + "$" + strings.ReplaceAll(key, "Y", "-")},
		{"line break", "$argon2id$v=19$m=64,t=1,p=1$c2Fsd\nHNhbHRzYWx0c2FsdA$" + key},
		{"short salt", "$argon2id$v=19$m=64,t=1,p=1$c2FsdA$" + key},
		{"short key", "$argon2id$v=19$m=64,t=1,p=1$" + salt + "$MDEyMzQ1Njc"},
		{"no key", "$argon2id$v=19$m=64,t=1,p=1$" + salt},
		{"extra field", "$argon2id$v=19$m=64,t=1,p=1$" + salt + "$" + key + "$"},
		{"too long", "$argon2id$v=19$m=64,t=1,p=1$" + strings.Repeat("A", 300) + "$" + key},
	} {
		if e, err := parseEncoded(tc.s); err == nil {
			t.Errorf("%s: parseEncoded(%q) = %+v, want an error", tc.name, tc.s, e)
		}
	}
}
