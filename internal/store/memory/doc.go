// Package memory is the store that keeps games in memory (type DB): for
// tests, and for a server that need not remember games across restarts
// (--db memory). It implements every interface of package store that all
// stores share (store.Full), with the contract every store passes
// (package storetest), and the write probe (store.Prober) that always
// succeeds; it has no notices between servers, as nothing is shared.
//
//	db := memory.New()
//	err := db.Create(ctx, store.Game{ID: "k3j9x2", Mode: "ai", Start: notation.Start})
package memory

import "oanquan/internal/store"

// The interfaces DB implements, checked by the compiler.
var (
	_ store.Full   = (*DB)(nil)
	_ store.Prober = (*DB)(nil)
)
