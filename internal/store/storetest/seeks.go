package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"oanquan/internal/store"
)

// Seeks is the contract of store.Seeks: the lobby's seeks, accepted,
// paired, held, withdrawn and expired, with their races.
func Seeks(t *testing.T, open Opener) {
	for _, tt := range []struct {
		name string
		f    func(t *testing.T, s store.Seeks)
	}{
		{"CreateList", testSeekCreateList},
		{"Accept", testSeekAccept},
		{"AcceptRace", testSeekAcceptRace},
		{"Expire", testSeekExpire},
		{"Withdraw", testSeekWithdraw},
		{"Pair", testSeekPair},
		{"Hold", testSeekHold},
		{"Within", testSeekWithin},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := open(t, nil).(store.Seeks)
			if !ok {
				t.Fatal("the store keeps no seeks")
			}
			tt.f(t, s)
		})
	}
}

// SeekT0 is when the seeks of the tests are made.
var SeekT0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// NewSeek returns an open seek id made at created.
func NewSeek(id string, created time.Time) store.Seek {
	return store.Seek{ID: id, Key: []byte("0123456789abcdef0123456789abcdef"), Address: "192.0.2.1", Initial: 180, Increment: 2,
		Rated: true, Min: 1400, Max: 1700, Speed: "blitz", Account: "acct-" + id, Created: created, Expires: created.Add(30 * time.Minute)}
}

