package memory

import (
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestMemoryBuckets(t *testing.T) { storetest.Buckets(t, openMemory(t).(store.Buckets)) }
