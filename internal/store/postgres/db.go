package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DB is a Store in a PostgreSQL database that several servers
// share. Every change is one transaction that also notifies the channel
// oanquan_games with the name of the store that made it and the game's id
// (NOTIFY is delivered on commit), and Changes tells a server of the
// changes the others made: DB is also a store.Notifier. It is a
// PresenceBoard too, whose posts are told of in the same way (channel
// oanquan_presence). Times (Updated, the leases' ends, the posts' ends)
// come from the database's clock, which all servers share, and are kept
// to the microsecond.
//
// Changes to one game are serialized by its row in games: each change
// updates that row first (locking it) and checks the number of moves
// there, so of two servers appending at the same index exactly one
// succeeds, and the other gets ErrConflict.
//
// The zero DB is not usable; open one with Open. It is safe
// for concurrent use.
type DB struct {
	pool   *pgxpool.Pool
	log    *slog.Logger
	done   context.Context // canceled by Close: Changes stops
	cancel context.CancelFunc
	name   string // this store's application_name, which its notices carry
	// now, set only by tests (export_test.go), is the clock the
	// statements read instead of the database's: nil, they read now().
	now func() time.Time
}

// at is the time a statement takes as now, written
// coalesce($n::timestamptz, now()): NULL, the database's clock, unless a
// test set the store's clock.
func (p *DB) at() *time.Time {
	if p.now == nil {
		return nil
	}
	t := p.now()
	return &t
}

// notifyChannel is the channel of the NOTIFY that every change sends.
const notifyChannel = "oanquan_games"

// Open connects to the database at url (postgres://… or any
// form pgx accepts), and brings its schema to the latest version. log,
// which may be nil, hears of migrations and of the listener's lost
// connections.
func Open(ctx context.Context, url string, log *slog.Logger) (*DB, error) {
	return openPostgres(ctx, url, len(postgresMigrations), log)
}

// openPostgres opens url and migrates to schema version upTo.
func openPostgres(ctx context.Context, url string, upTo int, log *slog.Logger) (*DB, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message may quote the URL, password and all: keep it out.
		return nil, errors.New("store: PostgreSQL URL: cannot parse it (want postgres://USER:PASSWORD@HOST:PORT/DATABASE)")
	}
	if !strings.Contains(url, "pool_max_conns") {
		// pgxpool's default, max(4, cores), is too few: a request holds
		// a connection for a round trip, and with the cores busy
		// searching a round trip takes longer (docs/OPERATING.md).
		cfg.MaxConns = defaultPoolConns
	}
	// The notices name the store that made the change, so that its own
	// Changes can skip them: it knows of its own changes already.
	name := "oanquan " + randomName()
	cfg.ConnConfig.RuntimeParams["application_name"] = name
	cfg.AfterConnect = durableCommits
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: PostgreSQL: %w", err)
	}
	from, err := migratePostgres(ctx, pool, upTo)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: PostgreSQL %s: %w", Describe(cfg.ConnConfig), err)
	}
	if from < upTo && from > 0 {
		log.Info("store: migrated PostgreSQL schema", "from", from, "to", upTo)
	}
	var fsync string
	if err := pool.QueryRow(ctx, "SHOW fsync").Scan(&fsync); err == nil && fsync == "off" {
		log.Warn("store: PostgreSQL runs with fsync off: answered moves may be lost if its machine stops")
	}
	done, cancel := context.WithCancel(context.Background())
	return &DB{pool: pool, log: log, done: done, cancel: cancel, name: name}, nil
}

// durableCommits makes conn answer a commit once it is on the disk,
// whatever the server's, database's or role's default: synchronous_commit
// off is raised to on (local, remote_write and remote_apply, which all
// wait for the local disk, are kept). PostgreSQL shares one WAL flush among the commits
// waiting for it: group commit.
func durableCommits(ctx context.Context, conn *pgx.Conn) error {
	var level string
	if err := conn.QueryRow(ctx, "SHOW synchronous_commit").Scan(&level); err != nil {
		return err
	}
	if level == "off" {
		_, err := conn.Exec(ctx, "SET synchronous_commit = on")
		return err
	}
	return nil
}

// defaultPoolConns is the size of the connection pool unless the URL
// sets pool_max_conns.
const defaultPoolConns = 16

// notifyPayload is the SQL of a notice's text: the name of the store that
// made the change (its connections' application_name), a space, and the
// game's id.
const notifyPayload = "current_setting('application_name') || ' ' || id"

// randomName returns 12 random hexadecimal digits.
func randomName() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Describe names the database of cfg without its password.
func Describe(cfg *pgx.ConnConfig) string {
	return fmt.Sprintf("database %q on %s:%d as user %q", cfg.Database, cfg.Host, cfg.Port, cfg.User)
}

// Close stops the listeners and closes the connections.
func (p *DB) Close() error {
	p.cancel()
	p.pool.Close()
	return nil
}
