package limits

import (
	"net/http/httptest"
	"testing"
)

// TestClientOf: IPv4 addresses are clients as they are; IPv6 ones by
// their /64.
func TestClientOf(t *testing.T) {
	for _, tt := range []struct{ addr, want string }{
		{"192.0.2.1", "192.0.2.1"},
		{"::ffff:192.0.2.1", "192.0.2.1"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"not an address", "not an address"},
		{"192.0.2.1:5555", "192.0.2.1"},                // a proxy's header may carry the port
		{"[2001:db8:1:2::9]:443", "2001:db8:1:2::/64"}, // IPv6 with a port
	} {
		if got := ClientOf(tt.addr); got != tt.want {
			t.Errorf("ClientOf(%q) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// TestClientFromProxyHeader: behind a proxy, the client is the last
// address of the header's last line, the one the proxy added; a line the
// client sent itself does not count.
func TestClientFromProxyHeader(t *testing.T) {
	l := New(Limits{ClientIPHeader: "X-Forwarded-For"}, nil)
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Add("X-Forwarded-For", "203.0.113.6")              // the client's own
	r.Header.Add("X-Forwarded-For", "198.51.100.1, 192.0.2.10") // the proxy's line
	if got := l.Client(r); got != "192.0.2.10" {
		t.Errorf("client = %q, want 192.0.2.10 (the proxy's last address)", got)
	}
}
