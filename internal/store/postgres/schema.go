package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// postgresMigrations brings a database from schema version i to i+1 (the
// one row of oanquan_schema; a new database is at version 0). Do not edit
// or reorder an entry once it has shipped; add new ones at the end.
var postgresMigrations = []string{
	// v1: games and their moves, one row a move.
	`CREATE TABLE games (
		id       text PRIMARY KEY,
		mode     text NOT NULL,
		level    text NOT NULL,
		human    integer NOT NULL,
		seed     bigint NOT NULL, -- the uint64 seed's bits, as a signed integer
		variants text[] NOT NULL,
		first    integer NOT NULL,
		start    text NOT NULL,
		nmoves   integer NOT NULL DEFAULT 0, -- the number of rows in moves, kept by every change
		created  timestamptz,
		updated  timestamptz NOT NULL
	);
	CREATE TABLE moves (
		game text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
		idx  integer NOT NULL,
		move text NOT NULL,
		PRIMARY KEY (game, idx)
	);`,

	// v2: seats, the computer's turn and the leases on it.
	`ALTER TABLE games ADD COLUMN seat0 bytea, ADD COLUMN seat1 bytea,
		ADD COLUMN waiting boolean NOT NULL DEFAULT false;
	CREATE INDEX games_waiting ON games (updated, id) WHERE waiting;
	CREATE TABLE leases (
		game  text PRIMARY KEY,
		owner text NOT NULL,
		until timestamptz NOT NULL
	);`,
	// v3: the status of games between players online.
	`ALTER TABLE games ADD COLUMN status text NOT NULL DEFAULT '';`,

	// v4: who is connected to which game through which server
	// (PresenceBoard). Unlogged: it is of the moment, so it costs no WAL;
	// after a crash it is empty, and the servers post again (a server
	// that renews fewer posts than it made posts them all anew). Only
	// the primary key: renewals change no indexed column (HOT updates),
	// and the table is small enough to scan for them.
	`CREATE UNLOGGED TABLE presence (
		game     text NOT NULL,
		server   text NOT NULL,
		seat0    boolean NOT NULL,
		seat1    boolean NOT NULL,
		watchers integer NOT NULL,
		until    timestamptz NOT NULL,
		PRIMARY KEY (game, server)
	);`,

	// v5: when a game ended (Finish), for retention (Expire).
	`ALTER TABLE games ADD COLUMN finished timestamptz;
	CREATE INDEX games_unfinished ON games (updated) WHERE finished IS NULL;
	CREATE INDEX games_finished ON games (finished) WHERE finished IS NOT NULL;
	-- Which of the games already saved are over is not known here: they
	-- are all kept as long as finished games, rather than lose a year's
	-- records to the shorter time of unfinished ones.
	UPDATE games SET finished = updated;`,

	// v6: clocks (issue 20): a clocked game's clock as the server writes
	// it, saved with each move, and the deadline of its side to move,
	// indexed for Overdue.
	`ALTER TABLE games ADD COLUMN clock text NOT NULL DEFAULT '', ADD COLUMN deadline timestamptz;
	ALTER TABLE moves ADD COLUMN clock text;
	CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL AND finished IS NULL;`,

	// v7: accounts, their sessions and ratings (issue 21), and the
	// accounts that play a game's seats. A deleted account keeps its
	// row (the games name its id) with no name, key or hash.
	`CREATE TABLE accounts (
		id       text PRIMARY KEY,
		username text NOT NULL,  -- as typed, NFC; '' once deleted
		ukey     text UNIQUE,    -- account.UsernameKey; NULL once deleted
		hash     text NOT NULL,  -- argon2id, PHC string; '' once deleted
		created  timestamptz NOT NULL,
		deleted  timestamptz
	);
	CREATE TABLE sessions (
		key     bytea PRIMARY KEY, -- SHA-256 of the token
		account text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
		created timestamptz NOT NULL,
		used    timestamptz NOT NULL,
		expires timestamptz NOT NULL
	);
	CREATE INDEX sessions_account ON sessions (account);
	CREATE TABLE ratings (
		account    text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
		speed      text NOT NULL,
		rating     double precision NOT NULL,
		rd         double precision NOT NULL,
		volatility double precision NOT NULL,
		games      integer NOT NULL,
		updated    timestamptz NOT NULL,
		PRIMARY KEY (account, speed)
	);
	CREATE TABLE rating_history (
		game    text NOT NULL, -- no reference: the history outlives the game's retention
		seat    integer NOT NULL,
		account text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
		speed   text NOT NULL,
		before  jsonb NOT NULL,
		after   jsonb NOT NULL,
		at      timestamptz NOT NULL,
		PRIMARY KEY (game, seat)
	);
	CREATE INDEX rating_history_account ON rating_history (account, speed, at);
	ALTER TABLE games ADD COLUMN account0 text, ADD COLUMN account1 text,
		ADD COLUMN rated text NOT NULL DEFAULT '', ADD COLUMN rating_change text NOT NULL DEFAULT '';`,

	// v8: the lobby's seeks (issue 21). A seek is accepted by one
	// conditional UPDATE … WHERE game IS NULL (Seeks.AcceptSeek).
	`CREATE TABLE seeks (
		id        text PRIMARY KEY,
		account   text NOT NULL DEFAULT '', -- the poster's; '' anonymous
		key       bytea NOT NULL,           -- SHA-256 of the poster's secret
		address   text NOT NULL,
		initial   integer NOT NULL,
		increment integer NOT NULL,
		days      integer NOT NULL,
		rated     boolean NOT NULL,
		min       integer NOT NULL,
		max       integer NOT NULL,
		speed     text NOT NULL,
		created   timestamptz NOT NULL,
		expires   timestamptz NOT NULL,
		game      text,                     -- NULL while open
		seat      integer NOT NULL DEFAULT 0,
		acceptor  text NOT NULL DEFAULT '',
		pool      boolean NOT NULL DEFAULT false, -- a ticket of quick pairing
		rating    double precision NOT NULL DEFAULT 0 -- its poster's rating, for pairing
	);
	CREATE INDEX seeks_open ON seeks (created) WHERE game IS NULL;
	CREATE INDEX seeks_expires ON seeks (expires);`,

	// v9: a seek's hold, a lease (Seeks.HoldSeeks): the server whose
	// socket last renewed it, and until when (NULL: never held). A
	// lapsed hold is swept by any server (Seeks.SweepSeeks). And the
	// poster's lobby key, hashed, so that no one accepts their own seek.
	`ALTER TABLE seeks ADD COLUMN holder text NOT NULL DEFAULT '', ADD COLUMN held timestamptz,
		ADD COLUMN poster bytea NOT NULL DEFAULT ''; -- SHA-256 of the poster's lobby key; empty for none
	CREATE INDEX seeks_held ON seeks (held) WHERE game IS NULL AND held IS NOT NULL;
	-- who blocked whom (accounts' ids): never paired (Blocks)
	CREATE TABLE blocks (
		account text NOT NULL,
		blocked text NOT NULL,
		created timestamptz NOT NULL,
		PRIMARY KEY (account, blocked)
	);
	CREATE INDEX blocks_blocked ON blocks (blocked);
	-- players' reports of players, for operators (Reports)
	CREATE TABLE reports (
		id       text PRIMARY KEY,
		reporter text NOT NULL, -- the reporter's account id; '' anonymous
		reporter_name text NOT NULL,
		address  text NOT NULL,
		reported text NOT NULL, -- the reported account's id
		reported_name text NOT NULL,
		reason   text NOT NULL,
		game     text NOT NULL,
		created  timestamptz NOT NULL
	);
	CREATE INDEX reports_created ON reports (created);
	CREATE INDEX reports_reporter ON reports (reporter, created);`,

	// v10: how a game ended (Result: 1 seat 0 won, 2 seat 1 won, 3 a
	// draw, 4 aborted; 0 none), for players' profiles, and the indexes
	// by which a player's games are found. Games that ended before keep
	// 0: the server works theirs out when a profile first needs them
	// (Profiles.Unresulted).
	`ALTER TABLE games ADD COLUMN result smallint NOT NULL DEFAULT 0;
	CREATE INDEX games_account0 ON games (account0, created) WHERE account0 IS NOT NULL;
	CREATE INDEX games_account1 ON games (account1, created) WHERE account1 IS NOT NULL;`,

	// v11: the preset phrases each seat of a game has said (Phrases):
	// how many, and when the last.
	`CREATE TABLE phrases (
		game text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
		seat integer NOT NULL,
		said integer NOT NULL,
		last timestamptz NOT NULL,
		PRIMARY KEY (game, seat)
	);`,

	// v12: token buckets of limits that hold over every server sharing
	// the store (Buckets): wrong passwords per username, sign-ins and
	// sign-ups per address.
	`CREATE TABLE buckets (
		key     text PRIMARY KEY,
		tokens  double precision NOT NULL,
		updated timestamptz NOT NULL,
		rate    double precision NOT NULL, -- tokens a second
		burst   integer NOT NULL
	);`,

	// v13: a seek's wider network (an IPv6 poster's /48), whose open
	// seeks are counted as an address's are (Seeks.CreateSeekWithin).
	`ALTER TABLE seeks ADD COLUMN wide text NOT NULL DEFAULT '';
	CREATE INDEX seeks_wide ON seeks (wide) WHERE game IS NULL;`,
}

