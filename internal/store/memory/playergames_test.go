package memory

import (
	"oanquan/internal/store/storetest"
	"testing"
)

func TestMemoryPlayerGames(t *testing.T) { storetest.PlayerGames(t, openMemory(t)) }

func TestMemoryRatedInPlay(t *testing.T) { storetest.RatedInPlay(t, openMemory(t)) }
