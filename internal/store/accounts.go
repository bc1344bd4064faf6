package store

import (
	"context"
	"errors"
	"time"

	"oanquan/internal/rating"
)

// ErrNoAccount: no account (or no live session) has that key. A deleted
// account is no account.
var ErrNoAccount = errors.New("no such account")

// ErrUnrated: Accounts.EndRated of a game that is not rated, or whose
// seats are not both accounts' (one deleted, or never recorded): end it
// as a casual game.
var ErrUnrated = errors.New("the game is not rated")

// Account is a player's account (issue 21). The password is kept only
// as its argon2id hash (package account), the session tokens only as
// their SHA-256.
type Account struct {
	ID       string // chosen by the server, random
	Username string // as typed, in NFC
	Key      string // account.UsernameKey(Username): unique among the accounts not deleted
	Hash     string // the password's hash, in the PHC string format
	Created  time.Time
}

// Session is one signed-in browser of an account.
type Session struct {
	Key     []byte // the SHA-256 of the token; the token itself is never stored
	Account string
	Created time.Time
	Used    time.Time // when a request last came with it (to the hour: see Accounts.Session)
	Expires time.Time
}

// Ending is the change that ends a rated game, applied by Accounts.EndRated
// in one transaction with the new ratings: a move (Move not "", as
// AppendClocked) or a status (as SetStatus, or SetStatusAt when Flag).
type Ending struct {
	Index   int // the move's index; for a flag, the number of moves saved
	Move    string
	Waiting Waiting
	Clock   Clock
	From    string
	To      string
	Flag    bool
	Score0  float64   // seat 0's score: 1, 0.5 or 0
	At      time.Time // when the game ended, for the ratings
}

// RatingChange is what a rated game did to its players' ratings in its
// speed: each seat's rating before and after.
type RatingChange struct {
	Speed  string
	Before [2]rating.Rating
	After  [2]rating.Rating
}

// Accounts keeps players' accounts, sessions and ratings. The SQLite,
// Postgres and Memory stores implement it, with the same contract
// (package storetest). Methods that change something are durable when
// they return without error; a method that returns an error has changed
// nothing.
type Accounts interface {
	// CreateAccount saves a new account and its first session, in one
	// transaction. It returns an error wrapping ErrExists if another
	// account not deleted has a.Key, or a.ID is taken.
	CreateAccount(ctx context.Context, a Account, s Session) error
	// AccountByKey returns the account whose username has the key, or
	// ErrNoAccount.
	AccountByKey(ctx context.Context, key string) (Account, error)
	// AccountByID returns the account id, or ErrNoAccount.
	AccountByID(ctx context.Context, id string) (Account, error)
	// SetPassword replaces the hash of account id's password and ends
	// every session of the account but keep's (nil: all), in one
	// transaction.
	SetPassword(ctx context.Context, id, hash string, keep []byte) error
	// Rehash replaces account id's password hash old by new, the same
	// password hashed with other parameters, keeping its sessions; if
	// the hash is no longer old (the password changed meanwhile), it
	// does nothing.
	Rehash(ctx context.Context, id, old, new string) error
	// DeleteAccount deletes account id: its sessions, ratings and their
	// history go, so do its open seeks and tickets (in a store that
	// keeps seeks; those accepted stay), its username is free again, and
	// the games it played stay with their seats showing no name.
	DeleteAccount(ctx context.Context, id string) error
	// CreateSession saves a new session.
	CreateSession(ctx context.Context, s Session) error
	// Session returns the session whose key is given and its account,
	// or ErrNoAccount if there is none, it expired by now, or its
	// account was deleted. A session last used an hour or more before
	// now is marked used now.
	Session(ctx context.Context, key []byte, now time.Time) (Session, Account, error)
	// EndSession ends the session whose key is given; none is no error.
	EndSession(ctx context.Context, key []byte) error
	// EndSessions ends every session of account id.
	EndSessions(ctx context.Context, id string) error
	// ExpireSessions deletes the sessions expired at now, at most limit
	// of them, and returns how many.
	ExpireSessions(ctx context.Context, now time.Time, limit int) (int, error)
	// Ratings returns account id's ratings by speed name; a speed it
	// has no rated game in is absent.
	Ratings(ctx context.Context, id string) (map[string]rating.Rating, error)
	// Posters returns, for each of ids that is an account not deleted,
	// its username and its ratings (as Ratings), in one read: the
	// lobby's, for the posters of the seeks it lists and the players of
	// its sockets at once. Other ids are absent.
	Posters(ctx context.Context, ids []string) (map[string]Poster, error)
	// SeatAccount records that account plays seat (0 or 1) of game id.
	SeatAccount(ctx context.Context, id string, seat int, account string) error
	// EndRated applies e, the change that ends game id, and in the same
	// transaction rates the game (System.Game, from both ratings as they
	// stand, or new ones), records the ratings before and after in the
	// history, and saves the change with the game (Game.RatingChange).
	// The game must be rated and both its seats accounts' (else
	// ErrUnrated); if e does not fit the game (ErrConflict, ErrNotFound),
	// nothing is changed.
	EndRated(ctx context.Context, id string, e Ending) (RatingChange, error)
}
