package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"oanquan/internal/rating"
	"oanquan/internal/store"
	"oanquan/internal/store/internal/sqldb"
)

// CreateAccount saves a and its first session in one transaction.
func (p *DB) CreateAccount(ctx context.Context, a store.Account, se store.Session) error {
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO accounts (id, username, ukey, hash, created) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT DO NOTHING`, a.ID, a.Username, a.Key, a.Hash, a.Created)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("account %q: %w", a.Username, store.ErrExists)
		}
		return insertSession(ctx, tx, se)
	})
	if err != nil && !sqldb.Refusal(err) {
		return fmt.Errorf("store: creating an account: %w", err)
	}
	return err
}

func insertSession(ctx context.Context, tx pgx.Tx, se store.Session) error {
	_, err := tx.Exec(ctx, `INSERT INTO sessions (key, account, created, used, expires) VALUES ($1, $2, $3, $4, $5)`,
		se.Key, se.Account, se.Created, se.Used, se.Expires)
	return err
}

func (p *DB) account(ctx context.Context, where string, arg any) (store.Account, error) {
	var a store.Account
	err := p.pool.QueryRow(ctx, `SELECT id, username, ukey, hash, created FROM accounts WHERE `+where+` AND deleted IS NULL`, arg).
		Scan(&a.ID, &a.Username, &a.Key, &a.Hash, &a.Created)
	if err == pgx.ErrNoRows {
		return store.Account{}, store.ErrNoAccount
	}
	if err != nil {
		return store.Account{}, fmt.Errorf("store: reading an account: %w", err)
	}
	return a, nil
}

// AccountByKey returns the account with the username key.
func (p *DB) AccountByKey(ctx context.Context, key string) (store.Account, error) {
	return p.account(ctx, "ukey = $1", key)
}

// AccountByID returns account id.
func (p *DB) AccountByID(ctx context.Context, id string) (store.Account, error) {
	return p.account(ctx, "id = $1", id)
}

// lockLive locks account id's row, or refuses (ErrNoAccount) an account
// that is not there or deleted.
func lockLive(ctx context.Context, tx pgx.Tx, id string) error {
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM accounts WHERE id = $1 AND deleted IS NULL FOR UPDATE`, id).Scan(&one)
	if err == pgx.ErrNoRows {
		return store.ErrNoAccount
	}
	return err
}

