package storetest

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"oanquan/internal/store"
)

// Blocks: blocks are listed in order, blocking twice is one block,
// BlockedWith holds both directions, Unblock forgets one direction only;
// BlockedAmong answers for many accounts at once as BlockedWith does for
// each (and only for those asked of).
func Blocks(t *testing.T, s store.Full) {
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for i, b := range [][2]string{{"a", "b"}, {"a", "c"}, {"a", "b"}, {"d", "a"}} {
		if err := s.Block(ctx, b[0], b[1], t0.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.Blocked(ctx, "a"); err != nil || !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("Blocked(a) = %v, %v, want [b c]", got, err)
	}
	with, err := s.BlockedWith(ctx, "a")
	if got := slices.Sorted(maps.Keys(with)); err != nil || !slices.Equal(got, []string{"b", "c", "d"}) {
		t.Errorf("BlockedWith(a) = %v, %v, want [b c d]", got, err)
	}
	if with, _ := s.BlockedWith(ctx, "b"); !with["a"] || len(with) != 1 {
		t.Errorf("BlockedWith(b) = %v, want a (who blocked b)", with)
	}
	if err := s.Unblock(ctx, "a", "b"); err != nil {
		t.Fatal(err)
	}
	if with, _ := s.BlockedWith(ctx, "b"); len(with) != 0 {
		t.Errorf("BlockedWith(b) after Unblock(a, b) = %v, want none", with)
	}
	if with, _ := s.BlockedWith(ctx, "d"); !with["a"] {
		t.Errorf("BlockedWith(d) = %v, want a", with)
	}
	if err := s.Block(ctx, "e", "f", t0); err != nil {
		t.Fatal(err)
	}
	among, err := s.BlockedAmong(ctx, []string{"a", "b", "c", "f", "z"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"a": {"c", "d"}, "c": {"a"}, "f": {"e"}}
	if len(among) != len(want) {
		t.Errorf("BlockedAmong = %v, want %v", among, want)
	}
	for acct, w := range want {
		if got := slices.Sorted(maps.Keys(among[acct])); !slices.Equal(got, w) {
			t.Errorf("BlockedAmong[%s] = %v, want %v", acct, got, w)
		}
	}
	if among, err := s.BlockedAmong(ctx, nil); err != nil || len(among) != 0 {
		t.Errorf("BlockedAmong(none) = %v, %v, want none", among, err)
	}
}
