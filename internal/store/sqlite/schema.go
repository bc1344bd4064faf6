package sqlite

import (
	"context"
	"database/sql"
	"fmt"
)

// sqliteMigrations brings a SQLite file from schema version i to i+1
// (PRAGMA user_version); a new file is at version 0. Do not edit or
// reorder an entry once it has shipped: files in the wild are at every
// version. Add a new entry at the end instead.
var sqliteMigrations = []string{
	// v1: games and their moves, one row a move.
	`CREATE TABLE games (
		id       TEXT PRIMARY KEY,
		mode     TEXT NOT NULL,
		level    TEXT NOT NULL,
		human    INTEGER NOT NULL,
		seed     INTEGER NOT NULL, -- the uint64 seed's bits, as a signed integer
		variants TEXT NOT NULL,    -- a JSON array of names
		first    INTEGER NOT NULL,
		start    TEXT NOT NULL,
		nmoves   INTEGER NOT NULL DEFAULT 0, -- the number of rows in moves, kept by every change
		created  INTEGER,          -- Unix nanoseconds; NULL for the zero time
		updated  INTEGER NOT NULL  -- Unix nanoseconds
	) WITHOUT ROWID;
	CREATE TABLE moves (
		game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
		idx  INTEGER NOT NULL,
		move TEXT NOT NULL,
		PRIMARY KEY (game, idx)
	) WITHOUT ROWID;`,

	// v2: seats, the computer's turn and the leases on it.
	`ALTER TABLE games ADD COLUMN seat0 BLOB;
	ALTER TABLE games ADD COLUMN seat1 BLOB;
	ALTER TABLE games ADD COLUMN waiting INTEGER NOT NULL DEFAULT 0;
	CREATE INDEX games_waiting ON games (updated, id) WHERE waiting = 1;
	CREATE TABLE leases (
		game  TEXT PRIMARY KEY,
		owner TEXT NOT NULL,
		until INTEGER NOT NULL -- Unix nanoseconds
	) WITHOUT ROWID;`,

	// v3: the status of games between players online.
	`ALTER TABLE games ADD COLUMN status TEXT NOT NULL DEFAULT '';`,

	// v4: the mark of this store's files (sqliteAppID), checked before
	// a file is used (checkSQLiteFile).
	`PRAGMA application_id = 1329679953;`,

	// v5: when a game ended (Finish), for retention (Expire).
	`ALTER TABLE games ADD COLUMN finished INTEGER; -- Unix nanoseconds; NULL while it goes on
	CREATE INDEX games_unfinished ON games (updated) WHERE finished IS NULL;
	CREATE INDEX games_finished ON games (finished) WHERE finished IS NOT NULL;
	-- Which of the games already saved are over is not known here: they
	-- are all kept as long as finished games, rather than lose a year's
	-- records to the shorter time of unfinished ones.
	UPDATE games SET finished = updated;`,

	// v6: clocks (issue 20): a clocked game's clock as the server writes
	// it, saved with each move, and the deadline of its side to move,
	// indexed for Overdue.
	`ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT '';
	ALTER TABLE games ADD COLUMN deadline INTEGER; -- Unix nanoseconds; NULL while no clock runs
	ALTER TABLE moves ADD COLUMN clock TEXT; -- the clock after the move; NULL: none
	CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL AND finished IS NULL;`,

	// v7: accounts, their sessions and ratings (issue 21), and the
	// accounts that play a game's seats. A deleted account keeps its
	// row (the games name its id) with no name, key or hash.
	`CREATE TABLE accounts (
		id       TEXT PRIMARY KEY,
		username TEXT NOT NULL,  -- as typed, NFC; '' once deleted
		ukey     TEXT UNIQUE,    -- account.UsernameKey; NULL once deleted
		hash     TEXT NOT NULL,  -- argon2id, PHC string; '' once deleted
		created  INTEGER NOT NULL, -- Unix nanoseconds
		deleted  INTEGER         -- Unix nanoseconds; NULL while it lives
	) WITHOUT ROWID;
	CREATE TABLE sessions (
		key     BLOB PRIMARY KEY, -- SHA-256 of the token
		account TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
		created INTEGER NOT NULL,
		used    INTEGER NOT NULL,
		expires INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX sessions_account ON sessions (account);
	CREATE TABLE ratings (
		account    TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
		speed      TEXT NOT NULL,
		rating     REAL NOT NULL,
		rd         REAL NOT NULL,
		volatility REAL NOT NULL,
		games      INTEGER NOT NULL,
		updated    INTEGER NOT NULL,
		PRIMARY KEY (account, speed)
	) WITHOUT ROWID;
	CREATE TABLE rating_history (
		game    TEXT NOT NULL, -- no reference: the history outlives the game's retention
		seat    INTEGER NOT NULL,
		account TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
		speed   TEXT NOT NULL,
		before  TEXT NOT NULL, -- the rating before, as JSON
		after   TEXT NOT NULL, -- and after
		at      INTEGER NOT NULL,
		PRIMARY KEY (game, seat)
	) WITHOUT ROWID;
	CREATE INDEX rating_history_account ON rating_history (account, speed, at);
	ALTER TABLE games ADD COLUMN account0 TEXT;
	ALTER TABLE games ADD COLUMN account1 TEXT;
	ALTER TABLE games ADD COLUMN rated TEXT NOT NULL DEFAULT ''; -- the speed; '' casual
	ALTER TABLE games ADD COLUMN rating_change TEXT NOT NULL DEFAULT ''; -- RatingChange as JSON once rated`,

	// v8: the lobby's seeks (issue 21). A seek is accepted by one
	// conditional UPDATE … WHERE game IS NULL (Seeks.AcceptSeek).
	`CREATE TABLE seeks (
		id        TEXT PRIMARY KEY,
		account   TEXT NOT NULL DEFAULT '', -- the poster's; '' anonymous
		key       BLOB NOT NULL,            -- SHA-256 of the poster's secret
		address   TEXT NOT NULL,
		initial   INTEGER NOT NULL,
		increment INTEGER NOT NULL,
		days      INTEGER NOT NULL,
		rated     INTEGER NOT NULL,
		min       INTEGER NOT NULL,
		max       INTEGER NOT NULL,
		speed     TEXT NOT NULL,
		created   INTEGER NOT NULL, -- Unix nanoseconds
		expires   INTEGER NOT NULL,
		game      TEXT,             -- NULL while open
		seat      INTEGER NOT NULL DEFAULT 0,
		acceptor  TEXT NOT NULL DEFAULT '',
		pool      INTEGER NOT NULL DEFAULT 0, -- a ticket of quick pairing
		rating    REAL NOT NULL DEFAULT 0 -- its poster's rating, for pairing
	) WITHOUT ROWID;
	CREATE INDEX seeks_open ON seeks (created) WHERE game IS NULL;
	CREATE INDEX seeks_expires ON seeks (expires);`,

	// v9: a seek's hold, a lease (Seeks.HoldSeeks): the server whose
	// socket last renewed it, and until when (Unix nanoseconds; 0 never
	// held). A lapsed hold is swept (Seeks.SweepSeeks). And the poster's
	// lobby key, hashed, so that no one accepts their own seek.
	`ALTER TABLE seeks ADD COLUMN holder TEXT NOT NULL DEFAULT '';
	ALTER TABLE seeks ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
	-- the SHA-256 of the poster's lobby key (a browser's random id); empty for none
	ALTER TABLE seeks ADD COLUMN poster BLOB NOT NULL DEFAULT x'';
	CREATE INDEX seeks_held ON seeks (held) WHERE game IS NULL AND held > 0;
	-- who blocked whom (accounts' ids): never paired (Blocks)
	CREATE TABLE blocks (
		account TEXT NOT NULL,
		blocked TEXT NOT NULL,
		created INTEGER NOT NULL, -- Unix nanoseconds
		PRIMARY KEY (account, blocked)
	) WITHOUT ROWID;
	CREATE INDEX blocks_blocked ON blocks (blocked);
	-- players' reports of players, for operators (Reports)
	CREATE TABLE reports (
		id       TEXT PRIMARY KEY,
		reporter TEXT NOT NULL, -- the reporter's account id; '' anonymous
		reporter_name TEXT NOT NULL,
		address  TEXT NOT NULL,
		reported TEXT NOT NULL, -- the reported account's id
		reported_name TEXT NOT NULL,
		reason   TEXT NOT NULL,
		game     TEXT NOT NULL,
		created  INTEGER NOT NULL -- Unix nanoseconds
	) WITHOUT ROWID;
	CREATE INDEX reports_created ON reports (created);
	CREATE INDEX reports_reporter ON reports (reporter, created);`,

	// v10: how a game ended (Result: 1 seat 0 won, 2 seat 1 won, 3 a
	// draw, 4 aborted; 0 none), for players' profiles, and the indexes
	// by which a player's games are found. Games that ended before keep
	// 0: the server works theirs out when a profile first needs them
	// (Profiles.Unresulted).
	`ALTER TABLE games ADD COLUMN result INTEGER NOT NULL DEFAULT 0;
	CREATE INDEX games_account0 ON games (account0, created) WHERE account0 IS NOT NULL;
	CREATE INDEX games_account1 ON games (account1, created) WHERE account1 IS NOT NULL;`,

	// v11: the preset phrases each seat of a game has said (Phrases):
	// how many, and when the last.
	`CREATE TABLE phrases (
		game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
		seat INTEGER NOT NULL,
		said INTEGER NOT NULL,
		last INTEGER NOT NULL, -- Unix nanoseconds
		PRIMARY KEY (game, seat)
	) WITHOUT ROWID;`,

	// v12: token buckets of limits that hold over every server sharing
	// the store (Buckets): wrong passwords per username, sign-ins and
	// sign-ups per address.
	`CREATE TABLE buckets (
		key     TEXT PRIMARY KEY,
		tokens  REAL NOT NULL,
		updated INTEGER NOT NULL, -- Unix nanoseconds
		rate    REAL NOT NULL,    -- tokens a second
		burst   INTEGER NOT NULL
	) WITHOUT ROWID;`,

	// v13: a seek's wider network (an IPv6 poster's /48), whose open
	// seeks are counted as an address's are (Seeks.CreateSeekWithin).
	`ALTER TABLE seeks ADD COLUMN wide TEXT NOT NULL DEFAULT '';
	CREATE INDEX seeks_wide ON seeks (wide) WHERE game IS NULL;`,
}

// migrateSQLite brings the database on conn to schema version upTo, one
// transaction a version, and returns the version it found.
func migrateSQLite(ctx context.Context, conn *sql.Conn, upTo int) (from int, err error) {
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&from); err != nil {
		return 0, fmt.Errorf("reading the schema version: %w", err)
	}
	if from > len(sqliteMigrations) {
		return from, fmt.Errorf("schema version %d is newer than this program knows (%d): use a newer oanquan", from, len(sqliteMigrations))
	}
	for v := from; v < upTo; v++ {
		if err := migrateSQLiteStep(ctx, conn, v); err != nil {
			return from, fmt.Errorf("migrating the schema from version %d to %d: %w", v, v+1, err)
		}
	}
	return from, nil
}

// migrateSQLiteStep runs migration v (to version v+1) in a transaction.
func migrateSQLiteStep(ctx context.Context, conn *sql.Conn, v int) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, sqliteMigrations[v]); err != nil {
		return err
	}
	// PRAGMA takes no parameters; v+1 is an int, so this is safe.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
		return err
	}
	return tx.Commit()
}
