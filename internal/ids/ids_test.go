package ids

import "testing"

// TestIDs: a new id is twenty characters and Valid; the old ten are
// valid too; nonsense is not. A new secret is ValidSecret and hashes to
// 32 bytes; two are never the same.
func TestIDs(t *testing.T) {
	id := New()
	if len(id) != 20 || !Valid(id) {
		t.Errorf("New() = %q: %d characters, Valid %v; want 20, true", id, len(id), Valid(id))
	}
	for _, c := range []struct {
		id   string
		want bool
	}{{"abcdefghij", true}, {"", false}, {"ABC", false}, {"a/b", false}, {string(make([]byte, 65)), false}} {
		if got := Valid(c.id); got != c.want {
			t.Errorf("Valid(%q) = %v, want %v", c.id, got, c.want)
		}
	}
	a, b := NewSecret(), NewSecret()
	if a == b || !ValidSecret(a) || ValidSecret(a+"x") || len(Hash(a)) != 32 {
		t.Errorf("secrets %q, %q: valid %v, hash %d bytes", a, b, ValidSecret(a), len(Hash(a)))
	}
}
