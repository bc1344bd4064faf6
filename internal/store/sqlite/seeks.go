package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"oanquan/internal/store"
	"oanquan/internal/store/internal/sqldb"
)

const sqliteSeekCols = sqldb.SeekColumns

// scanSQLiteSeek reads one row of sqliteSeekCols.
func scanSQLiteSeek(scan func(...any) error) (store.Seek, error) {
	var k store.Seek
	var created, expires, held int64
	err := scan(&k.ID, &k.Account, &k.Key, &k.Address, &k.Initial, &k.Increment, &k.Days, &k.Rated, &k.Min, &k.Max,
		&k.Speed, &created, &expires, &k.Game, &k.Seat, &k.Acceptor, &k.Pool, &k.Rating, &k.Holder, &held, &k.Poster, &k.Wide)
	k.Created, k.Expires = time.Unix(0, created), time.Unix(0, expires)
	if held != 0 {
		k.Held = time.Unix(0, held)
	}
	return k, err
}

// CreateSeek saves k.
func (s *DB) CreateSeek(ctx context.Context, k store.Seek) error {
	return s.write(ctx, func(w *sqliteWriter) error { return w.createSeek(k) })
}

// CreateSeekWithin counts and saves k in one of the writer's
// transactions.
func (s *DB) CreateSeekWithin(ctx context.Context, k store.Seek, b store.Bounds) (int, error) {
	var n int
	err := s.write(ctx, func(w *sqliteWriter) error {
		var c store.SeekCounts
		if err := w.queryRow(`SELECT count(*), count(*) FILTER (WHERE address = ?1), count(*) FILTER (WHERE wide = ?2 AND ?2 != '')
			FROM seeks WHERE game IS NULL AND expires > ?3`, k.Address, k.Wide, k.Created.UnixNano()).Scan(&c.All, &c.Address, &c.Wide); err != nil {
			return err
		}
		var err error
		if n, err = c.Check(k, b); err != nil {
			return err
		}
		return w.createSeek(k)
	})
	return n, err
}

// createSeek saves k.
func (w *sqliteWriter) createSeek(k store.Seek) error {
	var one int
	switch err := w.queryRow(`SELECT 1 FROM seeks WHERE id = ?`, k.ID).Scan(&one); err {
	case nil:
		return fmt.Errorf("seek %q: %w", k.ID, store.ErrExists)
	case sql.ErrNoRows:
	default:
		return err
	}
	_, err := w.exec(`INSERT INTO seeks (id, account, key, address, wide, initial, increment, days, rated, min, max, speed, created, expires, pool, rating, poster)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		k.ID, k.Account, k.Key, k.Address, k.Wide, k.Initial, k.Increment, k.Days, k.Rated, k.Min, k.Max, k.Speed,
		k.Created.UnixNano(), k.Expires.UnixNano(), k.Pool, k.Rating, sqldb.PosterBytes(k.Poster))
	return err
}

// Seek returns seek id.
func (s *DB) Seek(ctx context.Context, id string) (store.Seek, error) {
	k, err := scanSQLiteSeek(s.rdb.QueryRowContext(ctx, `SELECT `+sqliteSeekCols+` FROM seeks WHERE id = ?`, id).Scan)
	if err == sql.ErrNoRows {
		return store.Seek{}, fmt.Errorf("seek %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Seek{}, fmt.Errorf("store: reading a seek: %w", err)
	}
	return k, nil
}

// OpenSeeks returns the open seeks at now, oldest first.
func (s *DB) OpenSeeks(ctx context.Context, now time.Time) ([]store.Seek, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT `+sqliteSeekCols+` FROM seeks WHERE game IS NULL AND expires > ? ORDER BY created, id`, now.UnixNano())
	if err != nil {
		return nil, fmt.Errorf("store: listing seeks: %w", err)
	}
	defer rows.Close()
	var out []store.Seek
	for rows.Next() {
		k, err := scanSQLiteSeek(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("store: listing seeks: %w", err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// AcceptSeek marks seek id accepted, if it is open: one UPDATE … WHERE
// game IS NULL, which one writer at a time runs.
func (s *DB) AcceptSeek(ctx context.Context, id, game string, seat int, acceptor string, now, keep time.Time) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		res, err := w.exec(`UPDATE seeks SET game = ?, seat = ?, acceptor = ?, expires = ? WHERE id = ? AND game IS NULL AND expires > ?`,
			game, seat, acceptor, keep.UnixNano(), id, now.UnixNano())
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		var one int
		if err := w.queryRow(`SELECT 1 FROM seeks WHERE id = ?`, id).Scan(&one); err == sql.ErrNoRows {
			return fmt.Errorf("seek %q: %w", id, store.ErrNotFound)
		}
		return fmt.Errorf("seek %q: %w", id, store.ErrConflict)
	})
}

// DeleteSeek deletes seek id.
func (s *DB) DeleteSeek(ctx context.Context, id string) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		_, err := w.exec(`DELETE FROM seeks WHERE id = ?`, id)
		return err
	})
}

// ExpireSeeks deletes the seeks expired before now.
func (s *DB) ExpireSeeks(ctx context.Context, now time.Time) (int, error) {
	var n int64
	err := s.write(ctx, func(w *sqliteWriter) error {
		res, err := w.exec(`DELETE FROM seeks WHERE expires < ?`, now.UnixNano())
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}

// CountSeeks counts the open seeks the address posted.
func (s *DB) CountSeeks(ctx context.Context, address string, now time.Time) (int, error) {
	var n int
	err := s.rdb.QueryRowContext(ctx, `SELECT count(*) FROM seeks WHERE address = ? AND game IS NULL AND expires > ?`, address, now.UnixNano()).Scan(&n)
	return n, err
}

// WithdrawSeek deletes seek id if it is open.
func (s *DB) WithdrawSeek(ctx context.Context, id string) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		res, err := w.exec(`DELETE FROM seeks WHERE id = ? AND game IS NULL`, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		var one int
		if err := w.queryRow(`SELECT 1 FROM seeks WHERE id = ?`, id).Scan(&one); err == sql.ErrNoRows {
			return fmt.Errorf("seek %q: %w", id, store.ErrNotFound)
		}
		return fmt.Errorf("seek %q: %w", id, store.ErrConflict)
	})
}

// PairSeeks pairs open seeks a and b, or neither: in one transaction of
// the one writer.
func (s *DB) PairSeeks(ctx context.Context, a, b, game string, seatA int, now, keep time.Time) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		var accts [2]string
		for i, id := range []string{a, b} {
			err := w.queryRow(`SELECT account FROM seeks WHERE id = ? AND game IS NULL AND expires > ?`, id, now.UnixNano()).Scan(&accts[i])
			if err == sql.ErrNoRows || a == b {
				return fmt.Errorf("seeks %q and %q: %w", a, b, store.ErrConflict)
			}
			if err != nil {
				return err
			}
		}
		for i, id := range []string{a, b} {
			seat := seatA
			if i == 1 {
				seat = 1 - seatA
			}
			if _, err := w.exec(`UPDATE seeks SET game = ?, seat = ?, acceptor = ?, expires = ? WHERE id = ?`,
				game, seat, accts[1-i], keep.UnixNano(), id); err != nil {
				return err
			}
		}
		return nil
	})
}
