package memory

import (
	"oanquan/internal/store/storetest"
	"testing"
)

func TestMemorySeeks(t *testing.T) { storetest.Seeks(t, openMemory) }
