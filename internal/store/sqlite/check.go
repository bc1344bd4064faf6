package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// sqliteAppID marks the files this store makes (PRAGMA application_id,
// bytes 68–71 of the file's header): "OANQ".
const sqliteAppID = 0x4F414E51

// sqliteTables are the tables this store makes, at every schema version.
var sqliteTables = []string{"games", "leases", "moves"}

// checkSQLiteFile refuses, before anything is written to it, a file at
// path that is not this store's (another program's database, or no
// database at all), one made by a newer oanquan, or one damaged
// (PRAGMA quick_check, which reads the whole file: 64–83 ms for 100,000
// games of 4 moves, 14 MB, TestSQLiteCheckTime). It reads the file read-only and
// leaves it as it was. A file that does not exist, or is empty, is a new
// one.
func checkSQLiteFile(ctx context.Context, path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	header := make([]byte, 16)
	n, err := io.ReadFull(f, header)
	f.Close()
	switch {
	case n == 0:
		return nil // empty: SQLite makes a new database in it
	case err != nil || !bytes.Equal(header, []byte("SQLite format 3\x00")):
		return errors.New("not a database (it does not begin as a SQLite file does): refused, and left untouched; give --db another file")
	}
	db, err := sql.Open("sqlite", sqliteDSN(path)+"&mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("reading it: %w", err)
	}
	defer conn.Close()
	if err := checkSQLiteOwner(ctx, conn); err != nil {
		return err
	}
	return checkSQLiteWhole(ctx, conn)
}

// checkSQLiteOwner refuses a database that this store did not make, or
// that a newer oanquan did. A file of an oanquan from before the mark
// (application_id 0) is known by its schema version and tables.
func checkSQLiteOwner(ctx context.Context, conn *sql.Conn) error {
	var app, version int
	if err := conn.QueryRowContext(ctx, "PRAGMA application_id").Scan(&app); err != nil {
		return fmt.Errorf("reading it: %w", err)
	}
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("reading it: %w", err)
	}
	tables, err := sqliteTableNames(ctx, conn)
	if err != nil {
		return fmt.Errorf("reading it: %w", err)
	}
	ours := app == sqliteAppID ||
		app == 0 && version == 0 && len(tables) == 0 || // an empty database
		app == 0 && version > 0 && slices.Contains(tables, "games") && subset(tables, sqliteTables)
	if !ours {
		return fmt.Errorf("not an oanquan database (application_id %#x, schema version %d, tables %s): refused, and left untouched; give --db another file",
			app, version, describeTables(tables))
	}
	if version > len(sqliteMigrations) {
		return fmt.Errorf("schema version %d is newer than this program knows (%d): use a newer oanquan (the file is left untouched)", version, len(sqliteMigrations))
	}
	return nil
}

// checkSQLiteWhole refuses a damaged database, saying where the damage
// is as SQLite reports it.
func checkSQLiteWhole(ctx context.Context, conn *sql.Conn) error {
	rows, err := conn.QueryContext(ctx, "PRAGMA quick_check(5)")
	if err != nil {
		return fmt.Errorf("damaged: %w: refused, and left untouched; restore it from a backup (docs/OPERATING.md)", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return err
		}
		if p != "ok" {
			problems = append(problems, p)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("damaged: %w: refused, and left untouched; restore it from a backup (docs/OPERATING.md)", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("damaged (%s): refused, and left untouched; restore it from a backup (docs/OPERATING.md)", strings.Join(problems, "; "))
	}
	return nil
}

func sqliteTableNames(ctx context.Context, conn *sql.Conn) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	return scanIDs(rows) // names, not ids: one text column all the same
}

// subset reports whether every one of names is in of.
func subset(names, of []string) bool {
	for _, n := range names {
		if !slices.Contains(of, n) {
			return false
		}
	}
	return true
}

// describeTables names at most five tables, for an error.
func describeTables(names []string) string {
	switch {
	case len(names) == 0:
		return "none"
	case len(names) > 5:
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d more", len(names)-5)
	}
	return strings.Join(names, ", ")
}
