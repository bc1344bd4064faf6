package store

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"oanquan/internal/store/pgtest"
)

func TestMemoryPhrases(t *testing.T)   { testPhrases(t, openMemory(t)) }
func TestSQLitePhrases(t *testing.T)   { testPhrases(t, openSQLiteTemp(t)) }
func TestPostgresPhrases(t *testing.T) { testPhrases(t, openPostgresTemp(t)) }

// testPhrases: a seat may say a phrase once per gap and most times in a
// game, each seat and game counted apart; a refusal records nothing; no
// game is ErrNotFound; a seat or phrase out of bounds is refused.
func testPhrases(t *testing.T, s Store) {
	ph := s.(Phrases)
	mustCreate(t, s, sample("g"))
	mustCreate(t, s, sample("h"))
	const gap, most = 300 * time.Millisecond, 3
	say := func(game string, seat int, want error) {
		t.Helper()
		if err := ph.SayPhrase(ctx, game, seat, "good_game", gap, most); !errors.Is(err, want) || (want == nil) != (err == nil) {
			t.Errorf("SayPhrase(%s, %d) = %v, want %v", game, seat, err, want)
		}
	}
	say("g", 0, nil)
	say("g", 0, ErrPhraseLimit) // within the gap
	say("g", 1, nil)            // the other seat
	say("h", 0, nil)            // another game
	for range 2 {
		time.Sleep(gap + 50*time.Millisecond)
		say("g", 0, nil)
	}
	time.Sleep(gap + 50*time.Millisecond)
	say("g", 0, ErrPhraseLimit) // the fourth in the game
	say("g", 1, nil)            // the other seat has said one
	say("nope", 0, ErrNotFound)
	for _, c := range []struct {
		seat   int
		phrase string
	}{{2, "hello"}, {-1, "hello"}, {0, ""}, {0, "hello world"}, {0, "Hello"}, {0, strings.Repeat("a", 33)}} {
		if err := ph.SayPhrase(ctx, "h", c.seat, c.phrase, 0, most); err == nil || errors.Is(err, ErrPhraseLimit) {
			t.Errorf("SayPhrase(seat %d, %q) = %v, want a refusal", c.seat, c.phrase, err)
		}
	}
}

// TestPostgresPhraseNotice: a phrase said through one store is heard by
// another sharing the database (its game, seat and phrase), not by the
// one that said it; a refused phrase is heard by none.
func TestPostgresPhraseNotice(t *testing.T) {
	url := pgtest.Start(t)
	a, b := openPostgresAt(t, url), openPostgresAt(t, url)
	c, cancel := context.WithCancel(ctx)
	defer cancel()
	heardA, heardB := a.Changes(c), b.Changes(c)
	mustCreate(t, a, sample("g"))
	drain := func(ch <-chan Notice) {
		for {
			select {
			case <-ch:
			case <-time.After(100 * time.Millisecond):
				return
			}
		}
	}
	drain(heardA)
	drain(heardB)
	if err := a.SayPhrase(ctx, "g", 1, "well_played", time.Hour, 20); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-heardB:
		if n != (Notice{Game: "g", Phrase: "well_played", Seat: 1}) {
			t.Errorf("heard %+v, want seat 1's well_played on g", n)
		}
	case <-time.After(guardTime):
		t.Fatal("the other store heard no phrase")
	}
	if err := a.SayPhrase(ctx, "g", 1, "thanks", time.Hour, 20); !errors.Is(err, ErrPhraseLimit) {
		t.Fatalf("a second phrase at once = %v", err)
	}
	for name, ch := range map[string]<-chan Notice{"the sayer": heardA, "the other": heardB} {
		select {
		case n := <-ch:
			t.Errorf("%s heard %+v", name, n)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// guardTime bounds a wait for a notice.
const guardTime = 5 * time.Second

// FuzzParsePhrase: any payload is read without panic; one read as a
// phrase has a seat 0 or 1 and a phrase SayPhrase takes, and is the
// payload again when written back.
func FuzzParsePhrase(f *testing.F) {
	for _, s := range []string{"oanquan abc g1 0 hello", "x g 1 good_luck", "own name g 0 hello", "a b c", "", "   ", "n g 2 hello", "n g 0 Hello"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		n, ok := parsePhrase("own name", payload)
		if !ok {
			return
		}
		if checkPhrase(n.Seat, n.Phrase) != nil || n.Game == "" || strings.Contains(n.Game, " ") {
			t.Fatalf("parsePhrase(%q) = %+v", payload, n)
		}
		if !strings.HasSuffix(payload, " "+n.Game+" "+strconv.Itoa(n.Seat)+" "+n.Phrase) {
			t.Fatalf("parsePhrase(%q) = %+v: not what it says", payload, n)
		}
	})
}
