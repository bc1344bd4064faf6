package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"oanquan/internal/store"
)

// Finish records that the game has ended, and how, unless it is
// recorded.
func (p *DB) Finish(ctx context.Context, id string, r store.Result) error {
	tag, err := p.pool.Exec(ctx, `UPDATE games SET finished = coalesce(finished, $3::timestamptz, now()),
		result = CASE result WHEN 0 THEN $2 ELSE result END WHERE id = $1`, id, int16(r), p.at())
	if err != nil {
		return fmt.Errorf("store: game %q: finishing: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	return nil
}

// postgresExpire deletes the games due (Expiry.due, in SQL), with their
// moves (ON DELETE CASCADE), and returns their ids. FOR UPDATE SKIP
// LOCKED makes it safe beside the other servers: a game being changed
// is skipped, one changed since the statement began is checked again
// against the times (and kept), and servers expiring at once take
// different games. A NULL cutoff matches nothing.
const postgresExpire = `DELETE FROM games WHERE id IN (SELECT id FROM games WHERE
	(mode = 'online' AND (seat0 IS NULL OR seat1 IS NULL) AND nmoves = 0 AND updated < $1)
	OR (finished IS NULL AND updated < $2)
	OR (finished IS NOT NULL AND finished < $3 AND updated < $3)
	LIMIT $4 FOR UPDATE SKIP LOCKED) RETURNING id`

// Expire deletes the games due and their leases, in one transaction.
func (p *DB) Expire(ctx context.Context, e store.Expiry) ([]string, error) {
	ids := []string{}
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, postgresExpire, nullTime(e.Invitations), nullTime(e.Unfinished), nullTime(e.Finished), e.Limit)
		if err != nil {
			return err
		}
		if ids, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM leases WHERE game = ANY($1)`, ids)
		return err
	})
	if err != nil {
		return []string{}, fmt.Errorf("store: deleting old games: %w", err)
	}
	return ids, nil
}

// nullTime is t, or NULL for the zero time.
func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
