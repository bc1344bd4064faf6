package sqlite

import (
	"oanquan/internal/store/storetest"
	"testing"
)

func TestSQLitePhrases(t *testing.T) { storetest.Phrases(t, openSQLiteTemp(t)) }
