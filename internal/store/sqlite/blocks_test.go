package sqlite

import (
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestSQLiteBlocks(t *testing.T) { storetest.Blocks(t, openSQLiteTemp(t).(store.Blocks)) }
