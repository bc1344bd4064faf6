// Package store is the domain of saved games. A saved game is plain data
// — the settings a game was created with, the hashes of its seats'
// secrets and the moves played — from which a live game (package match)
// can be rebuilt; it holds no goroutines or connections, so a database
// can hold it as well as memory can. Beside games the stores keep
// accounts, sessions and ratings (Accounts), the lobby's seeks (Seeks),
// blocks, rate limits' buckets, reports, phrases and what profiles and
// leaderboards show.
//
// This package holds the types (Game, Seek, Clock, Result, …), the
// refusals (ErrNotFound, ErrConflict, …), the interfaces, and the rules
// every store applies alike (EndRating, the rating of a game; Expiry;
// the token buckets); it imports no database. The stores are adapters in
// subpackages, each one backend whole:
//
//   - memory: in memory, for tests and servers that keep nothing;
//   - sqlite: a SQLite file, for one server;
//   - postgres: a PostgreSQL database that several servers share, which
//     tell each other of changes.
//
// Each is a Full (every interface all three share), checked by the
// compiler, and passes the same contract tests (package storetest).
// Package stores picks one from the value of the server's --db flag:
//
//	s, where, err := stores.Open(ctx, *db, log) // "", "memory", a file or postgres://…
//	fmt.Fprintln(stderr, "games are kept in", where)
//	defer s.Close()
//	if n, ok := s.(store.Notifier); ok { notices := n.Changes(ctx); … }
//
// A change is written as a small transaction of its own — a new move
// row, the moves from some index removed (an undo), a level — and is
// durable when the call returns: the server answers and broadcasts a move
// only after Append has returned. Append refuses a move at an index
// already taken (ErrConflict), so that two servers sharing a database
// never both play a move at the same ply.
//
// The optional capabilities (Notifier, PresenceBoard, LobbyNotifier,
// Prober) are interfaces of their own: Full says why. The SQLite and
// PostgreSQL stores create and migrate their own schema, which is
// versioned: an older file or database is brought up to date when it is
// opened.
package store
