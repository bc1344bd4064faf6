package e2e

import (
	"net/http/httptest"
	"testing"

	"oanquan/internal/server"
)

// startServer starts the real game server in-process, with the embedded
// page, for the length of the test.
func startServer(t *testing.T) string {
	s := server.New(server.Config{})
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		s.Close()
	})
	return ts.URL
}
