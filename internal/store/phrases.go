package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// ErrPhraseLimit: Phrases.SayPhrase refused, the seat having said a
// phrase too lately or too many in the game.
var ErrPhraseLimit = errors.New("too many phrases")

// Phrases counts the preset phrases the players of a game say to each
// other (issue 21), so that their limits hold over every server sharing
// the store, and tells the other servers of each (a Notice with Phrase
// set, through Changes, on stores that are Notifiers). A phrase is no
// change to the game and no part of its record. The SQLite, Postgres and
// Memory stores implement it with the same contract (phrases_test.go).
type Phrases interface {
	// SayPhrase records that the player on seat (0 or 1) of game says
	// phrase (a word of letters and "_"), unless the seat said one less
	// than gap ago, or has said most in the game already: then it
	// returns ErrPhraseLimit and records nothing. ErrNotFound for no
	// such game.
	SayPhrase(ctx context.Context, game string, seat int, phrase string, gap time.Duration, most int) error
}

var (
	_ Phrases = (*Memory)(nil)
	_ Phrases = (*SQLite)(nil)
	_ Phrases = (*Postgres)(nil)
)

// phraseKey is a seat of a game, phraseCount what it has said.
type (
	phraseKey struct {
		game string
		seat int
	}
	phraseCount struct {
		said int
		last time.Time
	}
)

// checkPhrase refuses a seat or phrase SayPhrase does not take: a phrase
// travels in a notice, a word among others.
func checkPhrase(seat int, phrase string) error {
	if seat != 0 && seat != 1 {
		return fmt.Errorf("seat %d: want 0 or 1", seat)
	}
	if phrase == "" || len(phrase) > 32 || strings.Trim(phrase, "abcdefghijklmnopqrstuvwxyz_") != "" {
		return fmt.Errorf("phrase %q: want a word of a-z and _", phrase)
	}
	return nil
}

// SayPhrase counts the phrase, under the lock.
func (m *Memory) SayPhrase(ctx context.Context, game string, seat int, phrase string, gap time.Duration, most int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkPhrase(seat, phrase); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.games[game]; !ok {
		return fmt.Errorf("game %q: %w", game, ErrNotFound)
	}
	k, now := phraseKey{game, seat}, m.now()
	c, ok := m.phrases[k]
	if ok && (c.said >= most || now.Sub(c.last) < gap) {
		return fmt.Errorf("game %q, seat %d: %w", game, seat, ErrPhraseLimit)
	}
	m.phrases[k] = phraseCount{said: c.said + 1, last: now}
	return nil
}

// SayPhrase counts the phrase in one of the writer's transactions.
func (s *SQLite) SayPhrase(ctx context.Context, game string, seat int, phrase string, gap time.Duration, most int) error {
	if err := checkPhrase(seat, phrase); err != nil {
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
			return fmt.Errorf("game %q, seat %d: %w", game, seat, ErrPhraseLimit)
		}
		return nil
	})
}

// phraseChannel is the channel of the NOTIFY of a phrase said:
// "STORE-NAME GAME SEAT PHRASE".
const phraseChannel = "oanquan_phrase"

// SayPhrase counts the phrase and notifies the other stores of it, in
// one statement: of two servers counting one seat's phrases at once, the
// row's lock orders them.
func (p *Postgres) SayPhrase(ctx context.Context, game string, seat int, phrase string, gap time.Duration, most int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkPhrase(seat, phrase); err != nil {
		return err
	}
	tag, err := p.pool.Exec(ctx, `WITH u AS (
			INSERT INTO phrases (game, seat, said, last) VALUES ($1, $2, 1, now())
			ON CONFLICT (game, seat) DO UPDATE SET said = phrases.said + 1, last = now()
			WHERE phrases.said < $4 AND phrases.last <= now() - make_interval(secs => $5)
			RETURNING game
		)
		SELECT pg_notify('`+phraseChannel+`', current_setting('application_name') || ' ' || game || ' ' || $2::integer || ' ' || $3::text) FROM u`,
		game, seat, phrase, most, gap.Seconds())
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23503" { // foreign_key_violation: no such game
		return fmt.Errorf("game %q: %w", game, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: game %q: saying a phrase: %w", game, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("game %q, seat %d: %w", game, seat, ErrPhraseLimit)
	}
	return nil
}

// parsePhrase reads the notice of a phrase, "STORE-NAME GAME SEAT
// PHRASE", and reports whether it is one another store sent (not own's,
// the name of this store).
func parsePhrase(own, payload string) (Notice, bool) {
	fields := strings.Split(payload, " ")
	if len(fields) < 4 {
		return Notice{}, false
	}
	n := len(fields)
	seat := strings.Index("01", fields[n-2])
	name := strings.Join(fields[:n-3], " ")
	if len(fields[n-2]) != 1 || seat < 0 || name == own || fields[n-3] == "" || checkPhrase(seat, fields[n-1]) != nil {
		return Notice{}, false
	}
	return Notice{Game: fields[n-3], Phrase: fields[n-1], Seat: seat}, true
}
