package memory

import (
	"testing"

	"oanquan/internal/store/storetest"
)

// BenchmarkAppend is BenchmarkAppend on memory.
func BenchmarkAppend(b *testing.B) {
	b.Run("memory", func(b *testing.B) { storetest.BenchAppend(b, New()) })
}
