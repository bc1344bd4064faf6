package memory

import (
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
	"testing"
)

func openMemory(t *testing.T) store.Store { return New() }

func TestMemoryContract(t *testing.T) { storetest.Contract(t, openMemory) }
