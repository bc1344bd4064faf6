package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// HoldSeeks extends the hold of the open seeks ids to until: one UPDATE,
// each row's lock keeping the later of two servers' renewals.
func (p *DB) HoldSeeks(ctx context.Context, ids []string, holder string, until time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := p.pool.Exec(ctx, `UPDATE seeks SET holder = $1, held = $2 WHERE id = ANY($3) AND game IS NULL AND (held IS NULL OR held < $2)`,
		holder, until, ids)
	if err != nil {
		return fmt.Errorf("store: holding seeks: %w", err)
	}
	return nil
}

// SweepSeeks deletes the open seeks whose hold lapsed before now, and
// announces it to every server's lobby.
func (p *DB) SweepSeeks(ctx context.Context, now time.Time) (int, error) {
	var n int
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM seeks WHERE game IS NULL AND held < $1`, now)
		if err != nil {
			return err
		}
		if n = int(tag.RowsAffected()); n > 0 {
			_, err = tx.Exec(ctx, `SELECT `+lobbyNotify(1), "")
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: sweeping seeks: %w", err)
	}
	return n, nil
}
