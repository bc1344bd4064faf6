package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"oanquan/internal/rating"
	"oanquan/internal/store"
	"oanquan/internal/store/internal/sqldb"
)

// CreateAccount saves a and its first session.
func (s *DB) CreateAccount(ctx context.Context, a store.Account, se store.Session) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		var one int
		switch err := w.queryRow(`SELECT 1 FROM accounts WHERE id = ? OR ukey = ?`, a.ID, a.Key).Scan(&one); err {
		case nil:
			return fmt.Errorf("account %q: %w", a.Username, store.ErrExists)
		case sql.ErrNoRows:
		default:
			return err
		}
		if _, err := w.exec(`INSERT INTO accounts (id, username, ukey, hash, created) VALUES (?, ?, ?, ?, ?)`,
			a.ID, a.Username, a.Key, a.Hash, a.Created.UnixNano()); err != nil {
			return err
		}
		return w.insertSession(se)
	})
}

func (w *sqliteWriter) insertSession(se store.Session) error {
	_, err := w.exec(`INSERT INTO sessions (key, account, created, used, expires) VALUES (?, ?, ?, ?, ?)`,
		se.Key, se.Account, se.Created.UnixNano(), se.Used.UnixNano(), se.Expires.UnixNano())
	return err
}

const sqliteAccountCols = `id, username, ukey, hash, created`

func scanAccount(row *sql.Row) (store.Account, error) {
	var a store.Account
	var created int64
	err := row.Scan(&a.ID, &a.Username, &a.Key, &a.Hash, &created)
	if err == sql.ErrNoRows {
		return store.Account{}, store.ErrNoAccount
	}
	if err != nil {
		return store.Account{}, fmt.Errorf("store: reading an account: %w", err)
	}
	a.Created = time.Unix(0, created)
	return a, nil
}

// AccountByKey returns the account with the username key.
func (s *DB) AccountByKey(ctx context.Context, key string) (store.Account, error) {
	return scanAccount(s.rdb.QueryRowContext(ctx, `SELECT `+sqliteAccountCols+` FROM accounts WHERE ukey = ? AND deleted IS NULL`, key))
}

// AccountByID returns account id.
func (s *DB) AccountByID(ctx context.Context, id string) (store.Account, error) {
	return scanAccount(s.rdb.QueryRowContext(ctx, `SELECT `+sqliteAccountCols+` FROM accounts WHERE id = ? AND deleted IS NULL`, id))
}

// live checks that account id exists and is not deleted.
func (w *sqliteWriter) live(id string) error {
	var one int
	err := w.queryRow(`SELECT 1 FROM accounts WHERE id = ? AND deleted IS NULL`, id).Scan(&one)
	if err == sql.ErrNoRows {
		return store.ErrNoAccount
	}
	return err
}

// SetPassword replaces the hash and ends the other sessions.
func (s *DB) SetPassword(ctx context.Context, id, hash string, keep []byte) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		if err := w.live(id); err != nil {
			return err
		}
		if _, err := w.exec(`UPDATE accounts SET hash = ? WHERE id = ?`, hash, id); err != nil {
			return err
		}
		_, err := w.exec(`DELETE FROM sessions WHERE account = ? AND key IS NOT ?`, id, blob(keep))
		return err
	})
}

// Rehash replaces the hash if it is old.
func (s *DB) Rehash(ctx context.Context, id, old, new string) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		_, err := w.exec(`UPDATE accounts SET hash = ? WHERE id = ? AND hash = ? AND deleted IS NULL`, new, id, old)
		return err
	})
}

// DeleteAccount deletes account id but its row, which its games name.
func (s *DB) DeleteAccount(ctx context.Context, id string) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		if err := w.live(id); err != nil {
			return err
		}
		for _, q := range []string{
			`DELETE FROM sessions WHERE account = ?1`,
			`DELETE FROM ratings WHERE account = ?1`,
			`DELETE FROM rating_history WHERE account = ?1`,
			`DELETE FROM seeks WHERE account = ?1 AND game IS NULL`, // its open seeks and tickets; those accepted stay
			`UPDATE accounts SET username = '', ukey = NULL, hash = '', deleted = ?2 WHERE id = ?1`,
		} {
			if _, err := w.exec(q, id, s.now().UnixNano()); err != nil {
				return err
			}
		}
		return nil
	})
}

