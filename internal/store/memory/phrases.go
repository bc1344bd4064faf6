package memory

import (
	"context"
	"fmt"
	"time"

	"oanquan/internal/store"
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

// SayPhrase counts the phrase, under the lock.
func (m *DB) SayPhrase(ctx context.Context, game string, seat int, phrase string, gap time.Duration, most int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := store.CheckPhrase(seat, phrase); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.games[game]; !ok {
		return fmt.Errorf("game %q: %w", game, store.ErrNotFound)
	}
	k, now := phraseKey{game, seat}, m.now()
	c, ok := m.phrases[k]
	if ok && (c.said >= most || now.Sub(c.last) < gap) {
		return fmt.Errorf("game %q, seat %d: %w", game, seat, store.ErrPhraseLimit)
	}
	m.phrases[k] = phraseCount{said: c.said + 1, last: now}
	return nil
}
