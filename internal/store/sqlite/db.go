package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/url"
	"path/filepath"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
)

// DB is a Store in a SQLite file, for one server: games survive a
// restart, a crash or a SIGKILL of the process, a power cut or a crash of
// the machine (WAL mode with synchronous=FULL: a change is on the disk,
// in the write-ahead log, when its call returns).
//
// One server a file: a second process on the same file is not supported
// and not tested. SQLite's locks would keep the file whole, but neither
// server would hear of the changes the other made to the games it holds
// live (SQLite is no Notifier), and each writer would wait on the other's
// locks. Several servers share a Postgres instead. Backups of a file in
// use are made with `sqlite3 FILE ".backup COPY"` or VACUUM INTO, not by
// copying the file.
//
// Changes go through one writer goroutine that commits all the changes
// queued at once in one transaction (see writer.go); reads use a
// small pool of read-only connections, which WAL lets run beside the
// writer. No game is cached in Go memory: SQLite's own page cache is
// bounded (sqliteCacheKiB a connection).
//
// The zero DB is not usable; open one with Open. It is safe for
// concurrent use.
type DB struct {
	path     string
	wdb, rdb *sql.DB // the writer's pool of one, the readers' pool
	w        *sqliteWriter
	maxBatch int
	get      *sql.Stmt // on rdb: prepared once a read connection, as database/sql does
	waiting  *sql.Stmt

	ops       chan *sqliteOp
	closing   chan struct{} // closed by Close: the writer stops
	stopped   chan struct{} // closed by the writer when it has stopped
	closeOnce sync.Once
	now       func() time.Time
}

// Sizes of the SQLite store's pools and caches.
const (
	sqliteReaders  = 4    // read connections; WAL readers do not block the writer
	sqliteCacheKiB = 4096 // page cache a connection: 5 connections, 20 MiB at most
	sqliteMaxBatch = 256  // changes committed in one transaction at most
)

// Open opens the SQLite file at path, creating it if it does not
// exist (its directory must exist), and brings its schema to the latest
// version. log, which may be nil, hears of migrations.
func Open(ctx context.Context, path string, log *slog.Logger) (*DB, error) {
	s, err := openSQLite(ctx, path, len(sqliteMigrations), sqliteMaxBatch, log)
	if err != nil {
		return nil, fmt.Errorf("store: SQLite file %s: %w", path, err)
	}
	return s, nil
}

// openSQLite opens path and migrates it to schema version upTo (tests
// make files at older versions with it); the writer commits at most
// maxBatch changes a transaction (1 turns group commit off, for
// comparison).
func openSQLite(ctx context.Context, path string, upTo, maxBatch int, log *slog.Logger) (*DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	s := &DB{
		path:     abs,
		maxBatch: maxBatch,
		ops:      make(chan *sqliteOp),
		closing:  make(chan struct{}),
		stopped:  make(chan struct{}),
		now:      time.Now,
	}
	if err := s.openPools(ctx, upTo, log); err != nil {
		s.closePools()
		return nil, err
	}
	go s.run()
	return s, nil
}

// sqliteDSN is the modernc.org/sqlite name of the file at the absolute
// path abs with the given pragmas. The path is a file: URI, escaped, so
// that a '?' or '%' in it stays part of the name.
func sqliteDSN(abs string, pragmas ...string) string {
	q := url.Values{"_pragma": pragmas}
	return "file:" + (&url.URL{Path: abs}).EscapedPath() + "?" + q.Encode()
}

// openPools opens the writer's connection, migrates, then opens the
// readers.
func (s *DB) openPools(ctx context.Context, upTo int, log *slog.Logger) error {
	// Before any connection that writes (journal_mode(WAL) below writes
	// at once): a file that is not ours, or is damaged, stays as it was.
	if err := checkSQLiteFile(ctx, s.path); err != nil {
		return err
	}
	common := []string{
		"busy_timeout(10000)",
		"foreign_keys(1)",
		fmt.Sprintf("cache_size(-%d)", sqliteCacheKiB),
		"mmap_size(0)", // keep the file out of the address space: RSS stays the page cache
	}
	wdb, err := sql.Open("sqlite", sqliteDSN(s.path, append(common,
		"journal_mode(WAL)",
		// FULL: each commit waits for the write-ahead log to reach the
		// disk, so that a change is durable when its call returns, across
		// a power cut or a kernel crash too (NORMAL would lose the last
		// commits before a checkpoint). Group commit (writer.go)
		// shares that one fsync among every change of a batch.
		"synchronous(FULL)",
		"journal_size_limit(67108864)", // truncate the WAL back to 64 MiB after a checkpoint
	)...))
	if err != nil {
		return err
	}
	s.wdb = wdb
	wdb.SetMaxOpenConns(1)
	wdb.SetConnMaxLifetime(0)
	conn, err := wdb.Conn(ctx)
	if err != nil {
		return err
	}
	s.w = &sqliteWriter{conn: conn, stmts: make(map[string]*sql.Stmt)}
	from, err := migrateSQLite(ctx, conn, upTo)
	if err != nil {
		return err
	}
	if from < upTo && from > 0 && log != nil {
		log.Info("store: migrated SQLite schema", "file", s.path, "from", from, "to", upTo)
	}
	rdb, err := sql.Open("sqlite", sqliteDSN(s.path, append(common, "query_only(1)")...))
	if err != nil {
		return err
	}
	s.rdb = rdb
	rdb.SetMaxOpenConns(sqliteReaders)
	rdb.SetMaxIdleConns(sqliteReaders)
	rdb.SetConnMaxLifetime(0)
	if upTo < len(sqliteMigrations) {
		return nil // an old schema, made for a test: only closed
	}
	// Get and Waiting are prepared: parsing them took as long as running them.
	if s.get, err = rdb.PrepareContext(ctx, sqliteGet); err != nil {
		return err
	}
	s.waiting, err = rdb.PrepareContext(ctx, `SELECT id FROM games WHERE waiting = 1 ORDER BY updated, id LIMIT ?`)
	return err
}

// Path returns the absolute path of the file.
func (s *DB) Path() string { return s.path }

// Close stops the writer, after the change it may be committing, and
// closes the file. Calls after Close return an error.
func (s *DB) Close() error {
	var err error
	s.closeOnce.Do(func() {
		close(s.closing)
		<-s.stopped
		err = s.closePools()
	})
	return err
}

func (s *DB) closePools() error {
	var errs []error
	if s.w != nil {
		for _, st := range s.w.stmts {
			st.Close()
		}
		errs = append(errs, s.w.conn.Close())
	}
	for _, st := range []*sql.Stmt{s.get, s.waiting} {
		if st != nil {
			st.Close()
		}
	}
	if s.rdb != nil {
		errs = append(errs, s.rdb.Close())
	}
	if s.wdb != nil {
		errs = append(errs, s.wdb.Close())
	}
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("store: closing %s: %w", s.path, err)
		}
	}
	return nil
}