// CreateSession saves se.
func (s *DB) CreateSession(ctx context.Context, se store.Session) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		if err := w.live(se.Account); err != nil {
			return err
		}
		return w.insertSession(se)
	})
}

// Session returns the live session with key and its account, marking
// it used at most once an hour (a write a request would be too many).
func (s *DB) Session(ctx context.Context, key []byte, now time.Time) (store.Session, store.Account, error) {
	se := store.Session{Key: key}
	var a store.Account
	var created, used, expires, acreated int64
	err := s.rdb.QueryRowContext(ctx, `SELECT s.account, s.created, s.used, s.expires, a.username, a.ukey, a.hash, a.created
		FROM sessions s JOIN accounts a ON a.id = s.account
		WHERE s.key = ? AND s.expires > ? AND a.deleted IS NULL`, key, now.UnixNano()).
		Scan(&se.Account, &created, &used, &expires, &a.Username, &a.Key, &a.Hash, &acreated)
	if err == sql.ErrNoRows {
		return store.Session{}, store.Account{}, store.ErrNoAccount
	}
	if err != nil {
		return store.Session{}, store.Account{}, fmt.Errorf("store: reading a session: %w", err)
	}
	a.ID, a.Created = se.Account, time.Unix(0, acreated)
	se.Created, se.Used, se.Expires = time.Unix(0, created), time.Unix(0, used), time.Unix(0, expires)
	if now.Sub(se.Used) >= time.Hour {
		se.Used = now
		err = s.write(ctx, func(w *sqliteWriter) error {
			_, err := w.exec(`UPDATE sessions SET used = ? WHERE key = ?`, now.UnixNano(), key)
			return err
		})
	}
	return se, a, err
}

// EndSession ends one session.
func (s *DB) EndSession(ctx context.Context, key []byte) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		_, err := w.exec(`DELETE FROM sessions WHERE key = ?`, key)
		return err
	})
}

// EndSessions ends every session of account id.
func (s *DB) EndSessions(ctx context.Context, id string) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		_, err := w.exec(`DELETE FROM sessions WHERE account = ?`, id)
		return err
	})
}

// ExpireSessions deletes sessions expired at now.
func (s *DB) ExpireSessions(ctx context.Context, now time.Time, limit int) (int, error) {
	var n int64
	err := s.write(ctx, func(w *sqliteWriter) error {
		r, err := w.exec(`DELETE FROM sessions WHERE key IN (SELECT key FROM sessions WHERE expires <= ? LIMIT ?)`, now.UnixNano(), limit)
		if err == nil {
			n, err = r.RowsAffected()
		}
		return err
	})
	return int(n), err
}

// Ratings returns account id's ratings by speed.
func (s *DB) Ratings(ctx context.Context, id string) (map[string]rating.Rating, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT speed, rating, rd, volatility, games, updated FROM ratings WHERE account = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("store: reading ratings: %w", err)
	}
	defer rows.Close()
	out := map[string]rating.Rating{}
	for rows.Next() {
		var speed string
		var r rating.Rating
		var updated int64
		if err := rows.Scan(&speed, &r.Rating, &r.RD, &r.Volatility, &r.Games, &updated); err != nil {
			return nil, err
		}
		r.Updated = time.Unix(0, updated)
		out[speed] = r
	}
	return out, rows.Err()
}

// SeatAccount records the account of a seat.
func (s *DB) SeatAccount(ctx context.Context, id string, seat int, account string) error {
	if seat != 0 && seat != 1 {
		return fmt.Errorf("seat %d: want 0 or 1", seat)
	}
	return s.write(ctx, func(w *sqliteWriter) error {
		r, err := w.exec(`UPDATE games SET account`+fmt.Sprint(seat)+` = ?, updated = ? WHERE id = ?`, account, s.now().UnixNano(), id)
		return notFound(r, err, id)
	})
}

