package postgres

import (
	"oanquan/internal/store/storetest"
	"testing"
)

func TestPostgresPlayerGames(t *testing.T) { storetest.PlayerGames(t, openPostgresTemp(t)) }

func TestPostgresRatedInPlay(t *testing.T) { storetest.RatedInPlay(t, openPostgresTemp(t)) }
