package memory

import (
	"oanquan/internal/store"
)

// The stores, checked by the compiler.
var (
	_ store.Store = (*DB)(nil)
)