func testSeekCreateList(t *testing.T, s store.Seeks) {
	ctx := context.Background()
	a, b := NewSeek("a", SeekT0.Add(time.Second)), NewSeek("b", SeekT0)
	b.Account, b.Rated, b.Min, b.Max, b.Days, b.Initial, b.Increment, b.Speed = "", false, 0, 0, 3, 0, 0, "correspondence"
	for _, k := range []store.Seek{a, b} {
		if err := s.CreateSeek(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateSeek(ctx, a); !errors.Is(err, store.ErrExists) {
		t.Errorf("CreateSeek of a taken id = %v, want ErrExists", err)
	}
	got, err := s.OpenSeeks(ctx, SeekT0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "b" || got[1].ID != "a" {
		t.Fatalf("OpenSeeks = %v, want b then a", got)
	}
	if g := got[1]; g.Account != a.Account || string(g.Key) != string(a.Key) || g.Initial != 180 || g.Increment != 2 || !g.Rated ||
		g.Min != 1400 || g.Max != 1700 || g.Speed != "blitz" || !g.Created.Equal(a.Created) || !g.Expires.Equal(a.Expires) || g.Game != "" {
		t.Errorf("OpenSeeks[1] = %+v, want %+v", g, a)
	}
	if g := got[0]; g.Days != 3 || g.Rated || g.Account != "" {
		t.Errorf("OpenSeeks[0] = %+v, want %+v", g, b)
	}
	if n, err := s.CountSeeks(ctx, "192.0.2.1", SeekT0.Add(time.Minute)); err != nil || n != 2 {
		t.Errorf("CountSeeks = %d, %v, want 2", n, err)
	}
	if err := s.DeleteSeek(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seek(ctx, "a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Seek of a deleted seek = %v, want ErrNotFound", err)
	}
	if err := s.DeleteSeek(ctx, "a"); err != nil {
		t.Errorf("DeleteSeek of none = %v, want nil", err)
	}
}

func testSeekAccept(t *testing.T, s store.Seeks) {
	ctx := context.Background()
	if err := s.CreateSeek(ctx, NewSeek("a", SeekT0)); err != nil {
		t.Fatal(err)
	}
	now, keep := SeekT0.Add(time.Minute), SeekT0.Add(time.Hour)
	if err := s.AcceptSeek(ctx, "none", "g1", 1, "", now, keep); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("AcceptSeek of none = %v, want ErrNotFound", err)
	}
	if err := s.AcceptSeek(ctx, "a", "g1", 1, "acct-x", now, keep); err != nil {
		t.Fatal(err)
	}
	if err := s.AcceptSeek(ctx, "a", "g2", 0, "", now, keep); !errors.Is(err, store.ErrConflict) {
		t.Errorf("AcceptSeek of an accepted seek = %v, want ErrConflict", err)
	}
	k, err := s.Seek(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if k.Game != "g1" || k.Seat != 1 || k.Acceptor != "acct-x" || !k.Expires.Equal(keep) {
		t.Errorf("Seek after accepting = %+v, want game g1, seat 1, acceptor acct-x, expires %v", k, keep)
	}
	if open, _ := s.OpenSeeks(ctx, now); len(open) != 0 {
		t.Errorf("OpenSeeks lists an accepted seek: %v", open)
	}
	// An expired seek cannot be accepted.
	if err := s.CreateSeek(ctx, NewSeek("b", SeekT0)); err != nil {
		t.Fatal(err)
	}
	if err := s.AcceptSeek(ctx, "b", "g3", 0, "", SeekT0.Add(31*time.Minute), keep); !errors.Is(err, store.ErrConflict) {
		t.Errorf("AcceptSeek of an expired seek = %v, want ErrConflict", err)
	}
}

// testSeekAcceptRace: of 20 accepting one seek at once, exactly one
// succeeds and the seek names its game.
func testSeekAcceptRace(t *testing.T, s store.Seeks) {
	ctx := context.Background()
	if err := s.CreateSeek(ctx, NewSeek("a", SeekT0)); err != nil {
		t.Fatal(err)
	}
	const n = 20
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.AcceptSeek(ctx, "a", fmt.Sprintf("g%d", i), 0, "", SeekT0.Add(time.Second), SeekT0.Add(time.Hour))
		}()
	}
	wg.Wait()
	won := -1
	for i, err := range errs {
		switch {
		case err == nil && won >= 0:
			t.Fatalf("both %d and %d accepted the seek", won, i)
		case err == nil:
			won = i
		case !errors.Is(err, store.ErrConflict):
			t.Errorf("accept %d: %v, want ErrConflict", i, err)
		}
	}
	if won < 0 {
		t.Fatal("no one accepted the seek")
	}
	if k, err := s.Seek(ctx, "a"); err != nil || k.Game != fmt.Sprintf("g%d", won) {
		t.Errorf("Seek = %+v, %v, want game g%d", k, err, won)
	}
}

func testSeekExpire(t *testing.T, s store.Seeks) {
	ctx := context.Background()
	old, young := NewSeek("old", SeekT0), NewSeek("young", SeekT0.Add(20*time.Minute))
	for _, k := range []store.Seek{old, young} {
		if err := s.CreateSeek(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	now := SeekT0.Add(40 * time.Minute)
	if open, _ := s.OpenSeeks(ctx, now); len(open) != 1 || open[0].ID != "young" {
		t.Errorf("OpenSeeks at %v = %v, want only young", now, open)
	}
	n, err := s.ExpireSeeks(ctx, now)
	if err != nil || n != 1 {
		t.Fatalf("ExpireSeeks = %d, %v, want 1", n, err)
	}
	if _, err := s.Seek(ctx, "old"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Seek(old) after expiry = %v, want ErrNotFound", err)
	}
	if _, err := s.Seek(ctx, "young"); err != nil {
		t.Errorf("Seek(young) = %v", err)
	}
}

// CheckMigratedV8 checks a store migrated from schema v8 (before holds):
// its seek "s1" is open, never held, and may then be held and swept.
func CheckMigratedV8(t *testing.T, s store.Seeks) {
	t.Helper()
	if k, err := s.Seek(ctx, "s1"); err != nil || !k.Held.IsZero() {
		t.Fatalf("the v8 seek after migrating: held until %v, %v", k.Held, err)
	}
	if n, err := s.SweepSeeks(ctx, SeekT0.Add(time.Minute)); err != nil || n != 0 {
		t.Errorf("SweepSeeks of a seek never held = %d, %v, want 0", n, err)
	}
	if err := s.HoldSeeks(ctx, []string{"s1"}, "A", SeekT0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if n, err := s.SweepSeeks(ctx, SeekT0.Add(time.Minute)); err != nil || n != 1 {
		t.Errorf("SweepSeeks of a lapsed hold = %d, %v, want 1", n, err)
	}
}

// CheckMigratedV7 checks a store migrated from schema v7 (before
// seeks): it keeps its accounts and keeps seeks.
func CheckMigratedV7(t *testing.T, s store.Store) {
	t.Helper()
	if _, err := s.(store.Accounts).AccountByID(ctx, "a1"); err != nil {
		t.Errorf("the v7 account after migrating: %v", err)
	}
	k := NewSeek("s1", SeekT0)
	k.Account = "a1"
	if err := s.(store.Seeks).CreateSeek(ctx, k); err != nil {
		t.Fatal(err)
	}
	if got, err := s.(store.Seeks).Seek(ctx, "s1"); err != nil || got.Account != "a1" {
		t.Errorf("Seek after migrating = %+v, %v", got, err)
	}
}

func testSeekWithdraw(t *testing.T, s store.Seeks) {
	ctx := context.Background()
	for _, id := range []string{"a", "b"} {
		if err := s.CreateSeek(ctx, NewSeek(id, SeekT0)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AcceptSeek(ctx, "b", "g1", 0, "", SeekT0, SeekT0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.WithdrawSeek(ctx, "a"); err != nil {
		t.Errorf("WithdrawSeek of an open seek: %v", err)
	}
	if _, err := s.Seek(ctx, "a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Seek after withdrawing = %v, want ErrNotFound", err)
	}
	if err := s.WithdrawSeek(ctx, "a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("WithdrawSeek of none = %v, want ErrNotFound", err)
	}
	if err := s.WithdrawSeek(ctx, "b"); !errors.Is(err, store.ErrConflict) {
		t.Errorf("WithdrawSeek of an accepted seek = %v, want ErrConflict", err)
	}
	if k, err := s.Seek(ctx, "b"); err != nil || k.Game != "g1" {
		t.Errorf("the accepted seek after a withdrawal: %+v, %v", k, err)
	}
}

// testSeekPair: two open seeks are paired at once, naming each other's
// accounts; a seek taken refuses the pairing, leaving the other open;
// of many pairing one seek with others at once, exactly one succeeds.
func testSeekPair(t *testing.T, s store.Seeks) {
	ctx := context.Background()
	for _, id := range []string{"a", "b", "c", "d"} {
		k := NewSeek(id, SeekT0)
		k.Pool, k.Rating = true, 1512.5
		if err := s.CreateSeek(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	now, keep := SeekT0.Add(time.Second), SeekT0.Add(time.Hour)
	if err := s.PairSeeks(ctx, "a", "b", "g1", 1, now, keep); err != nil {
		t.Fatal(err)
	}
	ka, _ := s.Seek(ctx, "a")
	kb, _ := s.Seek(ctx, "b")
	if ka.Game != "g1" || kb.Game != "g1" || ka.Seat != 1 || kb.Seat != 0 || ka.Acceptor != "acct-b" || kb.Acceptor != "acct-a" {
		t.Errorf("paired: %+v and %+v", ka, kb)
	}
	if !ka.Pool || ka.Rating != 1512.5 {
		t.Errorf("a pool ticket read back as %+v", ka)
	}
	if err := s.PairSeeks(ctx, "c", "a", "g2", 0, now, keep); !errors.Is(err, store.ErrConflict) {
		t.Errorf("pairing with a taken seek = %v, want ErrConflict", err)
	}
	if kc, _ := s.Seek(ctx, "c"); kc.Game != "" {
		t.Errorf("a refused pairing changed c: %+v", kc)
	}
	if err := s.PairSeeks(ctx, "c", "c", "g3", 0, now, keep); !errors.Is(err, store.ErrConflict) {
		t.Errorf("pairing a seek with itself = %v, want ErrConflict", err)
	}
	// c and d, from both ends at once, many times: one pairing wins.
	const n = 10
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x, y := "c", "d"
			if i%2 == 1 {
				x, y = y, x
			}
			errs[i] = s.PairSeeks(ctx, x, y, fmt.Sprintf("r%d", i), 0, now, keep)
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
		} else if !errors.Is(err, store.ErrConflict) {
			t.Errorf("racing pairing: %v", err)
		}
	}
	kc, _ := s.Seek(ctx, "c")
	kd, _ := s.Seek(ctx, "d")
	if won != 1 || kc.Game == "" || kc.Game != kd.Game {
		t.Errorf("%d pairings won; c in %q, d in %q", won, kc.Game, kd.Game)
	}
}

// testSeekHold: a hold is a lease: renewed by any holder, never
// shortened by another's renewal; SweepSeeks deletes the open seeks whose
// hold lapsed, and leaves the never-held and the accepted ones.
func testSeekHold(t *testing.T, s store.Seeks) {
	ctx := context.Background()
	for _, id := range []string{"held", "lapsed", "never", "taken"} {
		k := NewSeek(id, SeekT0)
		k.Poster = []byte("poster-" + id)
		if err := s.CreateSeek(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	if k, err := s.Seek(ctx, "never"); err != nil || string(k.Poster) != "poster-never" {
		t.Errorf("Seek(never).Poster = %q, %v, want poster-never", k.Poster, err)
	}
	if err := s.AcceptSeek(ctx, "taken", "g1", 0, "x", SeekT0, SeekT0.Add(10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	t5, t10 := SeekT0.Add(5*time.Second), SeekT0.Add(10*time.Second)
	if err := s.HoldSeeks(ctx, []string{"held", "lapsed", "taken", "nonesuch"}, "A", t5); err != nil {
		t.Fatal(err)
	}
	if err := s.HoldSeeks(ctx, []string{"held"}, "B", t10); err != nil {
		t.Fatal(err)
	}
	if err := s.HoldSeeks(ctx, []string{"held"}, "A", t5); err != nil { // A's older renewal: no shorter
		t.Fatal(err)
	}
	if k, err := s.Seek(ctx, "held"); err != nil || k.Holder != "B" || !k.Held.Equal(t10) {
		t.Errorf("Seek(held) = %s until %v, %v; want B until %v", k.Holder, k.Held, err, t10)
	}
	if k, err := s.Seek(ctx, "taken"); err != nil || !k.Held.IsZero() {
		t.Errorf("Seek(taken) held until %v, %v; want never (accepted before)", k.Held, err)
	}
	n, err := s.SweepSeeks(ctx, SeekT0.Add(7*time.Second))
	if err != nil || n != 1 {
		t.Fatalf("SweepSeeks = %d, %v, want 1 (lapsed)", n, err)
	}
	if _, err := s.Seek(ctx, "lapsed"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Seek(lapsed) after the sweep = %v, want ErrNotFound", err)
	}
	for _, id := range []string{"held", "never", "taken"} {
		if _, err := s.Seek(ctx, id); err != nil {
			t.Errorf("Seek(%s) after the sweep = %v", id, err)
		}
	}
}

// testSeekWithin: CreateSeekWithin saves no more than the bound of open
// seeks of an address, or of a network (Seek.Wide), even when they are
// posted at once, nor more than the bound of all; accepted and expired
// seeks are not counted, nor another address's or network's.
func testSeekWithin(t *testing.T, s store.Seeks) {
	ctx := context.Background()
	at := func(id, addr string, created time.Time) store.Seek {
		k := NewSeek(id, created)
		k.Address = addr
		return k
	}
	if err := s.CreateSeek(ctx, at("old", "192.0.2.1", SeekT0.Add(-time.Hour))); err != nil { // expired by seekT0
		t.Fatal(err)
	}
	if _, err := s.CreateSeekWithin(ctx, at("taken", "192.0.2.1", SeekT0), store.Bounds{Address: 2}); err != nil {
		t.Fatal(err)
	}
	if err := s.AcceptSeek(ctx, "taken", "g1", 0, "", SeekT0, SeekT0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.CreateSeekWithin(ctx, at(fmt.Sprintf("s%d", i), "192.0.2.1", SeekT0.Add(time.Second)), store.Bounds{Address: 2})
		}()
	}
	wg.Wait()
	saved := 0
	for _, err := range errs {
		switch {
		case err == nil:
			saved++
		case !errors.Is(err, store.ErrSeekLimit):
			t.Errorf("CreateSeekWithin = %v, want nil or ErrSeekLimit", err)
		}
	}
	if saved != 2 {
		t.Errorf("%d of 8 seeks posted at once saved, want 2", saved)
	}
	n, err := s.CreateSeekWithin(ctx, at("late", "192.0.2.1", SeekT0.Add(2*time.Second)), store.Bounds{Address: 2})
	if !errors.Is(err, store.ErrSeekLimit) || n != 2 {
		t.Errorf("one more = %d, %v; want 2, ErrSeekLimit", n, err)
	}
	if _, err := s.CreateSeekWithin(ctx, at("other", "198.51.100.1", SeekT0.Add(2*time.Second)), store.Bounds{Address: 2}); err != nil {
		t.Errorf("another address's = %v", err)
	}

	// A network's /64s, posting at once, have no more than b.Wide open
	// together, each within its own bound.
	b := store.Bounds{Address: 2, Wide: 3}
	in := func(id string, net64 int, wide string) store.Seek {
		k := at(id, fmt.Sprintf("2001:db8:1:%x::/64", net64), SeekT0.Add(3*time.Second))
		k.Wide = wide
		return k
	}
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.CreateSeekWithin(ctx, in(fmt.Sprintf("w%d", i), i, "2001:db8:1::/48"), b)
		}()
	}
	wg.Wait()
	saved = 0
	for _, err := range errs {
		switch {
		case err == nil:
			saved++
		case !errors.Is(err, store.ErrWideLimit):
			t.Errorf("CreateSeekWithin in a full network = %v, want nil or ErrWideLimit", err)
		}
	}
	if saved != 3 {
		t.Errorf("%d of 8 seeks of one network's /64s posted at once saved, want 3", saved)
	}
	if _, err := s.CreateSeekWithin(ctx, in("w-other", 1, "2001:db8:2::/48"), b); err != nil {
		t.Errorf("another network's = %v", err)
	}
	// Open now: s*, other, w* and w-other: 2+1+3+1.
	n, err = s.CreateSeekWithin(ctx, at("full", "203.0.113.1", SeekT0.Add(3*time.Second)), store.Bounds{Address: 2, All: 7})
	if !errors.Is(err, store.ErrLobbyFull) || n != 7 {
		t.Errorf("past the bound of all = %d, %v; want 7, ErrLobbyFull", n, err)
	}
	if _, err := s.CreateSeekWithin(ctx, at("room", "203.0.113.1", SeekT0.Add(3*time.Second)), store.Bounds{Address: 2, All: 8}); err != nil {
		t.Errorf("within the bound of all = %v", err)
	}
	if k, err := s.Seek(ctx, "w-other"); err != nil || k.Wide != "2001:db8:2::/48" {
		t.Errorf("Seek(w-other) = %+v, %v; want its network kept", k, err)
	}
}
