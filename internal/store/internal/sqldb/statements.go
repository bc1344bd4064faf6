package sqldb

import "strings"

// The statements the SQLite and PostgreSQL stores share, in PostgreSQL's
// parameters ($1, $2…); SQLite's are the same through SQLite.

// The SQL of Profiles. Results 1 to 4 are Won0, Won1, Drawn, Aborted.
// The account is the first parameter.
const (
	Results = `SELECT
		count(*) FILTER (WHERE (result = 1 AND account0 = $1) OR (result = 2 AND account1 = $1)),
		count(*) FILTER (WHERE result = 3),
		count(*) FILTER (WHERE (result = 2 AND account0 = $1) OR (result = 1 AND account1 = $1))
		FROM games WHERE (account0 = $1 OR account1 = $1) AND mode = 'online' AND result IN (1, 2, 3)
		AND coalesce(account0, '') <> coalesce(account1, '')`
	Unresulted = `SELECT id FROM games WHERE (account0 = $1 OR account1 = $1) AND mode = 'online'
		AND finished IS NOT NULL AND result = 0 ORDER BY id LIMIT $2`
	// The last $2 of each speed, oldest first.
	RatingHistory = `SELECT speed, game, at, after::text FROM (
		SELECT speed, game, at, after, row_number() OVER (PARTITION BY speed ORDER BY at DESC, game DESC) AS n
		FROM rating_history WHERE account = $1) AS h
		WHERE n <= $2 ORDER BY speed, at, game`
)

// Leaderboard is the SQL of Leaderboards: the speed, the earliest
// update, the largest RD and the limit.
const Leaderboard = `SELECT r.account, a.username, r.rating, r.rd, r.volatility, r.games, r.updated
	FROM ratings r JOIN accounts a ON a.id = r.account
	WHERE r.speed = $1 AND r.updated >= $2 AND r.rd <= $3 AND a.username <> ''
	ORDER BY r.rating DESC, a.username LIMIT $4`

// ReportColumns are the columns of a report, in Report's order.
const ReportColumns = `id, reporter, reporter_name, address, reported, reported_name, reason, game, created`

// SeekColumns are the columns of a seek, as the stores scan them.
const SeekColumns = `id, account, key, address, initial, increment, days, rated, min, max, speed, created, expires, COALESCE(game, ''), seat, acceptor, pool, rating, holder, held, poster, wide`

// The statements of PlayerGames: an account's games created before a
// time, newest first (the account, the time, the limit), and its rated
// games in play (the account).
const (
	GamesOf     = `SELECT id FROM games WHERE (account0 = $1 OR account1 = $1) AND created < $2 ORDER BY created DESC, id LIMIT $3`
	RatedInPlay = `SELECT id FROM games WHERE (account0 = $1 OR account1 = $1) AND account0 IS NOT NULL AND account1 IS NOT NULL
		AND rated != '' AND rating_change = '' AND finished IS NULL ORDER BY id`
)

// The statements of Reports: a new report (ReportColumns), the reports
// since a time, newest first (the time, the limit), and the count of an
// account's reports since a time (the account, the time).
const (
	InsertReport = `INSERT INTO reports (` + ReportColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`
	Reports      = `SELECT ` + ReportColumns + ` FROM reports WHERE created >= $1 ORDER BY created DESC, id LIMIT $2`
	CountReports = `SELECT count(*) FROM reports WHERE reporter = $1 AND created >= $2`
)

// The reads of Blocks: whom an account blocks, in the order blocked, and
// whom it blocks or is blocked by (the account).
const (
	Blocked     = `SELECT blocked FROM blocks WHERE account = $1 ORDER BY created, blocked`
	BlockedWith = `SELECT blocked FROM blocks WHERE account = $1 UNION SELECT account FROM blocks WHERE blocked = $1`
)

// The statements of Accounts.EndRated: the game as EndRating reads it
// (PostgreSQL adds FOR UPDATE), a seat's rating, the new rating, and its
// row in the history. Times are the stores' own (nanoseconds in SQLite).
const (
	SelectRated  = `SELECT coalesce(account0, ''), coalesce(account1, ''), rated, status, nmoves, rating_change FROM games WHERE id = $1`
	SelectRating = `SELECT rating, rd, volatility, games, updated FROM ratings WHERE account = $1 AND speed = $2`
	UpsertRating = `INSERT INTO ratings (account, speed, rating, rd, volatility, games, updated) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (account, speed) DO UPDATE SET rating = $3, rd = $4, volatility = $5, games = $6, updated = $7`
	InsertRatingHistory = `INSERT INTO rating_history (game, seat, account, speed, before, after, at) VALUES ($1, $2, $3, $4, $5, $6, $7)`
)

// SQLite writes PostgreSQL's parameters $1, $2… as SQLite's ?1, ?2…, and
// its casts to text as nothing (SQLite keeps JSON as text).
func SQLite(q string) string {
	return strings.ReplaceAll(strings.ReplaceAll(q, "$", "?"), "::text", "")
}
