package memory

import (
	"oanquan/internal/store/storetest"
	"testing"
)

func TestMemoryProfiles(t *testing.T) { storetest.Profiles(t, openMemory(t)) }
