package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"oanquan/internal/store"
)

// phraseChannel is the channel of the NOTIFY of a phrase said:
// "STORE-NAME GAME SEAT PHRASE".
const phraseChannel = "oanquan_phrase"

// SayPhrase counts the phrase and notifies the other stores of it, in
// one statement: of two servers counting one seat's phrases at once, the
// row's lock orders them.
func (p *DB) SayPhrase(ctx context.Context, game string, seat int, phrase string, gap time.Duration, most int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := store.CheckPhrase(seat, phrase); err != nil {
		return err
	}
	tag, err := p.pool.Exec(ctx, `WITH u AS (
			INSERT INTO phrases (game, seat, said, last) VALUES ($1, $2, 1, coalesce($6::timestamptz, now()))
			ON CONFLICT (game, seat) DO UPDATE SET said = phrases.said + 1, last = excluded.last
			WHERE phrases.said < $4 AND phrases.last <= excluded.last - make_interval(secs => $5)
			RETURNING game
		)
		SELECT pg_notify('`+phraseChannel+`', current_setting('application_name') || ' ' || game || ' ' || $2::integer || ' ' || $3::text) FROM u`,
		game, seat, phrase, most, gap.Seconds(), p.at())
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23503" { // foreign_key_violation: no such game
		return fmt.Errorf("game %q: %w", game, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: game %q: saying a phrase: %w", game, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("game %q, seat %d: %w", game, seat, store.ErrPhraseLimit)
	}
	return nil
}

// parsePhrase reads the notice of a phrase, "STORE-NAME GAME SEAT
// PHRASE", and reports whether it is one another store sent (not own's,
// the name of this store).
func parsePhrase(own, payload string) (store.Notice, bool) {
	fields := strings.Split(payload, " ")
	if len(fields) < 4 {
		return store.Notice{}, false
	}
	n := len(fields)
	seat := strings.Index("01", fields[n-2])
	name := strings.Join(fields[:n-3], " ")
	if len(fields[n-2]) != 1 || seat < 0 || name == own || fields[n-3] == "" || store.CheckPhrase(seat, fields[n-1]) != nil {
		return store.Notice{}, false
	}
	return store.Notice{Game: fields[n-3], Phrase: fields[n-1], Seat: seat}, true
}
