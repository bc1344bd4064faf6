package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"oanquan/internal/store"
	"oanquan/internal/store/internal/sqldb"
)

// lobbyChannel is the channel of the NOTIFY that every change of a seek
// sends, its payload the store's name and the seek's id ("" for many).
const lobbyChannel = "oanquan_lobby"

// lobbyNotify announces a change of the seek whose id is the query's
// parameter n.
func lobbyNotify(n int) string {
	return fmt.Sprintf(`pg_notify('%s', current_setting('application_name') || ' ' || $%d)`, lobbyChannel, n)
}

// lobbyNotifyAll announces a change of many seeks (the payload's id "").
const lobbyNotifyAll = `pg_notify('` + lobbyChannel + `', current_setting('application_name') || ' ')`

const pgSeekCols = sqldb.SeekColumns

func scanPgSeek(scan func(...any) error) (store.Seek, error) {
	var k store.Seek
	var held *time.Time
	err := scan(&k.ID, &k.Account, &k.Key, &k.Address, &k.Initial, &k.Increment, &k.Days, &k.Rated, &k.Min, &k.Max,
		&k.Speed, &k.Created, &k.Expires, &k.Game, &k.Seat, &k.Acceptor, &k.Pool, &k.Rating, &k.Holder, &held, &k.Poster, &k.Wide)
	if held != nil {
		k.Held = *held
	}
	return k, err
}

// changeSeek runs q, which changes at most one seek and RETURNs its
// notice, and reports whether it changed one.
func (p *DB) changeSeek(ctx context.Context, q string, args ...any) (bool, error) {
	var ignored any
	err := p.pool.QueryRow(ctx, q, args...).Scan(&ignored)
	if err == pgx.ErrNoRows {
		return false, nil
	}
	return err == nil, err
}

// pgInsertSeek saves a seek, announcing it; its arguments are
// pgInsertSeekArgs'.
const pgInsertSeek = `INSERT INTO seeks (id, account, key, address, initial, increment, days, rated, min, max, speed, created, expires, pool, rating, poster, wide)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) ON CONFLICT DO NOTHING RETURNING ` + "pg_notify('" + lobbyChannel + "', current_setting('application_name') || ' ' || $1)"

func pgInsertSeekArgs(k store.Seek) []any {
	return []any{k.ID, k.Account, k.Key, k.Address, k.Initial, k.Increment, k.Days, k.Rated, k.Min, k.Max, k.Speed, k.Created, k.Expires, k.Pool, k.Rating, sqldb.PosterBytes(k.Poster), k.Wide}
}

// CreateSeekWithin counts and saves k in a transaction that holds a lock
// of the address's network (an advisory one; of the address when it is
// in none), so that of its seeks posted at once through any servers, one
// is counted and saved at a time.
func (p *DB) CreateSeekWithin(ctx context.Context, k store.Seek, b store.Bounds) (int, error) {
	var n int
	err := p.inTx(ctx, "creating a seek", func(tx pgx.Tx) error {
		lock := k.Wide
		if lock == "" {
			lock = k.Address
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('seeks of ' || $1, 0))`, lock); err != nil {
			return err
		}
		var c store.SeekCounts
		if err := tx.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE address = $1), count(*) FILTER (WHERE wide = $2 AND $2 <> '')
			FROM seeks WHERE game IS NULL AND expires > $3`, k.Address, k.Wide, k.Created).Scan(&c.All, &c.Address, &c.Wide); err != nil {
			return err
		}
		var err error
		if n, err = c.Check(k, b); err != nil {
			return err
		}
		var ignored any
		switch err := tx.QueryRow(ctx, pgInsertSeek, pgInsertSeekArgs(k)...).Scan(&ignored); err {
		case nil:
			return nil
		case pgx.ErrNoRows:
			return fmt.Errorf("seek %q: %w", k.ID, store.ErrExists)
		default:
			return err
		}
	})
	return n, err
}

// CreateSeek saves k.
func (p *DB) CreateSeek(ctx context.Context, k store.Seek) error {
	done, err := p.changeSeek(ctx, pgInsertSeek, pgInsertSeekArgs(k)...)
	if err != nil {
		return fmt.Errorf("store: creating a seek: %w", err)
	}
	if !done {
		return fmt.Errorf("seek %q: %w", k.ID, store.ErrExists)
	}
	return nil
}

