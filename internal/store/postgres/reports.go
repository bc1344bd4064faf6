package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"oanquan/internal/store"
	"oanquan/internal/store/internal/sqldb"
)

// CreateReport saves r.
func (p *DB) CreateReport(ctx context.Context, r store.Report) error {
	_, err := p.pool.Exec(ctx, sqldb.InsertReport,
		r.ID, r.Reporter, r.ReporterName, r.Address, r.Reported, r.ReportedName, r.Reason, r.Game, r.Created)
	if err != nil {
		return fmt.Errorf("store: saving a report: %w", err)
	}
	return nil
}

// Reports returns the reports since since, newest first.
func (p *DB) Reports(ctx context.Context, since time.Time, limit int) ([]store.Report, error) {
	rows, err := p.pool.Query(ctx, sqldb.Reports, since, limit)
	if err != nil {
		return nil, fmt.Errorf("store: reading reports: %w", err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Report, error) {
		var r store.Report
		err := row.Scan(&r.ID, &r.Reporter, &r.ReporterName, &r.Address, &r.Reported, &r.ReportedName, &r.Reason, &r.Game, &r.Created)
		return r, err
	})
}

// CountReports counts account's reports since since.
func (p *DB) CountReports(ctx context.Context, account string, since time.Time) (int, error) {
	var n int
	err := p.pool.QueryRow(ctx, sqldb.CountReports, account, since).Scan(&n)
	return n, err
}
