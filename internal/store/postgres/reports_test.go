package postgres

import (
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestPostgresReports(t *testing.T) { storetest.Reports(t, openPostgresTemp(t).(store.Reports)) }
