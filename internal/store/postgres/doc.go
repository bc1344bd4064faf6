// Package postgres is the store in a PostgreSQL database that several
// servers share (type DB; pgx). Every change is one transaction that
// notifies the other servers (notify.go), which hear of it through
// Changes; the servers post who is connected to them on a presence board
// (presence.go). The schema is made or migrated when the store is opened
// (schema.go), under an advisory lock.
//
// It implements every interface of package store that all stores share
// (store.Full), with the contract every store passes (package storetest),
// and the optional ones: store.Notifier, store.PresenceBoard,
// store.LobbyNotifier and store.Prober.
//
//	db, err := postgres.Open(ctx, "postgres://oanquan:SECRET@db.example.org/oanquan", log)
//	defer db.Close()
//	notices := db.Changes(ctx)
package postgres

import "oanquan/internal/store"

// The interfaces DB implements, checked by the compiler.
var (
	_ store.Full          = (*DB)(nil)
	_ store.Notifier      = (*DB)(nil)
	_ store.PresenceBoard = (*DB)(nil)
	_ store.LobbyNotifier = (*DB)(nil)
	_ store.Prober        = (*DB)(nil)
)
