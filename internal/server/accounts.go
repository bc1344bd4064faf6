package server

import (
	"context"
	"errors"
	"slices"
	"time"

	"oanquan/internal/accounts"
	"oanquan/internal/api"
	"oanquan/internal/match"
	"oanquan/internal/ops"
	"oanquan/internal/store"
	"oanquan/rules"
)

// The host's part of package accounts (issue 21): the server is package
// api's AccountHost, and package accounts does the work; the server
// tells it the request, and lends it what only the games know: the
// resignation of a deleted account's rated games and the results of
// games older than the store's results (Config of package accounts).

// Accounts is how a server keeps accounts (package accounts).
type Accounts = accounts.Options

// newAccounts returns the server's accounts, which tell its lobby what
// becomes of sessions and accounts.
func (s *Server) newAccounts() *accounts.Accounts {
	return accounts.New(accounts.Config{
		Options: s.cfg.Accounts,
		Store:   s.store,
		Limits:  s.limits,
		Log:     s.log,
		Ended:   s.lobby.EndSessions,
		Deleted: func() { s.lobbyChanged("") },
		Resign:  s.resignRated,
		Fill:    s.fillResults,
	})
}

// session returns the caller's session and account, or api.ErrSignedOut.
func (h host) session(ctx context.Context) (store.Session, store.Account, error) {
	return h.s.accounts.Session(ctx, h.r)
}

// sessionsLoop deletes the expired sessions and the buckets of limits
// full again (store.Buckets), a minute after the server starts and then
// every hour (retentionEvery), so that the tables do not grow for ever.
func (s *Server) sessionsLoop() {
	ops.Every(s.ctx, time.Minute, retentionEvery, func() {
		if _, err := s.store.ExpireBuckets(s.ctx, time.Now()); err != nil && s.ctx.Err() == nil {
			s.log.Error("deleting full buckets of limits", "err", err)
		}
		s.accounts.ExpireSessions(s.ctx, expireBatch)
	})
}

// SignUp makes an account and its first session.
func (h host) SignUp(ctx context.Context, name string, password api.Password) (api.Player, error) {
	return h.s.accounts.SignUp(ctx, h.w, h.r, name, password)
}

// SignIn checks a username and password and starts a session.
func (h host) SignIn(ctx context.Context, name string, password api.Password) (api.Player, error) {
	return h.s.accounts.SignIn(ctx, h.w, h.r, name, password)
}

// SignOut ends the caller's session, or all of its account's.
func (h host) SignOut(ctx context.Context, everywhere bool) error {
	return h.s.accounts.SignOut(ctx, h.w, h.r, everywhere)
}

// Me returns the caller's account.
func (h host) Me(ctx context.Context) (api.Player, error) {
	return h.s.accounts.Me(ctx, h.r)
}

// ChangePassword replaces the caller's password and ends its other
// sessions.
func (h host) ChangePassword(ctx context.Context, old, new api.Password) error {
	return h.s.accounts.ChangePassword(ctx, h.r, old, new)
}

// DeleteAccount deletes the caller's account.
func (h host) DeleteAccount(ctx context.Context, password api.Password) error {
	return h.s.accounts.DeleteAccount(ctx, h.w, h.r, password)
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
	return h.s.accounts.PlayerByName(ctx, name)
}
