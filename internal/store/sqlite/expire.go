package sqlite

import (
	"context"
	"encoding/json"
	"time"

	"oanquan/internal/store"
)

// Finish records that the game has ended, and how, unless it is
// recorded.
func (s *DB) Finish(ctx context.Context, id string, r store.Result) error {
	return s.write(ctx, func(w *sqliteWriter) error {
		if _, err := w.nmoves(id); err != nil {
			return err
		}
		_, err := w.exec(`UPDATE games SET finished = coalesce(finished, ?), result = CASE result WHEN 0 THEN ? ELSE result END WHERE id = ?`,
			s.now().UnixNano(), r, id)
		return err
	})
}

// sqliteExpire deletes the games due (Expiry.due, in SQL), with their
// moves (ON DELETE CASCADE), and returns their ids. A zero cutoff is 0,
// which no time is before.
const sqliteExpire = `DELETE FROM games WHERE id IN (SELECT id FROM games WHERE
	(mode = 'online' AND (seat0 IS NULL OR seat1 IS NULL) AND nmoves = 0 AND updated < ?1)
	OR (finished IS NULL AND updated < ?2)
	OR (finished IS NOT NULL AND finished < ?3 AND updated < ?3)
	LIMIT ?4) RETURNING id`

// Expire deletes the games due, in one of the writer's transactions: no
// change can come between the choice and the deletion.
func (s *DB) Expire(ctx context.Context, e store.Expiry) ([]string, error) {
	var ids []string
	err := s.write(ctx, func(w *sqliteWriter) error {
		st, err := w.stmt(sqliteExpire)
		if err != nil {
			return err
		}
		rows, err := st.Query(nanosOrZero(e.Invitations), nanosOrZero(e.Unfinished), nanosOrZero(e.Finished), e.Limit)
		if err != nil {
			return err
		}
		if ids, err = scanIDs(rows); err != nil {
			return err
		}
		list, _ := json.Marshal(ids)
		_, err = w.exec(`DELETE FROM leases WHERE game IN (SELECT value FROM json_each(?))`, string(list))
		return err
	})
	if ids == nil || err != nil {
		ids = []string{}
	}
	return ids, err
}

// nanosOrZero is t in Unix nanoseconds, or 0 for the zero time.
func nanosOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}
