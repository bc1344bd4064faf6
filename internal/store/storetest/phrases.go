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
// game is ErrNotFound; a seat or phrase out of bounds is refused.
func Phrases(t *testing.T, s store.Full) {
	ph := s.(store.Phrases)
	MustCreate(t, s, Sample("g"))
	MustCreate(t, s, Sample("h"))
	const gap, most = 300 * time.Millisecond, 3
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
	for range 2 {
		time.Sleep(gap + 50*time.Millisecond)
		say("g", 0, nil)
	}
	time.Sleep(gap + 50*time.Millisecond)
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
