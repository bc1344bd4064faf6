package sqlite

import (
	"context"
	"fmt"
	"time"

	"oanquan/internal/store"
)

// SayPhrase counts the phrase in one of the writer's transactions.
func (s *DB) SayPhrase(ctx context.Context, game string, seat int, phrase string, gap time.Duration, most int) error {
	if err := store.CheckPhrase(seat, phrase); err != nil {
		return err
	}
	return s.write(ctx, func(w *sqliteWriter) error {
		if _, err := w.nmoves(game); err != nil {
			return err
		}
		now := s.now()
		r, err := w.exec(`INSERT INTO phrases (game, seat, said, last) VALUES (?1, ?2, 1, ?3)
			ON CONFLICT (game, seat) DO UPDATE SET said = said + 1, last = ?3 WHERE said < ?4 AND last <= ?5`,
			game, seat, now.UnixNano(), most, now.Add(-gap).UnixNano())
		if err != nil {
			return err
		}
		if n, err := r.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("game %q, seat %d: %w", game, seat, store.ErrPhraseLimit)
		}
		return nil
	})
}
