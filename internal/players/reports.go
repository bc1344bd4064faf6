package players

import (
	"context"
	"errors"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/ids"
	"oanquan/internal/limits"
	"oanquan/internal/store"
)

// Reports (issue 21): a player reports another, with a reason of a fixed
// list and the game, if any; kept in the store for the operators
// (oanquan reports). Limited per address and per account, both counted
// in the store: over every server sharing it.

// The limits of reports.
var (
	// ReportRate is how often one address may report, on all servers
	// together.
	ReportRate = limits.Rate{PerMinute: 20.0 / 60, Burst: 20}
	// MaxReportsPerAccount is how many reports one account may make in
	// ReportWindow, on all servers together.
	MaxReportsPerAccount = 10
	ReportWindow         = time.Hour
)

// Report is a report to make: by the account Reporter ("" for none)
// from Address, of the account Reported, whose username the reporter
// typed as ReportedName, for Reason, about Game ("" for none).
type Report struct {
	Reporter, Address      string
	Reported, ReportedName string
	Reason, Game           string
}

// Report saves q, durably, unless q reports its reporter, or its
// address's token (allow: the server's rate limit of ReportRate, over
// every server) or its account's count of reports this hour refuses it.
func (p *Players) Report(ctx context.Context, q Report, allow func() error) error {
	if q.Reporter == q.Reported {
		return &api.FieldError{Field: "name", Reason: "self", Problem: "you cannot report yourself"}
	}
	if err := allow(); err != nil {
		return err
	}
	now := time.Now()
	r := store.Report{ID: ids.New(), Reporter: q.Reporter, Address: q.Address, Reported: q.Reported, ReportedName: q.ReportedName,
		Reason: q.Reason, Game: q.Game, Created: now}
	if q.Reporter != "" {
		n, err := p.store.CountReports(ctx, q.Reporter, now.Add(-ReportWindow))
		if err != nil {
			return err
		}
		if n >= MaxReportsPerAccount {
			return &limits.RetryError{Limit: "reports", Retry: ReportWindow / 6,
				Err: api.Fail(api.ErrRate, "your account made %d reports this hour, the most it may", n)}
		}
		if a, err := p.store.AccountByID(ctx, q.Reporter); err == nil {
			r.ReporterName = a.Username
		} else if !errors.Is(err, store.ErrNoAccount) {
			return err
		}
	}
	if a, err := p.store.AccountByID(ctx, q.Reported); err == nil {
		r.ReportedName = a.Username // as spelt, not as typed
	}
	if err := p.store.CreateReport(ctx, r); err != nil {
		return err
	}
	p.log.Info("player reported", "report", r.ID, "reason", r.Reason)
	return nil
}
