package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"oanquan/internal/store"
	"oanquan/internal/store/internal/sqldb"
)

// Postgres error codes this store tells apart.
const (
	pgUniqueViolation     = "23505"
	pgForeignKeyViolation = "23503"
)

// pgCode returns the SQLSTATE of err, or "".
func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// Create saves g, with its moves, as a new game.
func (p *DB) Create(ctx context.Context, g store.Game) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var created *time.Time
	if !g.Created.IsZero() {
		created = &g.Created
	}
	args := []any{g.ID, g.Mode, g.Level, g.Human, int64(g.Seed), sqldb.NonNil(g.Variants), g.First, g.Start,
		sqldb.NonNil(g.Moves), g.Seats[0], g.Seats[1], bool(g.Waiting), created, g.Status, g.Clock.State, timeOrNull(g.Clock.Deadline)}
	cols, marks := "", ""
	if g.Accounts != [2]string{} || g.Rated != "" { // schema v7; tests make older databases
		cols, marks = ", account0, account1, rated", ", $17, $18, $19"
		args = append(args, sqldb.NullText(g.Accounts[0]), sqldb.NullText(g.Accounts[1]), g.Rated)
	}
	args = append(args, p.at()) // the time Updated takes, after the others
	updated := fmt.Sprintf("coalesce($%d::timestamptz, now())", len(args))
	// One statement: the game, its moves and the notice, or nothing.
	tag, err := p.pool.Exec(ctx, `WITH g AS (
			INSERT INTO games (id, mode, level, human, seed, variants, first, start,
				nmoves, seat0, seat1, waiting, created, updated, status, clock, deadline`+cols+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, cardinality($9::text[]), $10, $11, $12, $13, `+updated+`, $14, $15, $16`+marks+`)
			ON CONFLICT (id) DO NOTHING
			RETURNING id
		), m AS (
			INSERT INTO moves (game, idx, move)
			SELECT g.id, t.ord - 1, t.move FROM g, unnest($9::text[]) WITH ORDINALITY AS t (move, ord)
		)
		SELECT pg_notify('`+notifyChannel+`', `+notifyPayload+`) FROM g`, args...)
	if err != nil {
		return fmt.Errorf("store: creating game %q: %w", g.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("game %q: %w", g.ID, store.ErrExists)
	}
	return nil
}

// Get reads the game saved under id in one statement (one snapshot).
func (p *DB) Get(ctx context.Context, id string) (store.Game, error) {
	if err := ctx.Err(); err != nil {
		return store.Game{}, err
	}
	g := store.Game{ID: id}
	var seed int64
	var waiting bool
	var change string
	var created, deadline *time.Time
	err := p.pool.QueryRow(ctx, `SELECT mode, level, human, seed, variants, first, start,
		seat0, seat1, waiting, created, updated, status, clock, deadline,
		ARRAY(SELECT move FROM moves WHERE game = $1 ORDER BY idx),
		ARRAY(SELECT coalesce(clock, '') FROM moves WHERE game = $1 ORDER BY idx),
		coalesce(account0, ''), coalesce(account1, ''),
		coalesce((SELECT username FROM accounts WHERE id = account0), ''),
		coalesce((SELECT username FROM accounts WHERE id = account1), ''),
		rated, rating_change, result
		FROM games WHERE id = $1`, id).Scan(&g.Mode, &g.Level, &g.Human, &seed, &g.Variants,
		&g.First, &g.Start, &g.Seats[0], &g.Seats[1], &waiting, &created, &g.Updated, &g.Status, &g.Clock.State, &deadline, &g.Moves, &g.MoveClocks,
		&g.Accounts[0], &g.Accounts[1], &g.Players[0], &g.Players[1], &g.Rated, &change, &g.Result)
	if err == pgx.ErrNoRows {
		return store.Game{}, fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Game{}, fmt.Errorf("store: reading game %q: %w", id, err)
	}
	g.Seed, g.Waiting = uint64(seed), store.Waiting(waiting)
	if created != nil {
		g.Created = *created
	}
	if deadline != nil {
		g.Clock.Deadline = *deadline
	}
	if len(g.Variants) == 0 {
		g.Variants = nil
	}
	if len(g.Moves) == 0 {
		g.Moves = nil
	}
	g.MoveClocks = store.MoveClocks(g.MoveClocks)
	if g.RatingChange, err = sqldb.ParseRatingChange(change); err != nil {
		return store.Game{}, fmt.Errorf("store: game %q: rating change: %w", id, err)
	}
	return g, nil
}

// refused explains why a change that updated no row of games did not:
// the game is missing (ErrNotFound) or does not fit (conflict).
func (p *DB) refused(ctx context.Context, id string, conflict error) error {
	var n int
	err := p.pool.QueryRow(ctx, `SELECT nmoves FROM games WHERE id = $1`, id).Scan(&n)
	switch {
	case err == pgx.ErrNoRows:
		return fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	case err != nil:
		return fmt.Errorf("store: game %q: %w", id, err)
	}
	return conflict
}

// Append adds move as move number index.
func (p *DB) Append(ctx context.Context, id string, index int, move string, w store.Waiting) error {
	return p.AppendClocked(ctx, id, index, move, w, store.Clock{})
}

// AppendClocked adds move as move number index, with the game's clock c
// (the zero c: the clock as it is), in one statement.
func (p *DB) AppendClocked(ctx context.Context, id string, index int, move string, w store.Waiting, c store.Clock) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	// The UPDATE locks the game's row and, under READ COMMITTED, checks
	// nmoves again on the newest version once a concurrent change has
	// committed: of two appends at one index, the second updates nothing.
	tag, err := p.pool.Exec(ctx, pgAppend, p.pgAppendArgs(id, index, move, w, c)...)
	if pgCode(err) == pgUniqueViolation {
		return fmt.Errorf("game %q: move %d is taken: %w", id, index, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("store: game %q: appending move %d: %w", id, index, err)
	}
	if tag.RowsAffected() == 0 {
		return p.refused(ctx, id, fmt.Errorf("game %q: move %d does not follow the moves saved: %w", id, index, store.ErrConflict))
	}
	return nil
}

// pgAppend is AppendClocked's statement, with p.pgAppendArgs.
const pgAppend = `WITH g AS (
			UPDATE games SET nmoves = nmoves + 1, waiting = $4, updated = coalesce($10::timestamptz, now()),
				clock = CASE WHEN $5 THEN $6 ELSE clock END, deadline = CASE WHEN $5 THEN $7 ELSE deadline END
			WHERE id = $1 AND nmoves = $2 AND ($6 = '' OR status = $9)
			RETURNING id
		), m AS (
			INSERT INTO moves (game, idx, move, clock) SELECT id, $2, $3, $8 FROM g
		)
		SELECT pg_notify('` + notifyChannel + `', ` + notifyPayload + `) FROM g`

func (p *DB) pgAppendArgs(id string, index int, move string, w store.Waiting, c store.Clock) []any {
	return []any{id, index, move, bool(w),
		c.State != "" || !c.Deadline.IsZero(), c.State, timeOrNull(c.Deadline), sqldb.NullText(c.Move), c.IfStatus, p.at()}
}

// Truncate keeps the first n moves.
func (p *DB) Truncate(ctx context.Context, id string, n int, w store.Waiting) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var ok bool
	// Two statements in a transaction, not one: the DELETE must run after
	// the UPDATE has the row's lock, so that its snapshot holds every move
	// committed before (a data-modifying WITH would share one snapshot).
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE games SET nmoves = $2, waiting = $3, updated = coalesce($4::timestamptz, now()), finished = NULL, result = 0
			WHERE id = $1 AND nmoves >= $2 AND $2 >= 0`, id, n, bool(w), p.at())
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		ok = true
		if _, err := tx.Exec(ctx, `DELETE FROM moves WHERE game = $1 AND idx >= $2`, id, n); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `SELECT pg_notify('`+notifyChannel+`', current_setting('application_name') || ' ' || $1)`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: game %q: keeping %d moves: %w", id, n, err)
	}
	if !ok {
		return p.refused(ctx, id, fmt.Errorf("game %q: cannot keep %d moves: %w", id, n, store.ErrConflict))
	}
	return nil
}