// postgresMigrationLock is the pg_advisory_xact_lock key that servers
// starting at once take in turn, so that one migrates and the others
// find the work done. ("oanquan" in ASCII, as a number.)
const postgresMigrationLock = 0x6f616e7175616e

// migratePostgres brings the database to schema version upTo in one
// transaction (DDL is transactional in PostgreSQL) under an advisory
// lock, and returns the version it found.
func migratePostgres(ctx context.Context, pool *pgxpool.Pool, upTo int) (from int, err error) {
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(postgresMigrationLock)); err != nil {
			return err
		}
		// Each statement of a READ COMMITTED transaction sees what was
		// committed before it began: after the lock, another server's
		// finished migration.
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS oanquan_schema (version integer NOT NULL)`); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, `SELECT version FROM oanquan_schema`).Scan(&from)
		if err == pgx.ErrNoRows {
			from = 0
			_, err = tx.Exec(ctx, `INSERT INTO oanquan_schema (version) VALUES (0)`)
		}
		if err != nil {
			return err
		}
		if from > len(postgresMigrations) {
			return fmt.Errorf("schema version %d is newer than this program knows (%d): use a newer oanquan", from, len(postgresMigrations))
		}
		for v := from; v < upTo; v++ {
			if _, err := tx.Exec(ctx, postgresMigrations[v]); err != nil {
				return fmt.Errorf("migrating the schema from version %d to %d: %w", v, v+1, err)
			}
		}
		if from < upTo {
			_, err = tx.Exec(ctx, `UPDATE oanquan_schema SET version = $1`, upTo)
		}
		return err
	})
	return from, err
}
