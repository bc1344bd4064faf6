package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
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
// implement it with the same contract (reports_test.go).
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

var (
	_ Reports = (*Memory)(nil)
	_ Reports = (*SQLite)(nil)
	_ Reports = (*Postgres)(nil)
)

// CreateReport saves r.
func (m *Memory) CreateReport(ctx context.Context, r Report) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reported = append(m.reported, r)
	return nil
}

// Reports returns the reports since since, newest first.
func (m *Memory) Reports(ctx context.Context, since time.Time, limit int) ([]Report, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []Report
	for _, r := range slices.Backward(m.reported) {
		if !r.Created.Before(since) && len(out) < limit {
			out = append(out, r)
		}
	}
	return out, nil
}

// CountReports counts account's reports since since.
func (m *Memory) CountReports(ctx context.Context, account string, since time.Time) (int, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n := 0
	for _, r := range m.reported {
		if r.Reporter == account && !r.Created.Before(since) {
			n++
		}
	}
	return n, nil
}

const reportCols = `id, reporter, reporter_name, address, reported, reported_name, reason, game, created`

// CreateReport saves r.
func (s *SQLite) CreateReport(ctx context.Context, r Report) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		_, err := w.exec(`INSERT INTO reports (`+reportCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.ID, r.Reporter, r.ReporterName, r.Address, r.Reported, r.ReportedName, r.Reason, r.Game, r.Created.UnixNano())
		return err
	})
}

// Reports returns the reports since since, newest first.
func (s *SQLite) Reports(ctx context.Context, since time.Time, limit int) ([]Report, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT `+reportCols+` FROM reports WHERE created >= ? ORDER BY created DESC, id LIMIT ?`, since.UnixNano(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: reading reports: %w", err)
	}
	defer rows.Close()
	var out []Report
	for rows.Next() {
		var r Report
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
func (s *SQLite) CountReports(ctx context.Context, account string, since time.Time) (int, error) {
	var n int
	err := s.rdb.QueryRowContext(ctx, `SELECT count(*) FROM reports WHERE reporter = ? AND created >= ?`, account, since.UnixNano()).Scan(&n)
	return n, err
}

// CreateReport saves r.
func (p *Postgres) CreateReport(ctx context.Context, r Report) error {
	_, err := p.pool.Exec(ctx, `INSERT INTO reports (`+reportCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		r.ID, r.Reporter, r.ReporterName, r.Address, r.Reported, r.ReportedName, r.Reason, r.Game, r.Created)
	if err != nil {
		return fmt.Errorf("store: saving a report: %w", err)
	}
	return nil
}

// Reports returns the reports since since, newest first.
func (p *Postgres) Reports(ctx context.Context, since time.Time, limit int) ([]Report, error) {
	rows, err := p.pool.Query(ctx, `SELECT `+reportCols+` FROM reports WHERE created >= $1 ORDER BY created DESC, id LIMIT $2`, since, limit)
	if err != nil {
		return nil, fmt.Errorf("store: reading reports: %w", err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Report, error) {
		var r Report
		err := row.Scan(&r.ID, &r.Reporter, &r.ReporterName, &r.Address, &r.Reported, &r.ReportedName, &r.Reason, &r.Game, &r.Created)
		return r, err
	})
}

// CountReports counts account's reports since since.
func (p *Postgres) CountReports(ctx context.Context, account string, since time.Time) (int, error) {
	var n int
	err := p.pool.QueryRow(ctx, `SELECT count(*) FROM reports WHERE reporter = $1 AND created >= $2`, account, since).Scan(&n)
	return n, err
}
