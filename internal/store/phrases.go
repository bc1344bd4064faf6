package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrPhraseLimit: Phrases.SayPhrase refused, the seat having said a
// phrase too lately or too many in the game.
var ErrPhraseLimit = errors.New("too many phrases")

// Phrases counts the preset phrases the players of a game say to each
// other (issue 21), so that their limits hold over every server sharing
// the store, and tells the other servers of each (a Notice with Phrase
// set, through Changes, on stores that are Notifiers). A phrase is no
// change to the game and no part of its record. The SQLite, Postgres and
// Memory stores implement it with the same contract (storetest.Phrases).
type Phrases interface {
	// SayPhrase records that the player on seat (0 or 1) of game says
	// phrase (a word of letters and "_"), unless the seat said one less
	// than gap ago, or has said most in the game already: then it
	// returns ErrPhraseLimit and records nothing. ErrNotFound for no
	// such game.
	SayPhrase(ctx context.Context, game string, seat int, phrase string, gap time.Duration, most int) error
}

// CheckPhrase refuses a seat or phrase SayPhrase does not take: a phrase
// travels in a notice, a word among others.
func CheckPhrase(seat int, phrase string) error {
	if seat != 0 && seat != 1 {
		return fmt.Errorf("seat %d: want 0 or 1", seat)
	}
	if phrase == "" || len(phrase) > 32 || strings.Trim(phrase, "abcdefghijklmnopqrstuvwxyz_") != "" {
		return fmt.Errorf("phrase %q: want a word of a-z and _", phrase)
	}
	return nil
}
