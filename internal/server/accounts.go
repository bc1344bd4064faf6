package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"oanquan/internal/account"
	"oanquan/internal/api"
	"oanquan/internal/match"
	"oanquan/internal/rating"
	"oanquan/internal/store"
	"oanquan/rules"
)

// Accounts (issue 21): the server is package api's AccountHost. The
// rules of names, passwords, hashes and cookies are package account's;
// the accounts, sessions and ratings are kept by the store
// (store.Accounts). A session travels in an HttpOnly, SameSite=Lax
// cookie; a state-changing request that carries it from another site is
// refused by the cross-origin check every route is behind
// (http.CrossOriginProtection, in routes), so no other site's form or
// script acts with it.

// Accounts is how a server keeps accounts.
type Accounts struct {
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

// accountKeeper is the server's part of accounts: the store's, the
// hasher (at most one hash a core at once) and the cookies.
type accountKeeper struct {
	store   store.Accounts
	hasher  *account.Hasher
	cookies account.SessionCookies
	// verifies counts the passwords checked (each one argon2id run, on
	// the account's hash or the dummy one), for tests.
	verifies atomic.Int64
}

func newAccountKeeper(cfg Accounts, st store.Accounts) *accountKeeper {
	p := cfg.Hashing
	if p == (account.Params{}) {
		p = account.DefaultParams
	}
	h, err := account.NewHasher(p, runtime.NumCPU())
	if err != nil {
		panic("server: argon2id parameters: " + err.Error()) // a fault of the program's settings
	}
	return &accountKeeper{store: st, hasher: h, cookies: account.SessionCookies{BehindTLS: cfg.BehindTLS, MaxAge: cfg.SessionAge}}
}

func (k *accountKeeper) sessionAge() time.Duration {
	if k.cookies.MaxAge > 0 {
		return k.cookies.MaxAge
	}
	return account.DefaultSessionAge
}

// keeper returns the server's accounts.
func (h host) keeper() *accountKeeper { return h.s.accounts }

// session returns the caller's session and account, or api.ErrSignedOut.
func (h host) session(ctx context.Context) (store.Session, store.Account, error) {
	k := h.keeper()
	tok, err := k.cookies.Token(h.r)
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

// sessionsLoop deletes the expired sessions and the buckets of limits
// full again (store.Buckets), a minute after the server starts and then
// every hour (retentionEvery), so that the tables do not grow for ever.
func (s *Server) sessionsLoop() {
	k := s.accounts.store
	wait := time.Minute
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = retentionEvery
		if _, err := s.store.ExpireBuckets(s.ctx, time.Now()); err != nil && s.ctx.Err() == nil {
			s.log.Error("deleting full buckets of limits", "err", err)
		}
		for s.ctx.Err() == nil {
			n, err := k.ExpireSessions(s.ctx, time.Now(), expireBatch)
			if err != nil && s.ctx.Err() == nil {
				s.log.Error("deleting expired sessions", "err", err)
			}
			if err != nil || n < expireBatch {
				break
			}
		}
	}
}

// fieldError turns account's refusal of a field into the API's, naming
// the field as the request does.
func fieldError(err error, field string) error {
	var ie *account.InputError
	if errors.As(err, &ie) {
		return &api.FieldError{Field: field, Reason: ie.Reason, Problem: ie.Problem}
	}
	return err
}

// SignUp makes an account and its first session.
func (h host) SignUp(ctx context.Context, name string, password api.Password) (api.Player, error) {
	k := h.keeper()
	u, err := account.ParseUsername(name)
	if err != nil {
		return api.Player{}, fieldError(err, "username")
	}
	pw := account.Password(password)
	if err := account.CheckPassword(pw, u.Name); err != nil {
		return api.Player{}, fieldError(err, "password")
	}
	hash, err := k.hasher.Hash(ctx, pw)
	if err != nil {
		return api.Player{}, err
	}
	now := time.Now()
	a := store.Account{ID: newID(), Username: u.Name, Key: u.Key, Hash: hash, Created: now}
	tok, se := k.newSession(a.ID, now)
	if err := k.store.CreateAccount(ctx, a, se); err != nil {
		if errors.Is(err, store.ErrExists) {
			return api.Player{}, api.ErrUsernameTaken
		}
		return api.Player{}, err
	}
	http.SetCookie(h.w, k.cookies.Session(h.r, tok))
	h.s.log.Info("account created", "account", a.ID)
	return api.Player{Username: a.Username, Ratings: map[string]api.Rating{}, Joined: a.Created.UTC()}, nil
}

// newSession returns a new token and the session it keys.
func (k *accountKeeper) newSession(accountID string, now time.Time) (account.Token, store.Session) {
	tok := account.NewToken()
	key := tok.Key()
	return tok, store.Session{Key: key[:], Account: accountID, Created: now, Used: now, Expires: now.Add(k.sessionAge())}
}

// nameKey is the limiter's key of the wrong passwords given for a
// username: a hash, so that a flood of long names takes little memory.
func nameKey(name string) string {
	sum := sha256.Sum256([]byte(account.UsernameKey(name)))
	return "sign-in name " + hex.EncodeToString(sum[:16])
}

// checkPassword verifies password for the account a (the zero Account:
// none by that name) as a sign-in does: limited per name, and with the
// same work whether the account exists or not. A wrong password is
// api.ErrCredentials, and counts against the name.
func (h host) checkPassword(ctx context.Context, k *accountKeeper, name string, a store.Account, password api.Password) error {
	rt := h.s.limits.Config().SignInFailures
	key := nameKey(name)
	if err := h.s.limits.OwesShared(ctx, key, rt, "sign-in name", "too many wrong passwords for this username"); err != nil {
		return err
	}
	pw := account.Password(password)
	ok, rehash := false, false
	// A password too long to be anyone's is hashed for no one, found
	// or not: it tells nothing either way.
	if len(pw) <= account.MaxPasswordBytes {
		var err error
		k.verifies.Add(1)
		if ok, rehash, err = k.hasher.Verify(ctx, a.Hash, pw); err != nil {
			return err
		}
	}
	if !ok {
		if err := h.s.limits.ChargeShared(ctx, key, rt); err != nil {
			return err // not counted: no answer that would let the guess go by
		}
		return api.ErrCredentials
	}
	if rehash {
		k.rehash(ctx, a, pw, h.s.log)
	}
	return nil
}

// rehash hashes pw, a's right password, again with the server's
// parameters (raised since a's hash was made). A failure costs nothing
// but another try at the next sign-in.
func (k *accountKeeper) rehash(ctx context.Context, a store.Account, pw account.Password, log *slog.Logger) {
	hash, err := k.hasher.Hash(ctx, pw)
	if err == nil {
		err = k.store.Rehash(ctx, a.ID, a.Hash, hash)
	}
	if err != nil {
		log.Warn("rehashing a password", "account", a.ID, "err", err)
	}
}

// SignIn checks a username and password and starts a session.
func (h host) SignIn(ctx context.Context, name string, password api.Password) (api.Player, error) {
	k := h.keeper()
	a, err := k.store.AccountByKey(ctx, account.UsernameKey(name))
	if err != nil && !errors.Is(err, store.ErrNoAccount) {
		return api.Player{}, err
	}
	if err := h.checkPassword(ctx, k, name, a, password); err != nil {
		return api.Player{}, err
	}
	tok, se := k.newSession(a.ID, time.Now())
	if err := k.store.CreateSession(ctx, se); err != nil {
		if errors.Is(err, store.ErrNoAccount) { // deleted meanwhile
			return api.Player{}, api.ErrCredentials
		}
		return api.Player{}, err
	}
	http.SetCookie(h.w, k.cookies.Session(h.r, tok))
	return h.s.profile(ctx, a)
}

// SignOut ends the caller's session, or all of its account's.
func (h host) SignOut(ctx context.Context, everywhere bool) error {
	se, a, err := h.session(ctx)
	if err != nil {
		return err
	}
	k := h.s.accounts
	if everywhere {
		err = k.store.EndSessions(ctx, a.ID)
	} else {
		err = k.store.EndSession(ctx, se.Key)
	}
	if err != nil {
		return err
	}
	h.s.lobby.EndSessions(a.ID, func(key []byte) bool { return everywhere || bytes.Equal(key, se.Key) })
	http.SetCookie(h.w, k.cookies.Deletion(h.r))
	return nil
}

// Me returns the caller's account.
func (h host) Me(ctx context.Context) (api.Player, error) {
	_, a, err := h.session(ctx)
	if err != nil {
		return api.Player{}, err
	}
	return h.s.profile(ctx, a)
}

// ChangePassword replaces the caller's password and ends its other
// sessions.
func (h host) ChangePassword(ctx context.Context, old, new api.Password) error {
	se, a, err := h.session(ctx)
	if err != nil {
		return err
	}
	k := h.s.accounts
	if err := h.checkPassword(ctx, k, a.Username, a, old); err != nil {
		return fieldOf(err, "old")
	}
	pw := account.Password(new)
	if err := account.CheckPassword(pw, a.Username); err != nil {
		return fieldError(err, "new")
	}
	hash, err := k.hasher.Hash(ctx, pw)
	if err != nil {
		return err
	}
	if err := k.store.SetPassword(ctx, a.ID, hash, se.Key); err != nil {
		return err
	}
	h.s.lobby.EndSessions(a.ID, func(key []byte) bool { return !bytes.Equal(key, se.Key) }) // the others ended
	h.s.log.Info("password changed", "account", a.ID)
	return nil
}

// fieldOf names field in a wrong password's refusal.
func fieldOf(err error, field string) error {
	if errors.Is(err, api.ErrCredentials) {
		return &api.WrongPassword{Field: field}
	}
	return err
}

// DeleteAccount deletes the caller's account.
func (h host) DeleteAccount(ctx context.Context, password api.Password) error {
	_, a, err := h.session(ctx)
	if err != nil {
		return err
	}
	k := h.s.accounts
	if err := h.checkPassword(ctx, k, a.Username, a, password); err != nil {
		return fieldOf(err, "password")
	}
	if err := h.s.resignRated(ctx, a.ID); err != nil {
		return err
	}
	if err := k.store.DeleteAccount(ctx, a.ID); err != nil {
		return err
	}
	h.s.lobby.EndSessions(a.ID, func([]byte) bool { return true })
	h.s.lobbyChanged("") // its open seeks went with it
	http.SetCookie(h.w, k.cookies.Deletion(h.r))
	h.s.log.Info("account deleted", "account", a.ID)
	return nil
}

// resignRated resigns, for account, every rated game it plays that goes
// on, as a resignation through the game's page would: rated as a loss,
// before its account (and ratings) are deleted, which would leave the
// game unrated and its opponent without the win. A game that ends
// meanwhile (its last move, the other's resignation, a flag, here or
// through another server) needs nothing more; any other failure refuses
// the deletion, with nothing deleted.
func (s *Server) resignRated(ctx context.Context, accountID string) error {
	ids, err := s.store.RatedInPlay(ctx, accountID)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := s.resignAs(ctx, id, accountID); err != nil {
			return err
		}
	}
	return nil
}