// SetLevel changes the level.
func (p *DB) SetLevel(ctx context.Context, id string, level string, w store.Waiting) error {
	return p.update(ctx, id, `UPDATE games SET level = $2, waiting = $3, updated = coalesce($4::timestamptz, now()) WHERE id = $1
		RETURNING pg_notify('`+notifyChannel+`', `+notifyPayload+`)`, store.ErrNotFound, level, bool(w), p.at())
}

// SetStatusAt replaces the status if it is from and the game has moves
// moves.
func (p *DB) SetStatusAt(ctx context.Context, id string, from, to string, moves int) error {
	return p.update(ctx, id, `UPDATE games SET status = $3, updated = coalesce($5::timestamptz, now()) WHERE id = $1 AND status = $2 AND nmoves = $4
		RETURNING pg_notify('`+notifyChannel+`', `+notifyPayload+`)`,
		fmt.Errorf("game %q: the status or the moves changed meanwhile: %w", id, store.ErrConflict), from, to, moves, p.at())
}

// SetStatus replaces the status if it is from.
func (p *DB) SetStatus(ctx context.Context, id string, from, to string) error {
	return p.update(ctx, id, `UPDATE games SET status = $3, updated = coalesce($4::timestamptz, now()) WHERE id = $1 AND status = $2
		RETURNING pg_notify('`+notifyChannel+`', `+notifyPayload+`)`,
		fmt.Errorf("game %q: the status changed meanwhile: %w", id, store.ErrConflict), from, to, p.at())
}

