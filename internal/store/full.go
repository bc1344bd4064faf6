package store

import "context"

// Full is every interface that all three stores (memory, sqlite and
// postgres) implement: what a server takes when it is made, so that the
// compiler, not a type assertion at run time, says that the store has
// each feature, and a wrapper that embeds a Full keeps them all. Each
// store checks that it is one (var _ store.Full = (*DB)(nil)).
//
// The optional capabilities stay interfaces of their own, found by a type
// assertion, because a store may rightly lack them:
//
//   - Notifier, PresenceBoard and LobbyNotifier: notices between the
//     servers sharing one store (postgres only); a store used by one
//     server has nobody to tell.
//   - Prober: the write probe of a server's readiness. All three stores
//     have one today, but a store with nothing to write (or a wrapper
//     for tests) has no probe to make, and a server without one reports
//     the store as ready.
type Full interface {
	Store
	Accounts
	Seeks
	Blocks
	Buckets
	Leaderboards
	Phrases
	PlayerGames
	Profiles
	Reports
}

// Prober is implemented by stores that can check that they take changes
// now: Probe makes a small durable write (nothing a game sees) and
// returns its error. A server's readiness asks it. Optional (Full).
type Prober interface {
	Probe(ctx context.Context) error
}
