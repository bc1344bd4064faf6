package api

import "context"

// BlockHost is the part of a Host that keeps who blocked whom (issue
// 21): the server's. A blocked pair is never paired, either way.
type BlockHost interface {
	// Block has the caller's account block player name (ErrSignedOut
	// without a session; ErrNotFound for no such player; ErrBadRequest
	// for oneself). Blocking again is no error.
	Block(ctx context.Context, name string) error
	// Unblock undoes Block; a player not blocked is no error.
	Unblock(ctx context.Context, name string) error
	// Blocks returns the usernames the caller blocks, in the order
	// blocked.
	Blocks(ctx context.Context) ([]string, error)
}

// BlockList is the answer of GET /api/me/blocks.
type BlockList struct {
	Blocks []string `json:"blocks"`
}

// blockHost returns the caller's blocks.
func blockHost(c *Call) (BlockHost, error) {
	if b, ok := c.Host.(BlockHost); ok {
		return b, nil
	}
	return nil, Fail(ErrNotOffline, "blocking needs the server")
}

func block(c *Call) (Response, error) {
	h, err := blockHost(c)
	if err != nil {
		return Response{}, err
	}
	var q struct{}
	if err := decode(c.Body, &q, true); err != nil {
		return Response{}, err
	}
	if err := h.Block(c.Ctx, c.ID); err != nil {
		return Response{}, err
	}
	return Response{Status: 204}, nil
}

func unblock(c *Call) (Response, error) {
	h, err := blockHost(c)
	if err != nil {
		return Response{}, err
	}
	if err := h.Unblock(c.Ctx, c.ID); err != nil {
		return Response{}, err
	}
	return Response{Status: 204}, nil
}

func listBlocks(c *Call) (Response, error) {
	h, err := blockHost(c)
	if err != nil {
		return Response{}, err
	}
	l, err := h.Blocks(c.Ctx)
	if err != nil {
		return Response{}, err
	}
	if l == nil {
		l = []string{}
	}
	return ok(BlockList{Blocks: l})
}
