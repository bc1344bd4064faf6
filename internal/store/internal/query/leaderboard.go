package query

import ()

const LeaderQuery = `SELECT r.account, a.username, r.rating, r.rd, r.volatility, r.games, r.updated
	FROM ratings r JOIN accounts a ON a.id = r.account
	WHERE r.speed = $1 AND r.updated >= $2 AND r.rd <= $3 AND a.username <> ''
	ORDER BY r.rating DESC, a.username LIMIT $4`
