package store

import (
	"context"
	"time"
)

// Report is a player's report of another (issue 21, item 5), kept for
// the operators (oanquan reports).
type Report struct {
	ID           string // chosen by the server, random
	Reporter     string // the reporter's account id; "" for an anonymous reporter
	ReporterName string // its username then; "" for none
	Address      string // the reporter's address, as the server's limits key it
	Reported     string // the reported player's account id
	ReportedName string // its username then
	Reason       string // one of the server's fixed list
	Game         string // the game it is about; "" for none
	Created      time.Time
}

// Reports keeps players' reports. The SQLite, Postgres and Memory stores
// implement it with the same contract (storetest.Reports).
type Reports interface {
	// CreateReport saves r, durably.
	CreateReport(ctx context.Context, r Report) error
	// Reports returns the reports made at or after since, newest first,
	// at most limit.
	Reports(ctx context.Context, since time.Time, limit int) ([]Report, error)
	// CountReports returns how many reports account made at or after
	// since (every server's: the limit per account holds across them).
	CountReports(ctx context.Context, account string, since time.Time) (int, error)
}