// Seek returns seek id.
func (p *DB) Seek(ctx context.Context, id string) (store.Seek, error) {
	k, err := scanPgSeek(p.pool.QueryRow(ctx, `SELECT `+pgSeekCols+` FROM seeks WHERE id = $1`, id).Scan)
	if err == pgx.ErrNoRows {
		return store.Seek{}, fmt.Errorf("seek %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Seek{}, fmt.Errorf("store: reading a seek: %w", err)
	}
	return k, nil
}

// OpenSeeks returns the open seeks at now, oldest first.
func (p *DB) OpenSeeks(ctx context.Context, now time.Time) ([]store.Seek, error) {
	rows, err := p.pool.Query(ctx, `SELECT `+pgSeekCols+` FROM seeks WHERE game IS NULL AND expires > $1 ORDER BY created, id`, now)
	if err != nil {
		return nil, fmt.Errorf("store: listing seeks: %w", err)
	}
	defer rows.Close()
	var out []store.Seek
	for rows.Next() {
		k, err := scanPgSeek(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("store: listing seeks: %w", err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// missing tells, after a conditional change of seek id changed nothing,
// whether it exists (ErrConflict) or not (ErrNotFound).
func (p *DB) missing(ctx context.Context, id string) error {
	var one int
	if err := p.pool.QueryRow(ctx, `SELECT 1 FROM seeks WHERE id = $1`, id).Scan(&one); err == pgx.ErrNoRows {
		return fmt.Errorf("seek %q: %w", id, store.ErrNotFound)
	}
	return fmt.Errorf("seek %q: %w", id, store.ErrConflict)
}

// AcceptSeek marks seek id accepted, if it is open: one UPDATE … WHERE
// game IS NULL, which takes the row's lock, so that of several servers
// accepting at once one alone changes the row (the others, waiting for
// the lock, find game set).
func (p *DB) AcceptSeek(ctx context.Context, id, game string, seat int, acceptor string, now, keep time.Time) error {
	done, err := p.changeSeek(ctx, `UPDATE seeks SET game = $1, seat = $2, acceptor = $3, expires = $4 WHERE id = $5 AND game IS NULL AND expires > $6
		RETURNING `+lobbyNotify(5), game, seat, acceptor, keep, id, now)
	if err != nil {
		return fmt.Errorf("store: accepting a seek: %w", err)
	}
	if !done {
		return p.missing(ctx, id)
	}
	return nil
}

// DeleteSeek deletes seek id.
func (p *DB) DeleteSeek(ctx context.Context, id string) error {
	if _, err := p.changeSeek(ctx, `DELETE FROM seeks WHERE id = $1 RETURNING `+lobbyNotify(1), id); err != nil {
		return fmt.Errorf("store: deleting a seek: %w", err)
	}
	return nil
}

// WithdrawSeek deletes seek id if it is open.
func (p *DB) WithdrawSeek(ctx context.Context, id string) error {
	done, err := p.changeSeek(ctx, `DELETE FROM seeks WHERE id = $1 AND game IS NULL RETURNING `+lobbyNotify(1), id)
	if err != nil {
		return fmt.Errorf("store: withdrawing a seek: %w", err)
	}
	if !done {
		return p.missing(ctx, id)
	}
	return nil
}

// ExpireSeeks deletes the seeks expired before now.
func (p *DB) ExpireSeeks(ctx context.Context, now time.Time) (int, error) {
	var n int
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM seeks WHERE expires < $1`, now)
		if err != nil {
			return err
		}
		if n = int(tag.RowsAffected()); n > 0 {
			_, err = tx.Exec(ctx, `SELECT `+lobbyNotify(1), "")
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: expiring seeks: %w", err)
	}
	return n, nil
}

// CountSeeks counts the open seeks the address posted.
func (p *DB) CountSeeks(ctx context.Context, address string, now time.Time) (int, error) {
	var n int
	err := p.pool.QueryRow(ctx, `SELECT count(*) FROM seeks WHERE address = $1 AND game IS NULL AND expires > $2`, address, now).Scan(&n)
	return n, err
}

// PairSeeks pairs open seeks a and b, or neither: in one transaction
// that locks both rows (in the order of their ids, so that two pairings
// never wait on each other).
func (p *DB) PairSeeks(ctx context.Context, a, b, game string, seatA int, now, keep time.Time) error {
	if a == b {
		return fmt.Errorf("seeks %q and %q: %w", a, b, store.ErrConflict)
	}
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		accounts := map[string]string{}
		rows, err := tx.Query(ctx, `SELECT id, account FROM seeks WHERE id IN ($1, $2) AND game IS NULL AND expires > $3 ORDER BY id FOR UPDATE`, a, b, now)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id, acct string
			if err := rows.Scan(&id, &acct); err != nil {
				rows.Close()
				return err
			}
			accounts[id] = acct
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(accounts) != 2 {
			return fmt.Errorf("seeks %q and %q: %w", a, b, store.ErrConflict)
		}
		for _, x := range []struct {
			id, other string
			seat      int
		}{{a, b, seatA}, {b, a, 1 - seatA}} {
			if _, err := tx.Exec(ctx, `UPDATE seeks SET game = $1, seat = $2, acceptor = $3, expires = $4 WHERE id = $5 RETURNING `+lobbyNotify(5),
				game, x.seat, accounts[x.other], keep, x.id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil && !sqldb.Refusal(err) {
		return fmt.Errorf("store: pairing seeks: %w", err)
	}
	return err
}

// NotifyLobby announces a change of seek id to the other servers.
func (p *DB) NotifyLobby(ctx context.Context, id string) error {
	if _, err := p.pool.Exec(ctx, `SELECT `+lobbyNotify(1), id); err != nil {
		return fmt.Errorf("store: announcing a change of the lobby: %w", err)
	}
	return nil
}
