package server

import (
	"context"
	"errors"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/limits"
	"oanquan/internal/store"
)

// Reports (issue 21): a player reports another, with a reason of a fixed
// list and the game, if any; kept in the store for the operators
// (oanquan reports). Limited per address and per account, both counted
// in the store: over every server sharing it.

// The limits of reports.
var (
	// reportRate is how often one address may report, on all servers
	// together.
	reportRate = Rate{PerMinute: 20.0 / 60, Burst: 20}
	// maxReportsPerAccount is how many reports one account may make in
	// reportWindow, on all servers together.
	maxReportsPerAccount = 10
	reportWindow         = time.Hour
)

// Report saves the caller's report of player name.
func (h host) Report(ctx context.Context, name string, q api.ReportRequest) error {
	rs := h.s.store
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
	if acct == reported {
		return &api.FieldError{Field: "name", Reason: "self", Problem: "you cannot report yourself"}
	}
	if err := h.s.limits.AllowShared(ctx, h.r, "report", reportRate); err != nil {
		return err
	}
	now := time.Now()
	r := store.Report{ID: newID(), Reporter: acct, Address: h.s.limits.Client(h.r), Reported: reported, ReportedName: name,
		Reason: q.Reason, Game: q.Game, Created: now}
	if acct != "" {
		n, err := rs.CountReports(ctx, acct, now.Add(-reportWindow))
		if err != nil {
			return err
		}
		if n >= maxReportsPerAccount {
			return &limits.RetryError{Limit: "reports", Retry: reportWindow / 6,
				Err: api.Fail(api.ErrRate, "your account made %d reports this hour, the most it may", n)}
		}
		if a, err := h.s.accounts.store.AccountByID(ctx, acct); err == nil {
			r.ReporterName = a.Username
		} else if !errors.Is(err, store.ErrNoAccount) {
			return err
		}
	}
	if a, err := h.s.accounts.store.AccountByID(ctx, reported); err == nil {
		r.ReportedName = a.Username // as spelt, not as typed
	}
	if err := rs.CreateReport(ctx, r); err != nil {
		return err
	}
	h.s.log.Info("player reported", "report", r.ID, "reason", r.Reason)
	return nil
}
