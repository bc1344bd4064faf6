// Package sqlite is the store in a SQLite file, for one server (type DB;
// modernc.org/sqlite, pure Go). Changes go through one writer goroutine
// that commits all the changes queued at once in one transaction
// (writer.go); reads use a small pool of read-only connections. The file
// is checked when it is opened (check.go: one of ours, not damaged) and
// its schema made or migrated (schema.go).
//
// It implements every interface of package store that all stores share
// (store.Full), with the contract every store passes (package storetest),
// and the write probe (store.Prober); it has no notices between servers
// (one server a file).
//
//	db, err := sqlite.Open(ctx, "/var/lib/oanquan/oanquan.db", log)
//	defer db.Close()
package sqlite

import "oanquan/internal/store"

// The interfaces DB implements, checked by the compiler.
var (
	_ store.Full   = (*DB)(nil)
	_ store.Prober = (*DB)(nil)
)
