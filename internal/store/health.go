package store

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Prober is implemented by stores that can check that they take changes
// now: Probe makes a small durable write (nothing a game sees) and
// returns its error. A server's readiness asks it.
type Prober interface {
	Probe(ctx context.Context) error
}

// Probe always succeeds: memory takes every change.
func (m *Memory) Probe(ctx context.Context) error { return ctx.Err() }

// Probe rewrites the schema version as it is, in the writer's next
// transaction: a one-page write and a commit to the disk, like a move's.
func (s *SQLite) Probe(ctx context.Context) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		// PRAGMA takes no parameters; the version is an int.
		_, err := w.exec(fmt.Sprintf("PRAGMA user_version = %d", len(sqliteMigrations)))
		return err
	})
}

// Probe rewrites the schema's version row as it is, in a transaction of
// its own: a row written and a commit flushed, like a move's.
func (p *Postgres) Probe(ctx context.Context) error {
	_, err := p.pool.Exec(ctx, `UPDATE oanquan_schema SET version = version`)
	return err
}

// Unavailable reports whether err is a store that cannot be reached or
// written now (a full disk, a read-only file or filesystem, an I/O
// error, a database that is down, unreachable or read-only), rather than
// a fault of the program, and
// returns a short reason, without the error's own text (which may name
// files and hosts).
func Unavailable(err error) (reason string, ok bool) {
	// A deadline or a cancellation is the caller's, not news of the
	// store (context.DeadlineExceeded is a net.Error too): the caller
	// that set the time says what it means.
	if err == nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return "", false
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff { // the primary code
		case sqlite3.SQLITE_FULL:
			return "the disk is full", true
		case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM:
			return "the file or its filesystem is read-only", true
		case sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN:
			return "the file cannot be read or written (an I/O error)", true
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return "the file is locked by another program", true
		}
		return "", false
	}
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
	case errors.Is(err, errClosed):
		return "the store is closed", true
	}
	return "", false
}
