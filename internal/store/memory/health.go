package memory

import (
	"context"
)

// Probe always succeeds: memory takes every change.
func (m *DB) Probe(ctx context.Context) error { return ctx.Err() }
