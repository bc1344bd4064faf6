package server

import "oanquan/internal/store"

// Store is what the server keeps in its store: the games, and every
// feature that the memory, SQLite and PostgreSQL stores all have
// (store.Full: accounts, limits' buckets, blocks, leaderboards, phrases,
// players' games, profiles, reports and the lobby's seeks). Each feature
// is a method set the compiler checks for every store handed in (each
// adapter checks that it is a store.Full), so that a store wrapped in
// another type keeps them all, or does not compile: none is found, or
// silently lost, by a type assertion at run time.
//
// Only what a store may truly lack is still asked for by assertion:
// the notices between servers (store.Notifier, store.LobbyNotifier),
// the presence board (store.PresenceBoard) and the write probe
// (store.Prober).
type Store = store.Full
