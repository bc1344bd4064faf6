package query

import ()

// The SQL of Profiles, on PostgreSQL; SQLite's is the same but for
// the parameters (sqliteParams). Results 1 to 4 are Won0, Won1, Drawn,
// Aborted. The account is the first parameter.
const (
	SqlResults = `SELECT
		count(*) FILTER (WHERE (result = 1 AND account0 = $1) OR (result = 2 AND account1 = $1)),
		count(*) FILTER (WHERE result = 3),
		count(*) FILTER (WHERE (result = 2 AND account0 = $1) OR (result = 1 AND account1 = $1))
		FROM games WHERE (account0 = $1 OR account1 = $1) AND mode = 'online' AND result IN (1, 2, 3)
		AND coalesce(account0, '') <> coalesce(account1, '')`
	SqlUnresulted = `SELECT id FROM games WHERE (account0 = $1 OR account1 = $1) AND mode = 'online'
		AND finished IS NOT NULL AND result = 0 ORDER BY id LIMIT $2`
	// The last $2 of each speed, oldest first.
	SqlRatingHistory = `SELECT speed, game, at, after::text FROM (
		SELECT speed, game, at, after, row_number() OVER (PARTITION BY speed ORDER BY at DESC, game DESC) AS n
		FROM rating_history WHERE account = $1) AS h
		WHERE n <= $2 ORDER BY speed, at, game`
)
