package accounts

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"time"

	"oanquan/internal/account"
	"oanquan/internal/api"
	"oanquan/internal/ids"
	"oanquan/internal/store"
)

// fieldError turns account's refusal of a field into the API's, naming
// the field as the request does.
func fieldError(err error, field string) error {
	var ie *account.InputError
	if errors.As(err, &ie) {
		return &api.FieldError{Field: field, Reason: ie.Reason, Problem: ie.Problem}
	}
	return err
}

// fieldOf names field in a wrong password's refusal.
func fieldOf(err error, field string) error {
	if errors.Is(err, api.ErrCredentials) {
		return &api.WrongPassword{Field: field}
	}
	return err
}

// SignUp makes an account and its first session, whose cookie it sets
// on w, the answer to r.
func (k *Accounts) SignUp(ctx context.Context, w http.ResponseWriter, r *http.Request, name string, password api.Password) (api.Player, error) {
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
	a := store.Account{ID: ids.New(), Username: u.Name, Key: u.Key, Hash: hash, Created: now}
	tok, se := k.newSession(a.ID, now)
	if err := k.store.CreateAccount(ctx, a, se); err != nil {
		if errors.Is(err, store.ErrExists) {
			return api.Player{}, api.ErrUsernameTaken
		}
		return api.Player{}, err
	}
	http.SetCookie(w, k.cookies.Session(r, tok))
	k.log.Info("account created", "account", a.ID)
	return api.Player{Username: a.Username, Ratings: map[string]api.Rating{}, Joined: a.Created.UTC()}, nil
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
func (k *Accounts) checkPassword(ctx context.Context, name string, a store.Account, password api.Password) error {
	lim := k.cfg.Limits
	rt := lim.Config().SignInFailures
	key := nameKey(name)
	if err := lim.OwesShared(ctx, key, rt, "sign-in name", "too many wrong passwords for this username"); err != nil {
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
		if err := lim.ChargeShared(ctx, key, rt); err != nil {
			return err // not counted: no answer that would let the guess go by
		}
		return api.ErrCredentials
	}
	if rehash {
		k.rehash(ctx, a, pw)
	}
	return nil
}

// rehash hashes pw, a's right password, again with the server's
// parameters (raised since a's hash was made). A failure costs nothing
// but another try at the next sign-in.
func (k *Accounts) rehash(ctx context.Context, a store.Account, pw account.Password) {
	hash, err := k.hasher.Hash(ctx, pw)
	if err == nil {
		err = k.store.Rehash(ctx, a.ID, a.Hash, hash)
	}
	if err != nil {
		k.log.Warn("rehashing a password", "account", a.ID, "err", err)
	}
}

// SignIn checks a username and password and starts a session, whose
// cookie it sets on w, the answer to r.
func (k *Accounts) SignIn(ctx context.Context, w http.ResponseWriter, r *http.Request, name string, password api.Password) (api.Player, error) {
	a, err := k.store.AccountByKey(ctx, account.UsernameKey(name))
	if err != nil && !errors.Is(err, store.ErrNoAccount) {
		return api.Player{}, err
	}
	if err := k.checkPassword(ctx, name, a, password); err != nil {
		return api.Player{}, err
	}
	tok, se := k.newSession(a.ID, time.Now())
	if err := k.store.CreateSession(ctx, se); err != nil {
		if errors.Is(err, store.ErrNoAccount) { // deleted meanwhile
			return api.Player{}, api.ErrCredentials
		}
		return api.Player{}, err
	}
	http.SetCookie(w, k.cookies.Session(r, tok))
	return k.Profile(ctx, a)
}

// SignOut ends the session of r, or all of its account's, and deletes
// its cookie on w.
func (k *Accounts) SignOut(ctx context.Context, w http.ResponseWriter, r *http.Request, everywhere bool) error {
	se, a, err := k.Session(ctx, r)
	if err != nil {
		return err
	}
	if everywhere {
		err = k.store.EndSessions(ctx, a.ID)
	} else {
		err = k.store.EndSession(ctx, se.Key)
	}
	if err != nil {
		return err
	}
	k.cfg.Ended(a.ID, func(key []byte) bool { return everywhere || bytes.Equal(key, se.Key) })
	http.SetCookie(w, k.cookies.Deletion(r))
	return nil
}

// Me returns the account of r's session.
func (k *Accounts) Me(ctx context.Context, r *http.Request) (api.Player, error) {
	_, a, err := k.Session(ctx, r)
	if err != nil {
		return api.Player{}, err
	}
	return k.Profile(ctx, a)
}

// ChangePassword replaces the password of r's account and ends its
// other sessions.
func (k *Accounts) ChangePassword(ctx context.Context, r *http.Request, old, new api.Password) error {
	se, a, err := k.Session(ctx, r)
	if err != nil {
		return err
	}
	if err := k.checkPassword(ctx, a.Username, a, old); err != nil {
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
	k.cfg.Ended(a.ID, func(key []byte) bool { return !bytes.Equal(key, se.Key) }) // the others ended
	k.log.Info("password changed", "account", a.ID)
	return nil
}

// DeleteAccount deletes the account of r's session, once its rated
// games going on are resigned (Config.Resign), and deletes its cookie
// on w.
func (k *Accounts) DeleteAccount(ctx context.Context, w http.ResponseWriter, r *http.Request, password api.Password) error {
	_, a, err := k.Session(ctx, r)
	if err != nil {
		return err
	}
	if err := k.checkPassword(ctx, a.Username, a, password); err != nil {
		return fieldOf(err, "password")
	}
	if err := k.cfg.Resign(ctx, a.ID); err != nil {
		return err
	}
	if err := k.store.DeleteAccount(ctx, a.ID); err != nil {
		return err
	}
	k.cfg.Ended(a.ID, func([]byte) bool { return true })
	k.cfg.Deleted() // its open seeks went with it
	http.SetCookie(w, k.cookies.Deletion(r))
	k.log.Info("account deleted", "account", a.ID)
	return nil
}
