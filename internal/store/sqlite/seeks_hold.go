package sqlite

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// HoldSeeks extends the hold of the open seeks ids to until: one UPDATE.
func (s *DB) HoldSeeks(ctx context.Context, ids []string, holder string, until time.Time) error {
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
func (s *DB) SweepSeeks(ctx context.Context, now time.Time) (int, error) {
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
