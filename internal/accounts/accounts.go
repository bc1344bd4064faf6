// Package accounts is the players' accounts (issue 21), kept in the
// store over every server sharing it: sign-up, sign-in and sign-out, the
// sessions and their cookies, the changes of a password, the deletion of
// an account, a player's profile (ratings, results, the history of its
// ratings, its games) and the ratings a rated game's end applies. The
// rules of names, passwords, hashes and cookies are package account's;
// the accounts, sessions and ratings are kept by the store
// (store.Accounts). It is a domain below the server: the server routes
// the requests (package api's AccountHost), applies the client's rate
// limits on reads, and tells the lobby and the games what accounts do
// through the functions of Config.
//
//	a := accounts.New(accounts.Config{Store: st, Limits: lim, Log: log})
//	p, err := a.SignIn(ctx, w, r, "Nam", password)
//
// A session travels in an HttpOnly, SameSite=Lax cookie; a
// state-changing request that carries it from another site is refused
// by the cross-origin check every route of the server is behind, so no
// other site's form or script acts with it.
//
// Future domains go beside it, not in it: a player's puzzle rating and
// history in a puzzles package with a store of its own, tournaments'
// standings in a tournaments package, a player's notifications in a
// notifications package the sockets tell. Each reads an account through
// the store (store.Accounts), not through this package.
//
// # Locks
//
// None: the hasher bounds its own work (at most one hash a core at
// once), and nothing here holds a lock across the store.
package accounts

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"runtime"
	"sync/atomic"
	"time"

	"oanquan/internal/account"
	"oanquan/internal/api"
	"oanquan/internal/limits"
	"oanquan/internal/store"
)

// Store is what accounts keeps and reads in the store: the accounts,
// their sessions and ratings, their games and results, and the saved
// games those name. Every store of package store has it all.
type Store interface {
	store.Accounts
	store.PlayerGames
	store.Profiles
	Get(ctx context.Context, id string) (store.Game, error)
}

// Every store has it all: store.Full, which each of the memory, SQLite
// and PostgreSQL stores is (checked beside each), is a Store.
var _ Store = store.Full(nil)

// Options are how a server keeps accounts (the server's
// Config.Accounts).
type Options struct {
	// BehindTLS says the server is reached over HTTPS through a proxy
	// that terminates TLS: session cookies are Secure (and named with
	// the __Host- prefix) although requests come in plain.
	BehindTLS bool
	// Hashing are the argon2id parameters of new hashes; zero:
	// account.DefaultParams. (Tests lower them.)
	Hashing account.Params
	// SessionAge is how long a session lasts; 0: account.DefaultSessionAge.
	SessionAge time.Duration
}

// Config is what Accounts is made with. Store and Limits are required;
// the functions may be nil (nothing to tell).
type Config struct {
	Options
	Store  Store
	Limits *limits.Limiter // the wrong passwords' limits, shared through the store
	Log    *slog.Logger    // nil: discarded
	// Ended is told that the sessions of account for which ended
	// reports true have ended (the lobby closes their sockets).
	Ended func(account string, ended func(key []byte) bool)
	// Deleted is called after an account is deleted (its open seeks
	// went with it: the lobby's lists change).
	Deleted func()
	// Resign resigns every rated game account plays that goes on, before
	// the account is deleted; an error refuses the deletion.
	Resign func(ctx context.Context, account string) error
	// Fill works out and records the results of account's games that
	// ended before the store kept results (which takes replaying them:
	// the games' domain).
	Fill func(ctx context.Context, account string) error
}

// Accounts keeps the players' accounts. Make one with New; it is safe
// for concurrent use.
type Accounts struct {
	cfg     Config
	store   Store
	log     *slog.Logger
	hasher  *account.Hasher
	cookies account.SessionCookies
	// verifies counts the passwords checked (each one argon2id run, on
	// the account's hash or the dummy one), for tests.
	verifies atomic.Int64
}

// New returns the accounts of cfg.Store. It panics if cfg.Hashing are
// not parameters argon2id takes (a fault of the program's settings).
func New(cfg Config) *Accounts {
	p := cfg.Hashing
	if p == (account.Params{}) {
		p = account.DefaultParams
	}
	h, err := account.NewHasher(p, runtime.NumCPU())
	if err != nil {
		panic("server: argon2id parameters: " + err.Error()) // a fault of the program's settings
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Ended == nil {
		cfg.Ended = func(string, func([]byte) bool) {}
	}
	if cfg.Deleted == nil {
		cfg.Deleted = func() {}
	}
	if cfg.Resign == nil {
		cfg.Resign = func(context.Context, string) error { return nil }
	}
	if cfg.Fill == nil {
		cfg.Fill = func(context.Context, string) error { return nil }
	}
	return &Accounts{cfg: cfg, store: cfg.Store, log: cfg.Log, hasher: h, cookies: account.SessionCookies{BehindTLS: cfg.BehindTLS, MaxAge: cfg.SessionAge}}
}

// Verifies returns how many passwords were checked so far (each one
// argon2id run, on an account's hash or the dummy one).
func (k *Accounts) Verifies() int64 { return k.verifies.Load() }

func (k *Accounts) sessionAge() time.Duration {
	if k.cookies.MaxAge > 0 {
		return k.cookies.MaxAge
	}
	return account.DefaultSessionAge
}

// Session returns the session of request r and its account, or
// api.ErrSignedOut.
func (k *Accounts) Session(ctx context.Context, r *http.Request) (store.Session, store.Account, error) {
	tok, err := k.cookies.Token(r)
	if err != nil {
		return store.Session{}, store.Account{}, api.ErrSignedOut
	}
	key := tok.Key()
	se, a, err := k.store.Session(ctx, key[:], time.Now())
	if errors.Is(err, store.ErrNoAccount) {
		return se, a, api.ErrSignedOut
	}
	return se, a, err
}

// newSession returns a new token and the session it keys.
func (k *Accounts) newSession(accountID string, now time.Time) (account.Token, store.Session) {
	tok := account.NewToken()
	key := tok.Key()
	return tok, store.Session{Key: key[:], Account: accountID, Created: now, Used: now, Expires: now.Add(k.sessionAge())}
}

// ExpireSessions deletes the expired sessions, batch at a time, until
// fewer than batch are left, a deletion fails (logged, unless ctx is
// done) or ctx is done.
func (k *Accounts) ExpireSessions(ctx context.Context, batch int) {
	for ctx.Err() == nil {
		n, err := k.store.ExpireSessions(ctx, time.Now(), batch)
		if err != nil && ctx.Err() == nil {
			k.log.Error("deleting expired sessions", "err", err)
		}
		if err != nil || n < batch {
			return
		}
	}
}

// ByName returns the account of username name, or api.ErrNotFound.
func (k *Accounts) ByName(ctx context.Context, name string) (store.Account, error) {
	a, err := k.store.AccountByKey(ctx, account.UsernameKey(name))
	if errors.Is(err, store.ErrNoAccount) {
		return store.Account{}, api.Fail(api.ErrNotFound, "no such player")
	}
	return a, err
}

// PlayerID returns the account id of username name, or api.ErrNotFound.
func (k *Accounts) PlayerID(ctx context.Context, name string) (string, error) {
	a, err := k.ByName(ctx, name)
	return a.ID, err
}
