package server

import (
	"context"
	"errors"
	"time"

	"oanquan/internal/account"
	"oanquan/internal/api"
	"oanquan/internal/store"
)

// Blocks (issue 21): an account blocks a player by name; a blocked pair
// is never paired, either way: neither lists the other's seeks, neither
// may accept them (404, as if gone: the blocked player learns nothing),
// and quick pairing skips them. The blocks are in the store, so they
// hold on every server sharing it; a block or unblock tells every
// server's lobby at once (on PostgreSQL, through its lobby notices).

// maxBlocks is how many players one account may block.
const maxBlocks = 1000

// blocks returns the store's blocks and the caller's account, or refuses.
func (h host) blocks(ctx context.Context) (store.Blocks, string, error) {
	acct, err := h.caller(ctx, true)
	return h.s.store, acct, err
}

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
	b, acct, err := h.blocks(ctx)
	if err != nil {
		return err
	}
	other, err := h.playerID(ctx, name)
	if err != nil {
		return err
	}
	if other == acct {
		return &api.FieldError{Field: "name", Reason: "self", Problem: "you cannot block yourself"}
	}
	have, err := b.Blocked(ctx, acct)
	if err != nil {
		return err
	}
	if len(have) >= maxBlocks {
		return api.Fail(api.ErrRate, "you block %d players, the most one may: unblock one first", len(have))
	}
	if err := b.Block(ctx, acct, other, time.Now()); err != nil {
		return err
	}
	h.s.lobbyChanged("")
	return nil
}

// Unblock has the caller stop blocking player name.
func (h host) Unblock(ctx context.Context, name string) error {
	b, acct, err := h.blocks(ctx)
	if err != nil {
		return err
	}
	other, err := h.playerID(ctx, name)
	if err != nil {
		return err
	}
	if err := b.Unblock(ctx, acct, other); err != nil {
		return err
	}
	h.s.lobbyChanged("")
	return nil
}

// Blocks returns the usernames the caller blocks.
func (h host) Blocks(ctx context.Context) ([]string, error) {
	if err := h.allowProfile(); err != nil {
		return nil, err
	}
	b, acct, err := h.blocks(ctx)
	if err != nil {
		return nil, err
	}
	ids, err := b.Blocked(ctx, acct)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		a, err := h.s.accounts.store.AccountByID(ctx, id)
		if errors.Is(err, store.ErrNoAccount) {
			continue // deleted since
		}
		if err != nil {
			return nil, err
		}
		out = append(out, a.Username)
	}
	return out, nil
}

// blockedWith returns the accounts account blocks or is blocked by (none
// for no account).
func (s *Server) blockedWith(ctx context.Context, account string) (map[string]bool, error) {
	if account == "" {
		return nil, nil
	}
	return s.store.BlockedWith(ctx, account)
}