// EndRated applies e and rates the game in one of the writer's
// transactions. Everything that can refuse is checked before the first
// write (the writer's rule: a refused change writes nothing).
func (s *DB) EndRated(ctx context.Context, id string, e store.Ending) (store.RatingChange, error) {
	var rc store.RatingChange
	err := s.write(ctx, func(w *sqliteWriter) error {
		var err error
		rc, err = w.endRated(s.now(), id, e)
		return err
	})
	return rc, err
}

// endRated reads the game and the ratings, rates the game
// (store.EndRating) and writes the ending, the change and the ratings,
// in the writer's transaction.
func (w *sqliteWriter) endRated(now time.Time, id string, e store.Ending) (store.RatingChange, error) {
	g := store.RatedGame{ID: id}
	var change string
	err := w.queryRow(sqliteSelectRated, id).
		Scan(&g.Accounts[0], &g.Accounts[1], &g.Speed, &g.Status, &g.Moves, &change)
	if err == sql.ErrNoRows {
		return store.RatingChange{}, fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.RatingChange{}, err
	}
	if g.Speed != "" && g.Accounts[0] != "" && g.Accounts[1] != "" && (w.live(g.Accounts[0]) != nil || w.live(g.Accounts[1]) != nil) {
		return store.RatingChange{}, store.NotRated(id)
	}
	g.Rated = change != ""
	rc, err := store.EndRating(g, e, func(seat int) (rating.Rating, error) { return w.rating(g.Accounts[seat], g.Speed) })
	if err != nil {
		return rc, err
	}
	acc := g.Accounts
	// Writes from here: an error is no refusal, and rolls the batch back.
	if e.Move != "" {
		err = w.appendClocked(now, id, e.Index, e.Move, e.Waiting, e.Clock)
	} else {
		err = w.updateIf(id, store.ErrConflict, `UPDATE games SET status = ?, updated = ? WHERE id = ? AND status = ?`, e.To, now.UnixNano(), id, e.From)
	}
	if err != nil {
		return rc, fmt.Errorf("store: game %q: ending: %s", id, err) // not wrapped: a write may have happened
	}
	saved, _ := json.Marshal(rc)
	if _, err := w.exec(`UPDATE games SET rating_change = ?, finished = coalesce(finished, ?), result = CASE result WHEN 0 THEN ? ELSE result END WHERE id = ?`,
		string(saved), now.UnixNano(), store.ResultOfScore(e.Score0), id); err != nil {
		return rc, err
	}
	for p := range 2 {
		a := rc.After[p]
		if _, err := w.exec(sqliteUpsertRating,
			acc[p], rc.Speed, a.Rating, a.RD, a.Volatility, a.Games, a.Updated.UnixNano()); err != nil {
			return rc, err
		}
		if _, err := w.exec(sqliteInsertRatingHistory,
			id, p, acc[p], rc.Speed, sqldb.RatingJSON(rc.Before[p]), sqldb.RatingJSON(a), e.At.UnixNano()); err != nil {
			return rc, err
		}
	}
	return rc, nil
}

// The statements of EndRated on SQLite (sqldb's, in SQLite's parameters).
var (
	sqliteSelectRated         = sqldb.SQLite(sqldb.SelectRated)
	sqliteSelectRating        = sqldb.SQLite(sqldb.SelectRating)
	sqliteUpsertRating        = sqldb.SQLite(sqldb.UpsertRating)
	sqliteInsertRatingHistory = sqldb.SQLite(sqldb.InsertRatingHistory)
)

// rating returns account's rating in speed, or a new one.
func (w *sqliteWriter) rating(account, speed string) (rating.Rating, error) {
	var r rating.Rating
	var updated int64
	err := w.queryRow(sqliteSelectRating, account, speed).
		Scan(&r.Rating, &r.RD, &r.Volatility, &r.Games, &updated)
	if err == sql.ErrNoRows {
		return rating.New(), nil
	}
	r.Updated = time.Unix(0, updated)
	return r, err
}
