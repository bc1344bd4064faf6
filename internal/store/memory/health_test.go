package memory

import (
	"oanquan/internal/store"
	"testing"
)

// TestMemoryProbe: memory's probe succeeds.
func TestMemoryProbe(t *testing.T) {
	if err := store.Prober(New()).Probe(ctx); err != nil {
		t.Errorf("Probe() = %v", err)
	}
}