// inTx runs f in a transaction; refusals come back as they are.
func (p *DB) inTx(ctx context.Context, what string, f func(tx pgx.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := pgx.BeginFunc(ctx, p.pool, f)
	if err != nil && !sqldb.Refusal(err) {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	return err
}

// SetPassword replaces the hash and ends the other sessions.
func (p *DB) SetPassword(ctx context.Context, id, hash string, keep []byte) error {
	return p.inTx(ctx, "changing a password", func(tx pgx.Tx) error {
		if err := lockLive(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE accounts SET hash = $2 WHERE id = $1`, id, hash); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM sessions WHERE account = $1 AND key IS DISTINCT FROM $2`, id, keep)
		return err
	})
}

// Rehash replaces the hash if it is old.
func (p *DB) Rehash(ctx context.Context, id, old, new string) error {
	if _, err := p.pool.Exec(ctx, `UPDATE accounts SET hash = $3 WHERE id = $1 AND hash = $2 AND deleted IS NULL`, id, old, new); err != nil {
		return fmt.Errorf("store: rehashing a password: %w", err)
	}
	return nil
}

// DeleteAccount deletes account id but its row, which its games name.
func (p *DB) DeleteAccount(ctx context.Context, id string) error {
	return p.inTx(ctx, "deleting an account", func(tx pgx.Tx) error {
		if err := lockLive(ctx, tx, id); err != nil {
			return err
		}
		for _, q := range []string{
			`DELETE FROM sessions WHERE account = $1`,
			`DELETE FROM ratings WHERE account = $1`,
			`DELETE FROM rating_history WHERE account = $1`,
			// Its open seeks and tickets (those accepted stay); the
			// other servers' lobbies hear of it.
			`WITH gone AS (DELETE FROM seeks WHERE account = $1 AND game IS NULL RETURNING id)
				SELECT ` + lobbyNotifyAll + ` FROM gone LIMIT 1`,
		} {
			if _, err := tx.Exec(ctx, q, id); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `UPDATE accounts SET username = '', ukey = NULL, hash = '', deleted = coalesce($2::timestamptz, now()) WHERE id = $1`, id, p.at())
		return err
	})
}

// CreateSession saves se.
func (p *DB) CreateSession(ctx context.Context, se store.Session) error {
	return p.inTx(ctx, "saving a session", func(tx pgx.Tx) error {
		if err := lockLive(ctx, tx, se.Account); err != nil {
			return err
		}
		return insertSession(ctx, tx, se)
	})
}

// Session returns the live session with key and its account, marking
// it used at most once an hour.
func (p *DB) Session(ctx context.Context, key []byte, now time.Time) (store.Session, store.Account, error) {
	se := store.Session{Key: key}
	var a store.Account
	err := p.pool.QueryRow(ctx, `SELECT s.account, s.created, s.used, s.expires, a.username, a.ukey, a.hash, a.created
		FROM sessions s JOIN accounts a ON a.id = s.account
		WHERE s.key = $1 AND s.expires > $2 AND a.deleted IS NULL`, key, now).
		Scan(&se.Account, &se.Created, &se.Used, &se.Expires, &a.Username, &a.Key, &a.Hash, &a.Created)
	if err == pgx.ErrNoRows {
		return store.Session{}, store.Account{}, store.ErrNoAccount
	}
	if err != nil {
		return store.Session{}, store.Account{}, fmt.Errorf("store: reading a session: %w", err)
	}
	a.ID = se.Account
	if now.Sub(se.Used) >= time.Hour {
		se.Used = now
		if _, err := p.pool.Exec(ctx, `UPDATE sessions SET used = $2 WHERE key = $1`, key, now); err != nil {
			return se, a, fmt.Errorf("store: marking a session used: %w", err)
		}
	}
	return se, a, nil
}

// EndSession ends one session.
func (p *DB) EndSession(ctx context.Context, key []byte) error {
	if _, err := p.pool.Exec(ctx, `DELETE FROM sessions WHERE key = $1`, key); err != nil {
		return fmt.Errorf("store: ending a session: %w", err)
	}
	return nil
}

// EndSessions ends every session of account id.
func (p *DB) EndSessions(ctx context.Context, id string) error {
	if _, err := p.pool.Exec(ctx, `DELETE FROM sessions WHERE account = $1`, id); err != nil {
		return fmt.Errorf("store: ending sessions: %w", err)
	}
	return nil
}

// ExpireSessions deletes sessions expired at now.
func (p *DB) ExpireSessions(ctx context.Context, now time.Time, limit int) (int, error) {
	tag, err := p.pool.Exec(ctx, `DELETE FROM sessions WHERE key IN (SELECT key FROM sessions WHERE expires <= $1 LIMIT $2)`, now, limit)
	if err != nil {
		return 0, fmt.Errorf("store: deleting expired sessions: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// Ratings returns account id's ratings by speed.
func (p *DB) Ratings(ctx context.Context, id string) (map[string]rating.Rating, error) {
	rows, err := p.pool.Query(ctx, `SELECT speed, rating, rd, volatility, games, updated FROM ratings WHERE account = $1`, id)
	if err != nil {
		return nil, fmt.Errorf("store: reading ratings: %w", err)
	}
	defer rows.Close()
	out := map[string]rating.Rating{}
	for rows.Next() {
		var speed string
		var r rating.Rating
		if err := rows.Scan(&speed, &r.Rating, &r.RD, &r.Volatility, &r.Games, &r.Updated); err != nil {
			return nil, err
		}
		out[speed] = r
	}
	return out, rows.Err()
}

// SeatAccount records the account of a seat.
func (p *DB) SeatAccount(ctx context.Context, id string, seat int, account string) error {
	if seat != 0 && seat != 1 {
		return fmt.Errorf("seat %d: want 0 or 1", seat)
	}
	return p.update(ctx, id, `UPDATE games SET account`+fmt.Sprint(seat)+` = $2, updated = coalesce($3::timestamptz, now()) WHERE id = $1
		RETURNING pg_notify('`+notifyChannel+`', `+notifyPayload+`)`, store.ErrNotFound, account, p.at())
}

// EndRated applies e and rates the game in one transaction. The game's
// row is locked first (as every change to a game does), then both
// accounts' ratings in the order of their ids, so that two games ending
// at once between the same players never deadlock.
func (p *DB) EndRated(ctx context.Context, id string, e store.Ending) (store.RatingChange, error) {
	var rc store.RatingChange
	err := p.inTx(ctx, "ending a rated game", func(tx pgx.Tx) error {
		g := store.RatedGame{ID: id}
		var change string
		err := tx.QueryRow(ctx, sqldb.SelectRated+` FOR UPDATE`, id).
			Scan(&g.Accounts[0], &g.Accounts[1], &g.Speed, &g.Status, &g.Moves, &change)
		if err == pgx.ErrNoRows {
			return fmt.Errorf("game %q: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		g.Rated = change != ""
		// The accounts are locked, in EndRating's order, as they are read.
		rc, err = store.EndRating(g, e, func(seat int) (rating.Rating, error) {
			if err := lockLive(ctx, tx, g.Accounts[seat]); err != nil {
				return rating.Rating{}, store.NotRated(id)
			}
			return pgRating(ctx, tx, g.Accounts[seat], g.Speed)
		})
		if err != nil {
			return err
		}
		acc := g.Accounts
		var tag interface{ RowsAffected() int64 }
		if e.Move != "" {
			tag, err = tx.Exec(ctx, pgAppend, p.pgAppendArgs(id, e.Index, e.Move, e.Waiting, e.Clock)...)
		} else {
			tag, err = tx.Exec(ctx, `UPDATE games SET status = $3, updated = coalesce($4::timestamptz, now()) WHERE id = $1 AND status = $2
				RETURNING pg_notify('`+notifyChannel+`', `+notifyPayload+`)`, id, e.From, e.To, p.at())
		}
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return fmt.Errorf("game %q: the ending does not fit: %w", id, store.ErrConflict)
		}
		saved, _ := json.Marshal(rc)
		if _, err := tx.Exec(ctx, `UPDATE games SET rating_change = $2, finished = coalesce(finished, $4::timestamptz, now()),
			result = CASE result WHEN 0 THEN $3 ELSE result END WHERE id = $1`, id, string(saved), int16(store.ResultOfScore(e.Score0)), p.at()); err != nil {
			return err
		}
		for s := range 2 {
			a := rc.After[s]
			if _, err := tx.Exec(ctx, sqldb.UpsertRating,
				acc[s], rc.Speed, a.Rating, a.RD, a.Volatility, a.Games, a.Updated); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, sqldb.InsertRatingHistory,
				id, s, acc[s], rc.Speed, sqldb.RatingJSON(rc.Before[s]), sqldb.RatingJSON(a), e.At); err != nil {
				return err
			}
		}
		return nil
	})
	return rc, err
}

// pgRating returns account's rating in speed, or a new one.
func pgRating(ctx context.Context, tx pgx.Tx, account, speed string) (rating.Rating, error) {
	var r rating.Rating
	err := tx.QueryRow(ctx, sqldb.SelectRating, account, speed).
		Scan(&r.Rating, &r.RD, &r.Volatility, &r.Games, &r.Updated)
	if err == pgx.ErrNoRows {
		return rating.New(), nil
	}
	return r, err
}
