package server

import (
	"net/http"

	"oanquan/internal/limits"
)

// Limits are the per-client rate limits (package limits): token
// buckets, one per client address and kind of request. A request over
// its limit is answered 429 (code rate_limited) with Retry-After.
type Limits = limits.Limits

// Rate is a token bucket: PerMinute requests a minute on average, Burst
// at once. A zero PerMinute means no limit.
type Rate = limits.Rate

// DefaultLimits are the limits of the zero Limits: room for a class of
// children behind one school address.
var DefaultLimits = limits.Default

// DefaultMaxSockets is Config.MaxSockets's default: WebSockets open at
// once on the server, about 30 KiB of memory each.
const DefaultMaxSockets = 10000

// addSocketOf counts a WebSocket of r's client (Limiter.Client, an IPv6
// client by its /64), or refuses it before the upgrade.
func (s *Server) addSocketOf(r *http.Request) (done func(), err error) {
	return s.socketCaps.Add(s.limits.Client(r))
}
