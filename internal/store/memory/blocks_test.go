package memory

import (
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestMemoryBlocks(t *testing.T) { storetest.Blocks(t, openMemory(t).(store.Blocks)) }
