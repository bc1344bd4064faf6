// Package players is what players do about one another and where they
// stand, kept in the store over every server sharing it: blocks (lila's
// modules/relation), reports (modules/report) and the leaderboards. It
// is a domain below the server: the server's HTTP operations find the
// caller and the player named, apply the client's rate limits, and call
// it.
//
//	p := players.New(st, log, lobby.Changed)
//	err := p.Block(ctx, me, other)
//
// Puzzles (a player's puzzle rating and history) will be a package
// beside it, with a narrow store of their own; a player's notifications
// a package the lobby's and the game's sockets tell.
//
// # Locks
//
// The leaderboards' cache's lock is a leaf, held in a method that does
// nothing else; nothing here holds a lock across the store.
package players

import (
	"context"
	"log/slog"

	"oanquan/internal/store"
)

// Store is what players keeps and reads in the store: the blocks, the
// reports, the leaderboards and the accounts they name. Every store of
// package store has it all.
type Store interface {
	store.Blocks
	store.Reports
	store.Leaderboards
	AccountByID(ctx context.Context, id string) (store.Account, error)
}

// Every store has it all: store.Full, which each of the memory, SQLite
// and PostgreSQL stores is (checked beside each), is a Store.
var _ Store = store.Full(nil)

// Players keeps what players do about one another. Make one with New;
// it is safe for concurrent use.
type Players struct {
	store   Store
	log     *slog.Logger
	changed func() // a block or unblock: the lobby's lists change
	leaders leaderCache
}

// New returns the players of st, logging to log (nil: discarded);
// blocked, if not nil, is called after each block or unblock (the
// lobby's lists leave out the seeks of a pair blocked either way).
func New(st Store, log *slog.Logger, blocked func()) *Players {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if blocked == nil {
		blocked = func() {}
	}
	return &Players{store: st, log: log, changed: blocked}
}
