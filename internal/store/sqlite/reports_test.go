package sqlite

import (
	"oanquan/internal/store"
	"oanquan/internal/store/storetest"
	"testing"
)

func TestSQLiteReports(t *testing.T) { storetest.Reports(t, openSQLiteTemp(t).(store.Reports)) }
