package postgres

import (
	"context"
	"errors"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Probe rewrites the schema's version row as it is, in a transaction of
// its own: a row written and a commit flushed, like a move's.
func (p *DB) Probe(ctx context.Context) error {
	_, err := p.pool.Exec(ctx, `UPDATE oanquan_schema SET version = version`)
	return err
}

// Unavailable is Unavailable for the PostgreSQL store's errors:
// the server's codes for a database that cannot take changes, and a
// database out of reach. A deadline or a cancellation is not news of the
// store (Unavailable says so first: context.DeadlineExceeded is a
// net.Error too).
func Unavailable(err error) (reason string, ok bool) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "25006": // read_only_sql_transaction
			return "the database is read-only", true
		case pe.Code == "53100": // disk_full
			return "the database's disk is full", true
		case strings.HasPrefix(pe.Code, "08"), strings.HasPrefix(pe.Code, "57P"), strings.HasPrefix(pe.Code, "53"), strings.HasPrefix(pe.Code, "58"):
			// connection exceptions, shutdown, insufficient resources,
			// system errors
			return "the database cannot take changes now (" + pe.Code + ")", true
		}
		return "", false
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	switch {
	case errors.As(err, &ce), errors.As(err, &ne), pgconn.Timeout(err):
		return "the database cannot be reached", true
	}
	return "", false
}
