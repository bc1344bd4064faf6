package sqlite

import (
	"oanquan/internal/store/storetest"
	"testing"
)

func TestSQLitePlayerGames(t *testing.T) { storetest.PlayerGames(t, openSQLiteTemp(t)) }

func TestSQLiteRatedInPlay(t *testing.T) { storetest.RatedInPlay(t, openSQLiteTemp(t)) }
