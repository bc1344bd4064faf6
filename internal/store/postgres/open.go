package postgres

import (
	"oanquan/internal/store"
)

// The stores, checked by the compiler.
var (
	_ store.Store         = (*DB)(nil)
	_ store.Notifier      = (*DB)(nil)
	_ store.PresenceBoard = (*DB)(nil)
)
