package memory

import (
	"oanquan/internal/store/storetest"
	"testing"
)

// The accounts' contract, run against every store that keeps accounts.

func TestMemoryAccounts(t *testing.T) { storetest.Accounts(t, openMemory) }
