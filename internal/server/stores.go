package server

import "oanquan/internal/store"

// Store is what the server keeps in its store: the games, and every
// feature that the memory, SQLite and PostgreSQL stores all have
// (accounts, limits' buckets, blocks, leaderboards, phrases, players'
// games, profiles, reports and the lobby's seeks). Each feature is a
// method set the compiler checks for every store handed in, so that a
// store wrapped in another type keeps them all, or does not compile:
// none is found, or silently lost, by a type assertion at run time.
//
// Only what a store may truly lack is still asked for by assertion:
// the notices between servers (store.Notifier, store.LobbyNotifier),
// the presence board (store.PresenceBoard) and the write probe
// (store.Prober).
type Store interface {
	store.Store
	store.Accounts
	store.Buckets
	store.Blocks
	store.Leaderboards
	store.Phrases
	store.PlayerGames
	store.Profiles
	store.Reports
	store.Seeks
}

// Every store of package store is a Store.
var (
	_ Store = (*store.Memory)(nil)
	_ Store = (*store.SQLite)(nil)
	_ Store = (*store.Postgres)(nil)
)

// AsStore returns st as a Store, or false if it lacks a feature of one:
// for a store opened by name (store.Open), whose type says only
// store.Store. Every store of package store is one.
func AsStore(st store.Store) (Store, bool) {
	full, ok := st.(Store)
	return full, ok
}
