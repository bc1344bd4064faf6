package memory

import (
	"oanquan/internal/store/storetest"
	"testing"
)

func TestMemoryPhrases(t *testing.T) { storetest.Phrases(t, openMemory(t)) }
