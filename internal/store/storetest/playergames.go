package storetest

import (
	"slices"
	"testing"
	"time"

	"oanquan/internal/store"
)

// PlayerGames: an account's games in either seat, newest first,
// paged by the creation time of the last one read; others' left out.
func PlayerGames(t *testing.T, s store.Full) {
	MustAccount(t, s.(store.Accounts), "a1", "Nam")
	MustAccount(t, s.(store.Accounts), "a2", "Lan")
	base := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for i, c := range []struct {
		id       string
		accounts [2]string
	}{{"g1", [2]string{"a1", ""}}, {"g2", [2]string{"", "a1"}}, {"g3", [2]string{"a2", ""}}, {"g4", [2]string{"a2", "a1"}}} {
		g := Sample(c.id)
		g.Mode, g.Status, g.Waiting = "online", "", store.Idle
		g.Accounts, g.Created = c.accounts, base.Add(time.Duration(i)*time.Minute)
		MustCreate(t, s, g)
	}
	ps := s.(store.PlayerGames)
	page, err := ps.GamesOf(ctx, "a1", base.Add(time.Hour), 2)
	if err != nil || !slices.Equal(page, []string{"g4", "g2"}) {
		t.Fatalf("GamesOf(a1) first page = %v, %v, want [g4 g2]", page, err)
	}
	page, err = ps.GamesOf(ctx, "a1", base.Add(time.Minute), 2) // before g2's creation
	if err != nil || !slices.Equal(page, []string{"g1"}) {
		t.Errorf("GamesOf(a1) second page = %v, %v, want [g1]", page, err)
	}
	if page, _ := ps.GamesOf(ctx, "", base.Add(time.Hour), 10); len(page) != 0 {
		t.Errorf("GamesOf(\"\") = %v, want none", page)
	}
}

// RatedInPlay: an account's rated games that go on, in either seat;
// not one finished, rated already, casual, with a seat free, or another's.
func RatedInPlay(t *testing.T, s store.Full) {
	for _, a := range [][2]string{{"a1", "Nam"}, {"a2", "Lan"}, {"a3", "Minh"}} {
		MustAccount(t, s.(store.Accounts), a[0], a[1])
	}
	base := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for i, c := range []struct {
		id, rated string
		accounts  [2]string
	}{
		{"r1", "blitz", [2]string{"a1", "a2"}}, {"r2", "blitz", [2]string{"a2", "a1"}}, {"r3", "blitz", [2]string{"a1", "a2"}},
		{"r4", "blitz", [2]string{"a1", "a2"}}, {"c5", "", [2]string{"a1", "a2"}}, {"r6", "blitz", [2]string{"a1", ""}},
		{"r7", "blitz", [2]string{"a2", "a3"}},
	} {
		g := Sample(c.id)
		g.Mode, g.Status, g.Waiting, g.Moves = "online", "", store.Idle, nil
		g.Accounts, g.Rated, g.Created = c.accounts, c.rated, base.Add(time.Duration(i)*time.Minute)
		MustCreate(t, s, g)
	}
	if err := s.Finish(ctx, "r3", store.Aborted); err != nil {
		t.Fatal(err)
	}
	if _, err := s.(store.Accounts).EndRated(ctx, "r4", store.Ending{From: "", To: `{"outcome":{"kind":"resign","player":1}}`, Score0: 1, At: base}); err != nil {
		t.Fatal(err)
	}
	got, err := s.(store.PlayerGames).RatedInPlay(ctx, "a1")
	if err != nil || !slices.Equal(got, []string{"r1", "r2"}) {
		t.Errorf("RatedInPlay(a1) = %v, %v; want [r1 r2]", got, err)
	}
	if got, _ := s.(store.PlayerGames).RatedInPlay(ctx, ""); len(got) != 0 {
		t.Errorf("RatedInPlay(\"\") = %v, want none", got)
	}
}
