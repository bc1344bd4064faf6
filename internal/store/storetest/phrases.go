package storetest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"oanquan/internal/store"
)

// Phrases: a seat may say a phrase once per gap and most times in a
// game, each seat and game counted apart; a refusal records nothing; no
// game is ErrNotFound; a seat or phrase out of bounds is refused. The
// gaps are timed by the store's clock, which the test moves.
func Phrases(t *testing.T, open Opener) {
	clock := NewClock()
	s := open(t, clock)
	ph := s.(store.Phrases)
	MustCreate(t, s, Sample("g"))
	MustCreate(t, s, Sample("h"))
	const gap, most = time.Minute, 3
	say := func(game string, seat int, want error) {
		t.Helper()
		if err := ph.SayPhrase(ctx, game, seat, "good_game", gap, most); !errors.Is(err, want) || (want == nil) != (err == nil) {
			t.Errorf("SayPhrase(%s, %d) = %v, want %v", game, seat, err, want)
		}
	}
	say("g", 0, nil)
	say("g", 0, store.ErrPhraseLimit) // within the gap
	say("g", 1, nil)                  // the other seat
	say("h", 0, nil)                  // another game
	clock.Advance(gap - time.Second)
	say("g", 0, store.ErrPhraseLimit) // a second before the gap's end
	clock.Advance(time.Second)
	say("g", 0, nil) // at its end
	clock.Advance(gap)
	say("g", 0, nil)
	clock.Advance(gap)
	say("g", 0, store.ErrPhraseLimit) // the fourth in the game
	say("g", 1, nil)                  // the other seat has said one
	say("nope", 0, store.ErrNotFound)
	for _, c := range []struct {
		seat   int
		phrase string
	}{{2, "hello"}, {-1, "hello"}, {0, ""}, {0, "hello world"}, {0, "Hello"}, {0, strings.Repeat("a", 33)}} {
		if err := ph.SayPhrase(ctx, "h", c.seat, c.phrase, 0, most); err == nil || errors.Is(err, store.ErrPhraseLimit) {
			t.Errorf("SayPhrase(seat %d, %q) = %v, want a refusal", c.seat, c.phrase, err)
		}
	}
}
