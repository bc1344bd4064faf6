package server

import (
	"context"

	"oanquan/internal/api"
	"oanquan/internal/players"
)

// The host's part of package players: blocks, reports and the
// leaderboards, the caller and the player named found here, the
// client's limits applied.

// playerID returns the account id of username name, or ErrNotFound.
func (h host) playerID(ctx context.Context, name string) (string, error) {
	return h.s.accounts.PlayerID(ctx, name)
}

// Block has the caller block player name.
func (h host) Block(ctx context.Context, name string) error {
	acct, other, err := h.callerAnd(ctx, name)
	if err != nil {
		return err
	}
	return h.s.players.Block(ctx, acct, other)
}

// Unblock has the caller stop blocking player name.
func (h host) Unblock(ctx context.Context, name string) error {
	acct, other, err := h.callerAnd(ctx, name)
	if err != nil {
		return err
	}
	return h.s.players.Unblock(ctx, acct, other)
}

// callerAnd returns the signed-in caller's account and player name's,
// in that order of checks: a caller not signed in is refused first.
func (h host) callerAnd(ctx context.Context, name string) (acct, other string, err error) {
	if acct, err = h.caller(ctx, true); err != nil {
		return "", "", err
	}
	if other, err = h.playerID(ctx, name); err != nil {
		return "", "", err
	}
	return acct, other, nil
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

// Report saves the caller's report of player name (package players).
func (h host) Report(ctx context.Context, name string, q api.ReportRequest) error {
	if q.Game != "" && !validID(q.Game) {
		return &api.FieldError{Field: "game", Reason: "format", Problem: "not a game's id"}
	}
	reported, err := h.playerID(ctx, name)
	if err != nil {
		return err
	}
	acct, err := h.caller(ctx, false)
	if err != nil {
		return err
	}
	r := players.Report{Reporter: acct, Address: h.s.limits.Client(h.r), Reported: reported, ReportedName: name, Reason: q.Reason, Game: q.Game}
	return h.s.players.Report(ctx, r, func() error {
		return h.s.limits.AllowShared(ctx, h.r, "report", players.ReportRate)
	})
}

// Leaderboard returns the top players of speed (package players),
// within the client's limit of reads of profiles.
func (h host) Leaderboard(ctx context.Context, speed string) (api.Leaderboard, error) {
	if err := h.allowProfile(); err != nil {
		return api.Leaderboard{}, err
	}
	return h.s.players.Leaderboard(ctx, speed)
}
