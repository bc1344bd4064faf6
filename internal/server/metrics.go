package server

import (
	"net/http"

	"oanquan/internal/ops"
)

// newMetrics returns the server's metrics (package ops), whose gauges
// read its live games, WebSockets and searches.
func newMetrics(s *Server) *ops.Metrics {
	return ops.NewMetrics(ops.Gauges{
		Live:    func() int { return len(s.liveGames()) },
		Sockets: s.socketCaps.Count,
		Queued:  s.pool.Queued,
		Busy:    s.pool.Busy,
	})
}

// MetricsHandler serves the server's metrics in Prometheus's text
// format. Serve it on an address of its own, for the monitoring only
// (oanquan --metrics-addr): it is not part of the API.
func (s *Server) MetricsHandler() http.Handler {
	return s.metrics.Handler()
}

// instrument counts h's answers under route, and times them unless the
// route is a WebSocket's (a game's, the lobby's).
func (s *Server) instrument(route string, h http.Handler) http.Handler {
	timed := route != "ws" && route != "lobby" // the WebSockets live on
	return s.metrics.Instrument(route, timed, h)
}