// ClaimSeat gives a free seat to the holder of hash. The seat's IS NULL
// is checked again on the newest row after a racer's commit, so exactly
// one racer updates it.
func (p *DB) ClaimSeat(ctx context.Context, id string, seat int, hash []byte) error {
	if seat != 0 && seat != 1 {
		return fmt.Errorf("seat %d: want 0 or 1", seat)
	}
	col := sqldb.SeatColumns[seat]
	return p.update(ctx, id, `UPDATE games SET `+col+` = $2, updated = coalesce($3::timestamptz, now()) WHERE id = $1 AND `+col+` IS NULL
		RETURNING pg_notify('`+notifyChannel+`', `+notifyPayload+`)`,
		fmt.Errorf("game %q: seat %d is taken: %w", id, seat, store.ErrConflict), hash, p.at())
}

// update runs the one-statement change q on game id (parameter $1), the
// others args; if it updates no row, the error is ErrNotFound or
// conflict.
func (p *DB) update(ctx context.Context, id, q string, conflict error, args ...any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	tag, err := p.pool.Exec(ctx, q, append([]any{id}, args...)...)
	if err != nil {
		return fmt.Errorf("store: game %q: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return p.refused(ctx, id, conflict)
	}
	return nil
}

// Waiting returns the games in which the computer is to move, the least
// recently changed first.
func (p *DB) Waiting(ctx context.Context, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows, _ := p.pool.Query(ctx, `SELECT id FROM games WHERE waiting ORDER BY updated, id LIMIT $1`, max(limit, 0))
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("store: reading the waiting games: %w", err)
	}
	return ids, nil
}

// Lease gives owner the computer's moves in game id for ttl, by the
// database's clock.
func (p *DB) Lease(ctx context.Context, id, owner string, ttl time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	tag, err := p.pool.Exec(ctx, `INSERT INTO leases (game, owner, until)
		VALUES ($1, $2, coalesce($4::timestamptz, now()) + make_interval(secs => $3))
		ON CONFLICT (game) DO UPDATE SET owner = excluded.owner, until = excluded.until
		WHERE leases.until <= coalesce($4::timestamptz, now()) OR leases.owner = excluded.owner`, id, owner, ttl.Seconds(), p.at())
	if err != nil {
		return false, fmt.Errorf("store: game %q: lease: %w", id, err)
	}
	return tag.RowsAffected() == 1, nil
}

// Release ends owner's lease on game id.
func (p *DB) Release(ctx context.Context, id, owner string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, err := p.pool.Exec(ctx, `DELETE FROM leases WHERE game = $1 AND owner = $2`, id, owner); err != nil {
		return fmt.Errorf("store: game %q: release: %w", id, err)
	}
	return nil
}

// timeOrNull is t for a timestamptz column, NULL for the zero time.
func timeOrNull(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// SetClock replaces the clock.
func (p *DB) SetClock(ctx context.Context, id string, c store.Clock) error {
	return p.update(ctx, id, `UPDATE games SET clock = $2, deadline = $3, updated = coalesce($4::timestamptz, now()) WHERE id = $1
		RETURNING pg_notify('`+notifyChannel+`', `+notifyPayload+`)`, store.ErrNotFound, c.State, timeOrNull(c.Deadline), p.at())
}

// Overdue returns the unfinished games past their deadline whose lease
// has run out (by the database's clock), by the index on the deadline.
func (p *DB) Overdue(ctx context.Context, now time.Time, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows, _ := p.pool.Query(ctx, `SELECT id FROM games
		WHERE deadline IS NOT NULL AND finished IS NULL AND deadline <= $1
		AND NOT EXISTS (SELECT 1 FROM leases WHERE game = games.id AND until > coalesce($3::timestamptz, now()))
		ORDER BY deadline, id LIMIT $2`, now, max(limit, 0), p.at())
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("store: reading the overdue games: %w", err)
	}
	if ids == nil {
		ids = []string{}
	}
	return ids, nil
}
