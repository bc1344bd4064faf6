package postgres

import (
	"context"
	"slices"
	"testing"
	"time"

	"oanquan/internal/store"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/storetest"
)

// TestPostgresPresence: three servers post who is connected to them on
// one board; each reads the others' posts added up, a change is heard by
// the others at once, and posts taken down or run out stop counting; a
// seat whose connection dropped is told apart from one that left. The
// three read one clock the test moves, for posts to run out.
func TestPostgresPresence(t *testing.T) {
	url := pgtest.Start(t)
	a, b, c := openPostgresAt(t, url), openPostgresAt(t, url), openPostgresAt(t, url)
	clock := storetest.NewClock()
	a.now, b.now, c.now = clock.Now, clock.Now, clock.Now
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	heard := b.Changes(cctx)
	const ttl = time.Minute
	post := func(s *DB, game, server string, p store.Presence, ttl time.Duration) {
		t.Helper()
		if err := s.PostPresence(ctx, game, server, p, ttl); err != nil {
			t.Fatalf("PostPresence(%s, %s, %+v): %v", game, server, p, err)
		}
	}
	// read checks what server sees of the others on game.
	read := func(s *DB, game, server string, want store.Presence) {
		t.Helper()
		if got, err := s.Presence(ctx, game, server); got != want || err != nil {
			t.Errorf("Presence(%s, %s) = %+v, %v; want %+v", game, server, got, err, want)
		}
	}
	hear := func(what, want string) {
		t.Helper()
		if game, ok := receive(t, heard, true, 100*time.Millisecond); !ok || game != want {
			t.Errorf("after %s, heard %q, %v within 100 ms; want %s", what, game, ok, want)
		}
	}
	// silence checks that b heard nothing of what was done: a's post on
	// the marker game (as a server of its own, z), after it, is the next
	// notice b hears (nextIs).
	marks := 0
	silence := func(what string) {
		t.Helper()
		marks++
		post(a, "marker", "z", store.Presence{Watchers: marks}, ttl)
		nextIs(t, heard, true, "marker", what)
	}

	read(b, "g", "b", store.Presence{})
	post(a, "g", "a", store.Presence{Seats: [2]bool{true, false}, Watchers: 1}, ttl)
	hear("a's post", "g")
	read(b, "g", "b", store.Presence{Seats: [2]bool{true, false}, Watchers: 1})
	read(a, "g", "a", store.Presence{}) // a's own post is not among the others'
	post(c, "g", "c", store.Presence{Seats: [2]bool{false, true}, Watchers: 2}, ttl)
	hear("c's post", "g")
	read(b, "g", "b", store.Presence{Seats: [2]bool{true, true}, Watchers: 3})
	read(a, "g", "a", store.Presence{Seats: [2]bool{false, true}, Watchers: 2})
	read(b, "h", "b", store.Presence{}) // another game

	post(a, "g", "a", store.Presence{Seats: [2]bool{true, false}}, ttl) // replaces a's post
	hear("a's new post", "g")
	read(b, "g", "b", store.Presence{Seats: [2]bool{true, true}, Watchers: 2})
	post(a, "g", "a", store.Presence{}, ttl) // takes it down
	hear("a's post taken down", "g")
	read(b, "g", "b", store.Presence{Seats: [2]bool{false, true}, Watchers: 2})
	post(a, "g", "a", store.Presence{}, ttl)
	silence("a post taken down twice")
	post(b, "g", "b", store.Presence{Watchers: 5}, ttl)
	silence("b's own post")
	read(a, "g", "a", store.Presence{Seats: [2]bool{false, true}, Watchers: 7})

	// A post that runs out stops counting at once, and is taken down
	// (and told of) by the next renewal of any server; a renewed post
	// lives on.
	const short = 10 * time.Second
	post(a, "h", "a", store.Presence{Watchers: 1}, short)
	hear("a's short post", "h")
	post(c, "k", "c", store.Presence{Watchers: 1}, short)
	hear("c's short post", "k")
	if n, expired, err := c.RenewPresence(ctx, "c", ttl); n != 2 || len(expired) != 0 || err != nil {
		t.Errorf("c renewed %d posts, took down %q, %v; want 2 and none", n, expired, err)
	}
	clock.Advance(short - time.Second)
	read(b, "h", "b", store.Presence{Watchers: 1}) // a second before its end
	clock.Advance(time.Second)
	read(b, "h", "b", store.Presence{})
	read(b, "k", "b", store.Presence{Watchers: 1})
	n, expired, err := b.RenewPresence(ctx, "b", ttl)
	if n != 1 || !slices.Equal(expired, []string{"h"}) || err != nil {
		t.Errorf("b renewed %d posts, took down %q, %v; want 1 and [h]", n, expired, err)
	}
	silence("b's own renewal") // b's server learns from expired
	n, expired, err = a.RenewPresence(ctx, "a", ttl)
	if n != 0 || len(expired) != 0 || err != nil {
		t.Errorf("a renewed %d posts, took down %q, %v; want none", n, expired, err)
	}

	// A server that stops takes all its posts down.
	if err := c.DropPresence(ctx, "c"); err != nil {
		t.Fatal(err)
	}
	var games []string
	for range 2 {
		game, _ := receive(t, heard, true, 100*time.Millisecond)
		games = append(games, game)
	}
	if slices.Sort(games); !slices.Equal(games, []string{"g", "k"}) {
		t.Errorf("after c's posts were dropped, heard %q; want g and k", games)
	}
	read(a, "g", "a", store.Presence{Watchers: 5})
	read(a, "k", "a", store.Presence{})

	// A seat whose connection dropped is posted, read by the others (not
	// by its own server), outweighed by the seat connected elsewhere,
	// renewed and taken down with the server's other posts.
	dropped0 := store.Presence{Dropped: [2]bool{true, false}}
	post(a, "m", "a", dropped0, ttl)
	hear("a's dropped seat", "m")
	read(b, "m", "b", dropped0)
	read(a, "m", "a", store.Presence{})
	post(c, "m", "c", store.Presence{Seats: [2]bool{true, false}}, ttl)
	hear("c's post", "m")
	read(b, "m", "b", store.Presence{Seats: [2]bool{true, false}})
	post(a, "m", "a", store.Presence{Seats: [2]bool{false, true}, Watchers: 1, Dropped: [2]bool{true, false}}, ttl)
	hear("a's post", "m")
	if err := c.DropPresence(ctx, "c"); err != nil {
		t.Fatal(err)
	}
	hear("c's posts dropped", "m")
	read(b, "m", "b", store.Presence{Seats: [2]bool{false, true}, Watchers: 1, Dropped: [2]bool{true, false}})
	if n, _, err := a.RenewPresence(ctx, "a", ttl); n != 2 || err != nil {
		t.Errorf("a renewed %d rows, %v; want 2 (its connections and its seat dropped)", n, err)
	}
	post(a, "m", "a", store.Presence{Seats: [2]bool{false, true}}, ttl)
	receive(t, heard, true, 100*time.Millisecond)
	read(b, "m", "b", store.Presence{Seats: [2]bool{false, true}})
	if err := a.DropPresence(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	receive(t, heard, true, 100*time.Millisecond)
	read(b, "m", "b", store.Presence{})
}

// TestPresenceAdd: presences add up seat by seat; a seat is dropped
// only where it is nowhere connected.
func TestPresenceAdd(t *testing.T) {
	tests := []struct {
		name string
		p, q store.Presence
		want store.Presence
	}{
		{"nobody", store.Presence{}, store.Presence{}, store.Presence{}},
		{"one seat each", store.Presence{Seats: [2]bool{true, false}}, store.Presence{Seats: [2]bool{false, true}, Watchers: 1}, store.Presence{Seats: [2]bool{true, true}, Watchers: 1}},
		{"a seat on both", store.Presence{Seats: [2]bool{true, false}, Watchers: 2}, store.Presence{Seats: [2]bool{true, false}, Watchers: 3}, store.Presence{Seats: [2]bool{true, false}, Watchers: 5}},
		{"dropped on one", store.Presence{Dropped: [2]bool{true, false}}, store.Presence{Seats: [2]bool{false, true}}, store.Presence{Seats: [2]bool{false, true}, Dropped: [2]bool{true, false}}},
		{"dropped on one, here on the other", store.Presence{Dropped: [2]bool{true, true}}, store.Presence{Seats: [2]bool{true, false}}, store.Presence{Seats: [2]bool{true, false}, Dropped: [2]bool{false, true}}},
	}
	for _, tt := range tests {
		if got := tt.p.Add(tt.q); got != tt.want {
			t.Errorf("%s: %+v.Add(%+v) = %+v, want %+v", tt.name, tt.p, tt.q, got, tt.want)
		}
	}
}
