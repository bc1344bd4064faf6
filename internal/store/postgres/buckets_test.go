package postgres

import (
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestPostgresBuckets(t *testing.T) { storetest.Buckets(t, openPostgresTemp(t).(store.Buckets)) }
