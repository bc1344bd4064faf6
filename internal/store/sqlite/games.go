package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
	"oanquan/internal/store"
	"oanquan/internal/store/internal/sqldb"
)

// nanos is t as Unix nanoseconds, or NULL for the zero time (which Unix
// nanoseconds cannot hold).
func nanos(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

// fromNanos undoes nanos.
func fromNanos(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(0, n.Int64)
}

// Create saves g, with its moves, as a new game.
func (s *DB) Create(ctx context.Context, g store.Game) error {
	variants, err := json.Marshal(sqldb.NonNil(g.Variants))
	if err != nil {
		return err
	}
	return s.write(ctx, func(w *sqliteWriter) error {
		var one int
		switch err := w.queryRow(`SELECT 1 FROM games WHERE id = ?`, g.ID).Scan(&one); err {
		case nil:
			return fmt.Errorf("game %q: %w", g.ID, store.ErrExists)
		case sql.ErrNoRows:
		default:
			return err
		}
		// The clock's columns only for a clocked game: a game without
		// one is saved as before schema v6 (tests make older files).
		cols, marks := "", ""
		args := []any{g.ID, g.Mode, g.Level, g.Human, int64(g.Seed), string(variants), g.First, g.Start,
			len(g.Moves), blob(g.Seats[0]), blob(g.Seats[1]), bool(g.Waiting), nanos(g.Created), s.now().UnixNano(), g.Status}
		if g.Clock.State != "" {
			cols, marks = ", clock, deadline", ", ?, ?"
			args = append(args, g.Clock.State, nanos(g.Clock.Deadline))
		}
		if g.Accounts != [2]string{} || g.Rated != "" { // likewise, schema v7
			cols, marks = cols+", account0, account1, rated", marks+", ?, ?, ?"
			args = append(args, sqldb.NullText(g.Accounts[0]), sqldb.NullText(g.Accounts[1]), g.Rated)
		}
		_, err := w.exec(`INSERT INTO games (id, mode, level, human, seed, variants, first, start,
			nmoves, seat0, seat1, waiting, created, updated, status`+cols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?`+marks+`)`, args...)
		if err != nil {
			return err
		}
		for i, m := range g.Moves {
			if _, err := w.exec(`INSERT INTO moves (game, idx, move) VALUES (?, ?, ?)`, g.ID, i, m); err != nil {
				return err
			}
		}
		return nil
	})
}

// blob is b for a BLOB column, NULL when b is nil.
func blob(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

// sqliteGet reads a game in one statement, so that the game and its
// moves are read from the same snapshot. The ORDER BY inside the
// aggregate is what guarantees the order of the moves.
const sqliteGet = `SELECT mode, level, human, seed, variants, first, start,
	seat0, seat1, waiting, created, updated, status, clock, deadline,
	(SELECT json_group_array(move ORDER BY idx) FROM moves WHERE game = ?1),
	(SELECT json_group_array(coalesce(clock, '') ORDER BY idx) FROM moves WHERE game = ?1),
	coalesce(account0, ''), coalesce(account1, ''),
	coalesce((SELECT username FROM accounts WHERE id = account0), ''),
	coalesce((SELECT username FROM accounts WHERE id = account1), ''),
	rated, rating_change, result
	FROM games WHERE id = ?1`

// Get reads the game saved under id.
func (s *DB) Get(ctx context.Context, id string) (store.Game, error) {
	if err := ctx.Err(); err != nil {
		return store.Game{}, err
	}
	g := store.Game{ID: id}
	var seed int64
	var variants, moves, clocks, change string
	var waiting bool
	var created, updated, deadline sql.NullInt64
	err := s.get.QueryRowContext(ctx, id).Scan(&g.Mode, &g.Level, &g.Human, &seed, &variants,
		&g.First, &g.Start, &g.Seats[0], &g.Seats[1], &waiting, &created, &updated, &g.Status, &g.Clock.State, &deadline, &moves, &clocks,
		&g.Accounts[0], &g.Accounts[1], &g.Players[0], &g.Players[1], &g.Rated, &change, &g.Result)
	if err == sql.ErrNoRows {
		return store.Game{}, fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Game{}, fmt.Errorf("store: reading game %q: %w", id, err)
	}
	g.Seed, g.Waiting = uint64(seed), store.Waiting(waiting)
	g.Created, g.Updated, g.Clock.Deadline = fromNanos(created), fromNanos(updated), fromNanos(deadline)
	if err := json.Unmarshal([]byte(variants), &g.Variants); err != nil {
		return store.Game{}, fmt.Errorf("store: game %q: variants: %w", id, err)
	}
	if err := json.Unmarshal([]byte(moves), &g.Moves); err != nil {
		return store.Game{}, fmt.Errorf("store: game %q: moves: %w", id, err)
	}
	if err := json.Unmarshal([]byte(clocks), &g.MoveClocks); err != nil {
		return store.Game{}, fmt.Errorf("store: game %q: clocks: %w", id, err)
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

// nmoves returns the number of moves saved in game id, or ErrNotFound.
func (w *sqliteWriter) nmoves(id string) (int, error) {
	var n int
	err := w.queryRow(`SELECT nmoves FROM games WHERE id = ?`, id).Scan(&n)
	if err == sql.ErrNoRows {
		return 0, fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	return n, err
}

// Append adds move as move number index. The UPDATE checks the index
// and the INSERT follows only if it passed: two statements a move, the
// least that keeps nmoves and the rows in step.
func (s *DB) Append(ctx context.Context, id string, index int, move string, wait store.Waiting) error {
	return s.AppendClocked(ctx, id, index, move, wait, store.Clock{})
}

// AppendClocked adds move as move number index, with the game's clock c
// (the zero c: the clock as it is), in one transaction.
func (s *DB) AppendClocked(ctx context.Context, id string, index int, move string, wait store.Waiting, c store.Clock) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		return w.appendClocked(s.now(), id, index, move, wait, c)
	})
}

// appendClocked is AppendClocked in the writer's transaction.
func (w *sqliteWriter) appendClocked(now time.Time, id string, index int, move string, wait store.Waiting, c store.Clock) error {
	r, err := w.exec(`UPDATE games SET nmoves = nmoves + 1, waiting = ?1, updated = ?2,
		clock = CASE WHEN ?5 THEN ?6 ELSE clock END, deadline = CASE WHEN ?5 THEN ?7 ELSE deadline END
		WHERE id = ?3 AND nmoves = ?4 AND (?6 = '' OR status = ?8)`,
		bool(wait), now.UnixNano(), id, index, c.State != "" || !c.Deadline.IsZero(), c.State, nanos(c.Deadline), c.IfStatus)
	if err != nil {
		return err
	}
	if n, err := r.RowsAffected(); err != nil || n == 0 {
		have, err := w.nmoves(id)
		if err != nil {
			return err
		}
		if have == index {
			return fmt.Errorf("game %q: the status changed meanwhile: %w", id, store.ErrConflict)
		}
		return fmt.Errorf("game %q: move %d, but %d moves are saved: %w", id, index, have, store.ErrConflict)
	}
	_, err = w.exec(`INSERT INTO moves (game, idx, move, clock) VALUES (?, ?, ?, ?)`, id, index, move, sqldb.NullText(c.Move))
	return err
}

// Truncate keeps the first n moves.
func (s *DB) Truncate(ctx context.Context, id string, n int, wait store.Waiting) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		have, err := w.nmoves(id)
		if err != nil {
			return err
		}
		if n < 0 || n > have {
			return fmt.Errorf("game %q: keep %d moves, but %d are saved: %w", id, n, have, store.ErrConflict)
		}
		if _, err := w.exec(`DELETE FROM moves WHERE game = ? AND idx >= ?`, id, n); err != nil {
			return err
		}
		_, err = w.exec(`UPDATE games SET nmoves = ?, waiting = ?, updated = ?, finished = NULL, result = 0 WHERE id = ?`,
			n, bool(wait), s.now().UnixNano(), id)
		return err
	})
}

// SetLevel changes the level.
func (s *DB) SetLevel(ctx context.Context, id string, level string, wait store.Waiting) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		r, err := w.exec(`UPDATE games SET level = ?, waiting = ?, updated = ? WHERE id = ?`,
			level, bool(wait), s.now().UnixNano(), id)
		return notFound(r, err, id)
	})
}

// notFound turns an UPDATE of no row into ErrNotFound.
func notFound(r sql.Result, err error, id string) error {
	if err != nil {
		return err
	}
	if n, err := r.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	return nil
}

// SetStatusAt replaces the status if it is from and the game has moves
// moves.
func (s *DB) SetStatusAt(ctx context.Context, id string, from, to string, moves int) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		return w.updateIf(id, fmt.Errorf("game %q: the status or the moves changed meanwhile: %w", id, store.ErrConflict),
			`UPDATE games SET status = ?, updated = ? WHERE id = ? AND status = ? AND nmoves = ?`, to, s.now().UnixNano(), id, from, moves)
	})
}

// SetStatus replaces the status if it is from.
func (s *DB) SetStatus(ctx context.Context, id string, from, to string) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		return w.updateIf(id, fmt.Errorf("game %q: the status changed meanwhile: %w", id, store.ErrConflict),
			`UPDATE games SET status = ?, updated = ? WHERE id = ? AND status = ?`, to, s.now().UnixNano(), id, from)
	})
}

// ClaimSeat gives a free seat to the holder of hash.
func (s *DB) ClaimSeat(ctx context.Context, id string, seat int, hash []byte) error {
	if seat != 0 && seat != 1 {
		return fmt.Errorf("seat %d: want 0 or 1", seat)
	}
	col := sqldb.SeatColumns[seat]
	return s.write(ctx, func(w *sqliteWriter) error {
		return w.updateIf(id, fmt.Errorf("game %q: seat %d is taken: %w", id, seat, store.ErrConflict),
			`UPDATE games SET `+col+` = ?, updated = ? WHERE id = ? AND `+col+` IS NULL`, blob(hash), s.now().UnixNano(), id)
	})
}

// updateIf runs the conditional update q of game id: if it changes no
// row, the error is ErrNotFound when the game is not there, else
// conflict (its condition did not hold).
func (w *sqliteWriter) updateIf(id string, conflict error, q string, args ...any) error {
	r, err := w.exec(q, args...)
	if err != nil {
		return err
	}
	if n, err := r.RowsAffected(); err != nil || n == 1 {
		return err
	}
	if _, err := w.nmoves(id); err != nil {
		return err
	}
	return conflict
}

// Waiting returns the games in which the computer is to move, the least
// recently changed first.
func (s *DB) Waiting(ctx context.Context, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows, err := s.waiting.QueryContext(ctx, max(limit, 0))
	if err != nil {
		return nil, fmt.Errorf("store: reading the waiting games: %w", err)
	}
	return scanIDs(rows)
}

func scanIDs(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Lease gives owner the computer's moves in game id for ttl.
func (s *DB) Lease(ctx context.Context, id, owner string, ttl time.Duration) (bool, error) {
	var ok bool
	err := s.write(ctx, func(w *sqliteWriter) error {
		now := s.now()
		r, err := w.exec(`INSERT INTO leases (game, owner, until) VALUES (?1, ?2, ?3)
			ON CONFLICT (game) DO UPDATE SET owner = ?2, until = ?3
			WHERE leases.until <= ?4 OR leases.owner = ?2`,
			id, owner, now.Add(ttl).UnixNano(), now.UnixNano())
		if err != nil {
			return err
		}
		n, err := r.RowsAffected()
		ok = n == 1
		return err
	})
	return ok, err
}

// Release ends owner's lease on game id.
func (s *DB) Release(ctx context.Context, id, owner string) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		_, err := w.exec(`DELETE FROM leases WHERE game = ? AND owner = ?`, id, owner)
		return err
	})
}

// SetClock replaces the clock.
func (s *DB) SetClock(ctx context.Context, id string, c store.Clock) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		r, err := w.exec(`UPDATE games SET clock = ?, deadline = ?, updated = ? WHERE id = ?`,
			c.State, nanos(c.Deadline), s.now().UnixNano(), id)
		return notFound(r, err, id)
	})
}

// Overdue returns the unfinished games past their deadline whose lease
// has run out, by the index on the deadline.
func (s *DB) Overdue(ctx context.Context, now time.Time, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows, err := s.rdb.QueryContext(ctx, `SELECT id FROM games
		WHERE deadline IS NOT NULL AND finished IS NULL AND deadline <= ?1
		AND NOT EXISTS (SELECT 1 FROM leases WHERE game = games.id AND until > ?2)
		ORDER BY deadline, id LIMIT ?3`, now.UnixNano(), s.now().UnixNano(), max(limit, 0))
	if err != nil {
		return nil, fmt.Errorf("store: reading the overdue games: %w", err)
	}
	ids, err := scanIDs(rows)
	if ids == nil && err == nil {
		ids = []string{}
	}
	return ids, err
}