// resignAs resigns game id for the seat account holds in it.
func (s *Server) resignAs(ctx context.Context, id, accountID string) error {
	for try := 0; ; try++ {
		g, err := s.game(ctx, id)
		if err != nil {
			return err
		}
		saved, err := s.store.Get(ctx, id)
		if err != nil {
			return err
		}
		seat := slices.Index(saved.Accounts[:], accountID)
		if seat < 0 {
			return nil
		}
		_, err = g.m.Resign(rules.Player(seat))
		switch {
		case err == nil:
			s.log.Info("resigned for a deleted account", "id", id, "seat", seat)
			return nil
		case errors.Is(err, match.ErrGameOver):
			return nil
		case errors.Is(err, match.ErrStale) && try < 3:
			// Changed through another server: resign again once caught up.
			s.resync(id)
			continue
		}
		return err
	}
}

// Player returns a player's public ratings.
func (h host) Player(ctx context.Context, name string) (api.Player, error) {
	if err := h.allowProfile(); err != nil {
		return api.Player{}, err
	}
	k := h.keeper()
	a, err := k.store.AccountByKey(ctx, account.UsernameKey(name))
	if errors.Is(err, store.ErrNoAccount) {
		return api.Player{}, api.Fail(api.ErrNotFound, "no such player")
	}
	if err != nil {
		return api.Player{}, err
	}
	return h.s.profile(ctx, a)
}

// profile returns a's username and ratings as they stand now.
func (s *Server) profile(ctx context.Context, a store.Account) (api.Player, error) {
	rs, err := s.accounts.store.Ratings(ctx, a.ID)
	if err != nil {
		return api.Player{}, err
	}
	p := api.Player{Username: a.Username, Ratings: make(map[string]api.Rating, len(rs)), Joined: a.Created.UTC()}
	if p.Results, err = s.results(ctx, a.ID); err != nil {
		return api.Player{}, err
	}
	now := time.Now()
	for speed, r := range rs {
		r = rating.System{}.AsOf(r, now)
		p.Ratings[speed] = api.Rating{Rating: r.Rating, RD: r.RD, Volatility: r.Volatility, Provisional: r.Provisional(), Games: r.Games}
	}
	return p, nil
}
