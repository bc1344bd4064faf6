package memory

import (
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestMemoryReports(t *testing.T) { storetest.Reports(t, openMemory(t).(store.Reports)) }
