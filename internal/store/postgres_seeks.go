package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

const pgSeekCols = `id, account, key, address, initial, increment, days, rated, min, max, speed, created, expires, COALESCE(game, ''), seat, acceptor`

func scanPgSeek(scan func(...any) error) (Seek, error) {
	var k Seek
	err := scan(&k.ID, &k.Account, &k.Key, &k.Address, &k.Initial, &k.Increment, &k.Days, &k.Rated, &k.Min, &k.Max,
		&k.Speed, &k.Created, &k.Expires, &k.Game, &k.Seat, &k.Acceptor)
	return k, err
}

// CreateSeek saves k.
func (p *Postgres) CreateSeek(ctx context.Context, k Seek) error {
	tag, err := p.pool.Exec(ctx, `INSERT INTO seeks (id, account, key, address, initial, increment, days, rated, min, max, speed, created, expires)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING`,
		k.ID, k.Account, k.Key, k.Address, k.Initial, k.Increment, k.Days, k.Rated, k.Min, k.Max, k.Speed, k.Created, k.Expires)
	if err != nil {
		return fmt.Errorf("store: creating a seek: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("seek %q: %w", k.ID, ErrExists)
	}
	return nil
}

// Seek returns seek id.
func (p *Postgres) Seek(ctx context.Context, id string) (Seek, error) {
	k, err := scanPgSeek(p.pool.QueryRow(ctx, `SELECT `+pgSeekCols+` FROM seeks WHERE id = $1`, id).Scan)
	if err == pgx.ErrNoRows {
		return Seek{}, fmt.Errorf("seek %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Seek{}, fmt.Errorf("store: reading a seek: %w", err)
	}
	return k, nil
}

// OpenSeeks returns the open seeks at now, oldest first.
func (p *Postgres) OpenSeeks(ctx context.Context, now time.Time) ([]Seek, error) {
	rows, err := p.pool.Query(ctx, `SELECT `+pgSeekCols+` FROM seeks WHERE game IS NULL AND expires > $1 ORDER BY created, id`, now)
	if err != nil {
		return nil, fmt.Errorf("store: listing seeks: %w", err)
	}
	defer rows.Close()
	var out []Seek
	for rows.Next() {
		k, err := scanPgSeek(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("store: listing seeks: %w", err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// AcceptSeek marks seek id accepted, if it is open: one UPDATE … WHERE
// game IS NULL, which takes the row's lock, so that of several servers
// accepting at once one alone changes the row.
func (p *Postgres) AcceptSeek(ctx context.Context, id, game string, seat int, acceptor string, now, keep time.Time) error {
	tag, err := p.pool.Exec(ctx, `UPDATE seeks SET game = $1, seat = $2, acceptor = $3, expires = $4 WHERE id = $5 AND game IS NULL AND expires > $6`,
		game, seat, acceptor, keep, id, now)
	if err != nil {
		return fmt.Errorf("store: accepting a seek: %w", err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	var one int
	if err := p.pool.QueryRow(ctx, `SELECT 1 FROM seeks WHERE id = $1`, id).Scan(&one); err == pgx.ErrNoRows {
		return fmt.Errorf("seek %q: %w", id, ErrNotFound)
	}
	return fmt.Errorf("seek %q: %w", id, ErrConflict)
}

// DeleteSeek deletes seek id.
func (p *Postgres) DeleteSeek(ctx context.Context, id string) error {
	if _, err := p.pool.Exec(ctx, `DELETE FROM seeks WHERE id = $1`, id); err != nil {
		return fmt.Errorf("store: deleting a seek: %w", err)
	}
	return nil
}

// ExpireSeeks deletes the seeks expired before now.
func (p *Postgres) ExpireSeeks(ctx context.Context, now time.Time) (int, error) {
	tag, err := p.pool.Exec(ctx, `DELETE FROM seeks WHERE expires < $1`, now)
	if err != nil {
		return 0, fmt.Errorf("store: expiring seeks: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// CountSeeks counts the open seeks the address posted.
func (p *Postgres) CountSeeks(ctx context.Context, address string, now time.Time) (int, error) {
	var n int
	err := p.pool.QueryRow(ctx, `SELECT count(*) FROM seeks WHERE address = $1 AND game IS NULL AND expires > $2`, address, now).Scan(&n)
	return n, err
}
