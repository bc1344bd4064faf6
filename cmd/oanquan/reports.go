package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"time"

	"oanquan/internal/store/stores"
)

// reportLine is one report as `oanquan reports` prints it: one JSON line,
// never the reporter's address (an operator who needs it reads the
// database).
type reportLine struct {
	ID       string    `json:"id"`
	Created  time.Time `json:"created"`
	Reported string    `json:"reported"`
	Reporter string    `json:"reporter"` // "" for an anonymous reporter
	Reason   string    `json:"reason"`
	Game     string    `json:"game,omitempty"`
}

// runReports lists players' reports, newest first, for the operators.
func runReports(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("reports", flag.ContinueOnError)
	db := fs.String("db", "", "the server's database: a SQLite file path or a postgres:// URL; default: the server's default file")
	days := fs.Int("days", 30, "the reports of the last DAYS days")
	limit := fs.Int("limit", 1000, "at most this many")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 || *days <= 0 || *limit <= 0 {
		return usagef("reports: want [--db FILE|URL] [--days N] [--limit N] with N > 0")
	}
	st, _, err := stores.Open(ctx, *db, nil)
	if err != nil {
		return usagef("%v", err)
	}
	defer st.Close()
	list, err := st.Reports(ctx, time.Now().AddDate(0, 0, -*days), *limit)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	for _, r := range list {
		if err := enc.Encode(reportLine{ID: r.ID, Created: r.Created.UTC(), Reported: r.ReportedName, Reporter: r.ReporterName, Reason: r.Reason, Game: r.Game}); err != nil {
			return err
		}
	}
	return nil
}
