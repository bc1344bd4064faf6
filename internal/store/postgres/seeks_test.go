package postgres

import (
	"context"
	"testing"
	"time"

	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/storetest"
)

// TestPostgresLobbyNotices: a seek posted, accepted or withdrawn through
// one store is announced to another on the same database, as a lobby
// notice naming it; the store's own changes are not.
func TestPostgresLobbyNotices(t *testing.T) {
	url := pgtest.Start(t)
	a, b := openPostgresAt(t, url), openPostgresAt(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	notices := b.Changes(ctx)
	wait := func(what, id string) {
		t.Helper()
		for {
			select {
			case n := <-notices:
				if !n.Lobby {
					continue
				}
				if n.Seek != id {
					t.Fatalf("%s: notice %+v, want the lobby's for %s", what, n, id)
				}
				return
			case <-ctx.Done():
				t.Fatalf("%s: no notice", what)
			}
		}
	}
	now := time.Now()
	if err := b.CreateSeek(ctx, storetest.NewSeek("own", now)); err != nil { // b's own: not announced to b
		t.Fatal(err)
	}
	if err := a.CreateSeek(ctx, storetest.NewSeek("s1", now)); err != nil {
		t.Fatal(err)
	}
	wait("posted", "s1")
	if err := a.AcceptSeek(ctx, "s1", "g1", 0, "", now, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	wait("accepted", "s1")
	if err := a.CreateSeek(ctx, storetest.NewSeek("s2", now)); err != nil {
		t.Fatal(err)
	}
	wait("posted", "s2")
	if err := a.WithdrawSeek(ctx, "s2"); err != nil {
		t.Fatal(err)
	}
	wait("withdrawn", "s2")
}
