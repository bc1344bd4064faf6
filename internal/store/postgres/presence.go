package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"oanquan/internal/store"
)

// presenceChannel is the channel of the NOTIFY that every change of a
// post on the presence board sends: "STORE-NAME GAME", as for games.
const presenceChannel = "oanquan_presence"

// presenceNotify is the SQL that notifies the other stores of a change
// of the presence in game, from a query whose rows have a column game.
const presenceNotify = `pg_notify('` + presenceChannel + `', current_setting('application_name') || ' ' || game)`

// droppedSuffix names a server's second row on a game in the table
// presence: the seats whose last connection to it dropped (seat0, seat1;
// watchers 0), beside its row of the seats and watchers connected. Kept
// apart, so that the table needs no column for them.
const droppedSuffix = " dropped"

// PostPresence replaces server's post on game, in the table presence:
// its row of who is connected, and its row of the seats dropped (each
// deleted when it has nothing to say).
func (p *DB) PostPresence(ctx context.Context, game, server string, pr store.Presence, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := p.postRow(ctx, game, server, store.Presence{Seats: pr.Seats, Watchers: pr.Watchers}, ttl); err != nil {
		return err
	}
	return p.postRow(ctx, game, server+droppedSuffix, store.Presence{Seats: pr.Dropped}, ttl)
}

// postRow replaces the row (game, server) with pr's seats and watchers,
// or deletes it when they are none.
func (p *DB) postRow(ctx context.Context, game, server string, pr store.Presence, ttl time.Duration) error {
	var err error
	if pr == (store.Presence{}) {
		_, err = p.pool.Exec(ctx, `WITH d AS (
				DELETE FROM presence WHERE game = $1 AND server = $2 RETURNING game
			)
			SELECT `+presenceNotify+` FROM d`, game, server)
	} else {
		_, err = p.pool.Exec(ctx, `WITH u AS (
				INSERT INTO presence (game, server, seat0, seat1, watchers, until)
				VALUES ($1, $2, $3, $4, $5, coalesce($7::timestamptz, now()) + make_interval(secs => $6))
				ON CONFLICT (game, server) DO UPDATE SET seat0 = excluded.seat0,
					seat1 = excluded.seat1, watchers = excluded.watchers, until = excluded.until
				RETURNING game
			)
			SELECT `+presenceNotify+` FROM u`,
			game, server, pr.Seats[0], pr.Seats[1], pr.Watchers, ttl.Seconds(), p.at())
	}
	if err != nil {
		return fmt.Errorf("store: game %q: posting presence: %w", game, err)
	}
	return nil
}

// Presence adds up the other servers' posts on game that have not run
// out.
func (p *DB) Presence(ctx context.Context, game, server string) (store.Presence, error) {
	if err := ctx.Err(); err != nil {
		return store.Presence{}, err
	}
	var here, dropped store.Presence
	err := p.pool.QueryRow(ctx, `SELECT
			coalesce(bool_or(seat0) FILTER (WHERE NOT d), false), coalesce(bool_or(seat1) FILTER (WHERE NOT d), false),
			coalesce(sum(watchers) FILTER (WHERE NOT d), 0),
			coalesce(bool_or(seat0) FILTER (WHERE d), false), coalesce(bool_or(seat1) FILTER (WHERE d), false)
		FROM (SELECT *, right(server, $4) = $3 AS d FROM presence
			WHERE game = $1 AND server <> $2 AND server <> $2 || $3 AND until > coalesce($5::timestamptz, now())) AS p`,
		game, server, droppedSuffix, len(droppedSuffix), p.at()).
		Scan(&here.Seats[0], &here.Seats[1], &here.Watchers, &dropped.Seats[0], &dropped.Seats[1])
	if err != nil {
		return store.Presence{}, fmt.Errorf("store: game %q: reading presence: %w", game, err)
	}
	return here.Add(store.Presence{Dropped: dropped.Seats}), nil
}

// RenewPresence renews server's posts, then takes down the posts that
// have run out, notifying the other stores once for each game.
func (p *DB) RenewPresence(ctx context.Context, server string, ttl time.Duration) (int, []string, error) {
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	tag, err := p.pool.Exec(ctx, `UPDATE presence SET until = coalesce($4::timestamptz, now()) + make_interval(secs => $2)
		WHERE server = $1 OR server = $1 || $3`, server, ttl.Seconds(), droppedSuffix, p.at())
	if err != nil {
		return 0, nil, fmt.Errorf("store: renewing presence: %w", err)
	}
	rows, _ := p.pool.Query(ctx, `WITH d AS (
			DELETE FROM presence WHERE until <= coalesce($1::timestamptz, now()) RETURNING game
		)
		SELECT game, `+presenceNotify+` FROM (SELECT DISTINCT game FROM d) AS g ORDER BY game`, p.at())
	expired, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (string, error) {
		var game string
		return game, row.Scan(&game, nil)
	})
	if err != nil {
		return int(tag.RowsAffected()), nil, fmt.Errorf("store: taking down presence run out: %w", err)
	}
	return int(tag.RowsAffected()), expired, nil
}

// DropPresence takes down every post of server.
func (p *DB) DropPresence(ctx context.Context, server string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := p.pool.Exec(ctx, `WITH d AS (
			DELETE FROM presence WHERE server = $1 OR server = $1 || $2 RETURNING game
		)
		SELECT `+presenceNotify+` FROM d`, server, droppedSuffix)
	if err != nil {
		return fmt.Errorf("store: taking down presence: %w", err)
	}
	return nil
}
