package postgres

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"oanquan/internal/store"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/storetest"
)

// TestPostgresPhraseNotice: a phrase said through one store is heard by
// another sharing the database (its game, seat and phrase), not by the
// one that said it; a refused phrase is heard by none.
func TestPostgresPhraseNotice(t *testing.T) {
	url := pgtest.Start(t)
	a, b := openPostgresAt(t, url), openPostgresAt(t, url)
	c, cancel := context.WithCancel(ctx)
	defer cancel()
	heardA, heardB := a.Changes(c), b.Changes(c)
	storetest.MustCreate(t, a, storetest.Sample("g"))
	nextIs(t, heardB, false, "g", "the game's creation") // a hears nothing of its own
	if err := a.SayPhrase(ctx, "g", 1, "well_played", time.Hour, 20); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-heardB:
		if n != (store.Notice{Game: "g", Phrase: "well_played", Seat: 1}) {
			t.Errorf("heard %+v, want seat 1's well_played on g", n)
		}
	case <-time.After(guardTime):
		t.Fatal("the other store heard no phrase")
	}
	if err := a.SayPhrase(ctx, "g", 1, "thanks", time.Hour, 20); !errors.Is(err, store.ErrPhraseLimit) {
		t.Fatalf("a second phrase at once = %v", err)
	}
	// Neither heard more of phrases: a change of the game made by the
	// other store after, which each hears, is the next notice each gets
	// (nextIs), and none of its own phrase came before it to the sayer.
	if err := b.SetLevel(ctx, "g", "hard", store.Idle); err != nil {
		t.Fatal(err)
	}
	nextIs(t, heardA, false, "g", "the sayer's own phrases")
	if err := a.SetLevel(ctx, "g", "easy", store.Idle); err != nil {
		t.Fatal(err)
	}
	nextIs(t, heardB, false, "g", "a refused phrase")
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
		if store.CheckPhrase(n.Seat, n.Phrase) != nil || n.Game == "" || strings.Contains(n.Game, " ") {
			t.Fatalf("parsePhrase(%q) = %+v", payload, n)
		}
		if !strings.HasSuffix(payload, " "+n.Game+" "+strconv.Itoa(n.Seat)+" "+n.Phrase) {
			t.Fatalf("parsePhrase(%q) = %+v: not what it says", payload, n)
		}
	})
}
