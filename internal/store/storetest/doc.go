// Package storetest is the contract every store passes: one suite of
// tests, run by each store's own tests against its backend (WTF Dial runs
// one suite on its in-memory and SQLite stores the same way):
//
//	func openMemory(t *testing.T, clock *storetest.Clock) store.Full {
//		m := New()
//		if clock != nil {
//			m.now = clock.Now // the store's clock, which only its own tests can set
//		}
//		return m
//	}
//
//	func TestMemoryContract(t *testing.T) { storetest.Contract(t, openMemory) }
//	func TestMemoryAccounts(t *testing.T) { storetest.Accounts(t, openMemory) }
//	func TestMemoryBlocks(t *testing.T)   { storetest.Blocks(t, openMemory(t, nil)) }
//
// Time-dependent behaviour (leases, phrases' gaps, Updated, the ends of
// games, presence) is tested on a Clock the test moves, never by
// sleeping: an opener gets one, or nil for the real time.
//
// Contract covers Store (games, moves, clocks, leases, expiry, and races
// between writers); the others one interface each. The helpers (Sample,
// MustCreate, NewSeek, CheckMigratedV6, …) are for the stores' own tests
// of what only they have, such as migrations. Only tests import it.
package storetest
