package sqlite

import (
	"context"
	"fmt"
	"time"

	"oanquan/internal/store"
	"oanquan/internal/store/internal/sqldb"
)

// CreateReport saves r.
func (s *DB) CreateReport(ctx context.Context, r store.Report) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		_, err := w.exec(sqliteInsertReport,
			r.ID, r.Reporter, r.ReporterName, r.Address, r.Reported, r.ReportedName, r.Reason, r.Game, r.Created.UnixNano())
		return err
	})
}

// Reports returns the reports since since, newest first.
func (s *DB) Reports(ctx context.Context, since time.Time, limit int) ([]store.Report, error) {
	rows, err := s.rdb.QueryContext(ctx, sqliteReports, since.UnixNano(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: reading reports: %w", err)
	}
	defer rows.Close()
	var out []store.Report
	for rows.Next() {
		var r store.Report
		var created int64
		if err := rows.Scan(&r.ID, &r.Reporter, &r.ReporterName, &r.Address, &r.Reported, &r.ReportedName, &r.Reason, &r.Game, &created); err != nil {
			return nil, err
		}
		r.Created = time.Unix(0, created)
		out = append(out, r)
	}
	return out, rows.Err()
}

// CountReports counts account's reports since since.
func (s *DB) CountReports(ctx context.Context, account string, since time.Time) (int, error) {
	var n int
	err := s.rdb.QueryRowContext(ctx, sqliteCountReports, account, since.UnixNano()).Scan(&n)
	return n, err
}

// The statements of Reports on SQLite (sqldb's).
var (
	sqliteInsertReport = sqldb.SQLite(sqldb.InsertReport)
	sqliteReports      = sqldb.SQLite(sqldb.Reports)
	sqliteCountReports = sqldb.SQLite(sqldb.CountReports)
)
