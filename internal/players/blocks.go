package players

import (
	"context"
	"errors"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/store"
)

// Blocks (issue 21): an account blocks a player by name; a blocked pair
// is never paired, either way: neither lists the other's seeks, neither
// may accept them (404, as if gone: the blocked player learns nothing),
// and quick pairing skips them. The blocks are in the store, so they
// hold on every server sharing it; a block or unblock tells every
// server's lobby at once (on PostgreSQL, through its lobby notices).

// MaxBlocks is how many players one account may block.
const MaxBlocks = 1000

// Block has account block other.
func (p *Players) Block(ctx context.Context, account, other string) error {
	if other == account {
		return &api.FieldError{Field: "name", Reason: "self", Problem: "you cannot block yourself"}
	}
	have, err := p.store.Blocked(ctx, account)
	if err != nil {
		return err
	}
	if len(have) >= MaxBlocks {
		return api.Fail(api.ErrRate, "you block %d players, the most one may: unblock one first", len(have))
	}
	if err := p.store.Block(ctx, account, other, time.Now()); err != nil {
		return err
	}
	p.changed()
	return nil
}

// Unblock has account stop blocking other.
func (p *Players) Unblock(ctx context.Context, account, other string) error {
	if err := p.store.Unblock(ctx, account, other); err != nil {
		return err
	}
	p.changed()
	return nil
}

// Blocked returns the usernames account blocks (of accounts not deleted
// since).
func (p *Players) Blocked(ctx context.Context, account string) ([]string, error) {
	ids, err := p.store.Blocked(ctx, account)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		a, err := p.store.AccountByID(ctx, id)
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
