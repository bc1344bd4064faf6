package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// A seek's hold is a lease in its row (issue 21): every server renews
// the holds of the seeks its lobby sockets hold, so that a poster whose
// page reconnects to another server keeps its seek, and any server
// sweeps the seeks no server holds any more.

// HoldSeeks extends the hold of the open seeks ids to until.
func (m *Memory) HoldSeeks(ctx context.Context, ids []string, holder string, until time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		k, ok := m.seeks[id]
		if ok && k.Game == "" && k.Held.Before(until) {
			k.Holder, k.Held = holder, until
			m.seeks[id] = k
		}
	}
	return nil
}

// SweepSeeks deletes the open seeks whose hold lapsed before now.
func (m *Memory) SweepSeeks(ctx context.Context, now time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for id, k := range m.seeks {
		if k.Game == "" && !k.Held.IsZero() && k.Held.Before(now) {
			delete(m.seeks, id)
			n++
		}
	}
	return n, nil
}

// HoldSeeks extends the hold of the open seeks ids to until: one UPDATE.
func (s *SQLite) HoldSeeks(ctx context.Context, ids []string, holder string, until time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	return s.write(ctx, func(w *sqliteWriter) error {
		for chunk := range slices.Chunk(ids, 500) {
			args := []any{holder, until.UnixNano()}
			marks := ""
			for i, id := range chunk {
				if i > 0 {
					marks += ", "
				}
				marks += "?"
				args = append(args, id)
			}
			args = append(args, until.UnixNano())
			if _, err := w.exec(`UPDATE seeks SET holder = ?, held = ? WHERE id IN (`+marks+`) AND game IS NULL AND held < ?`, args...); err != nil {
				return fmt.Errorf("store: holding seeks: %w", err)
			}
		}
		return nil
	})
}

// SweepSeeks deletes the open seeks whose hold lapsed before now.
func (s *SQLite) SweepSeeks(ctx context.Context, now time.Time) (int, error) {
	var n int64
	err := s.write(ctx, func(w *sqliteWriter) error {
		res, err := w.exec(`DELETE FROM seeks WHERE game IS NULL AND held > 0 AND held < ?`, now.UnixNano())
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: sweeping seeks: %w", err)
	}
	return int(n), nil
}

// HoldSeeks extends the hold of the open seeks ids to until: one UPDATE,
// each row's lock keeping the later of two servers' renewals.
func (p *Postgres) HoldSeeks(ctx context.Context, ids []string, holder string, until time.Time) error {
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
func (p *Postgres) SweepSeeks(ctx context.Context, now time.Time) (int, error) {
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

// posterBytes returns p, or an empty slice (the column is NOT NULL) for nil.
func posterBytes(p []byte) []byte {
	if p == nil {
		return []byte{}
	}
	return p
}
