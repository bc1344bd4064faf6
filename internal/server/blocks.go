package server

import (
	"context"
	"errors"

	"oanquan/internal/account"
	"oanquan/internal/api"
	"oanquan/internal/store"
)

// Blocks (issue 21, package players): the host's part finds the caller
// and the player named.

// playerID returns the account id of username name, or ErrNotFound.
func (h host) playerID(ctx context.Context, name string) (string, error) {
	k := h.keeper()
	a, err := k.store.AccountByKey(ctx, account.UsernameKey(name))
	if errors.Is(err, store.ErrNoAccount) {
		return "", api.Fail(api.ErrNotFound, "no such player")
	}
	return a.ID, err
}

// Block has the caller block player name.
func (h host) Block(ctx context.Context, name string) error {
	acct, err := h.caller(ctx, true)
	if err != nil {
		return err
	}
	other, err := h.playerID(ctx, name)
	if err != nil {
		return err
	}
	return h.s.players.Block(ctx, acct, other)
}

// Unblock has the caller stop blocking player name.
func (h host) Unblock(ctx context.Context, name string) error {
	acct, err := h.caller(ctx, true)
	if err != nil {
		return err
	}
	other, err := h.playerID(ctx, name)
	if err != nil {
		return err
	}
	return h.s.players.Unblock(ctx, acct, other)
}

// Blocks returns the usernames the caller blocks.
func (h host) Blocks(ctx context.Context) ([]string, error) {
	if err := h.allowProfile(); err != nil {
		return nil, err
	}
	acct, err := h.caller(ctx, true)
	if err != nil {
		return nil, err
	}
	return h.s.players.Blocked(ctx, acct)
}

// blockedWith returns the accounts account blocks or is blocked by (none
// for no account).
func (s *Server) blockedWith(ctx context.Context, account string) (map[string]bool, error) {
	if account == "" {
		return nil, nil
	}
	return s.store.BlockedWith(ctx, account)
}
