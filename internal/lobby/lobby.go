// Package lobby is the lobby of strangers (issue 21, docs/API.md
// "Lobby"): the seeks anyone may accept and quick pairing's tickets,
// kept in the store so that every server sharing it shows the same
// lobby; the lobby's WebSocket (its lists, the holds of seeks, "paired");
// the pairing of waiting tickets; and the one place where a pairing
// becomes a game (PairedGame: a seek accepted, two tickets paired; next,
// a tournament's pairing).
//
// It is a domain below the server, as lila's modules/lobby and
// modules/pool: the server's HTTP operations (post, list, accept a seek,
// join the pool) and its socket handler call it; it makes games through
// Games and keeps nothing but through its Store, a narrow interface of
// the store's methods that every store has, checked by the compiler.
//
//	l := lobby.New(lobby.Config{Store: st, Games: games, Limits: lim, Context: ctx})
//	go l.Run()
//	m, err := l.PairedGame(ctx, p) // a pairing the store has made
//
// Tournaments (an arena's pairings, lila's modules/tournament) will be a
// package beside it that pairs through PairedGame; notifications (a
// challenge, a tournament starting) a package the lobby's socket and the
// game's tell.
//
// # Locks
//
// Every lock is taken with defer, in a method that does nothing else
// under it. Lobby.mu (its sockets, their holds and the seeks being read
// for a notice) and sock.listMu (a socket's next list) are leaves:
// nothing is taken under them, and neither is held across a store call,
// a game's making or a write to a socket.
package lobby

import (
	"context"
	"log/slog"
	"time"

	"oanquan/internal/limits"
	"oanquan/internal/match"
	"oanquan/internal/store"
)

// Store is what the lobby keeps and reads in the store: the seeks, the
// games their pairings made (whether made yet), the sessions of its
// sockets, the posters' accounts and ratings, and the blocks. Every
// store of package store has it all.
type Store interface {
	store.Seeks
	Get(ctx context.Context, id string) (store.Game, error)
	Session(ctx context.Context, key []byte, now time.Time) (store.Session, store.Account, error)
	Posters(ctx context.Context, ids []string) (map[string]store.Poster, error)
	BlockedAmong(ctx context.Context, accounts []string) (map[string]map[string]bool, error)
	BlockedWith(ctx context.Context, account string) (map[string]bool, error)
}

// Every store has it all: store.Full, which each of the memory, SQLite
// and PostgreSQL stores is (checked beside each), is a Store.
var _ Store = store.Full(nil)

// Games makes the games of pairings: the server's live games.
type Games interface {
	// NewMatch saves a new game made from cfg, named id, whose seats'
	// secrets have the hashes seats and are played by accounts ("" for
	// none), and makes it live.
	NewMatch(ctx context.Context, id string, cfg match.Config, seats [2][]byte, accounts [2]string) (*match.Match, error)
}

// Config is what a Lobby is made with.
type Config struct {
	Store  Store
	Games  Games
	Limits *limits.Limiter // the limits of holds naming no seek of the sender's
	Log    *slog.Logger    // nil: discarded
	// Context ends the lobby's work (Run, its sockets): the server's
	// life. nil: never.
	Context context.Context
}

// The lobby's bounds.
const (
	// SeekTTL is how long an open seek stays, at most.
	SeekTTL = 30 * time.Minute
	// SeekKeep is how long an accepted seek stays, for its poster to
	// learn of the game.
	SeekKeep = 10 * time.Minute
)
