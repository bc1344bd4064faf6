package sqlite

import (
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestSQLiteBuckets(t *testing.T) { storetest.Buckets(t, openSQLiteTemp(t).(store.Buckets)) }
