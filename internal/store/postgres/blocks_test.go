package postgres

import (
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestPostgresBlocks(t *testing.T) { storetest.Blocks(t, openPostgresTemp(t).(store.Blocks)) }
