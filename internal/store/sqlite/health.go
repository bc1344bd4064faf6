package sqlite

import (
	"context"
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Probe rewrites the schema version as it is, in the writer's next
// transaction: a one-page write and a commit to the disk, like a move's.
func (s *DB) Probe(ctx context.Context) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		// PRAGMA takes no parameters; the version is an int.
		_, err := w.exec(fmt.Sprintf("PRAGMA user_version = %d", len(sqliteMigrations)))
		return err
	})
}

// Unavailable is Unavailable for the SQLite store's errors: the
// driver's codes for a file that cannot be written, and a closed store.
// A deadline or a cancellation is not news of the store (Unavailable
// says so first).
func Unavailable(err error) (reason string, ok bool) {
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
	if errors.Is(err, ErrClosed) {
		return "the store is closed", true
	}
	return "", false
}
