package store

import (
	"context"
)

// Prober is implemented by stores that can check that they take changes
// now: Probe makes a small durable write (nothing a game sees) and
// returns its error. A server's readiness asks it.
type Prober interface {
	Probe(ctx context.Context) error
}
