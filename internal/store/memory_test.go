package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
)

func TestMemoryPutGetDelete(t *testing.T) {
	ctx := context.Background()
	s := NewMemory()
	if _, err := s.Get(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get(unknown) error = %v, want ErrNotFound", err)
	}
	g := Game{ID: "a", Mode: "ai", Level: "hard", Variants: []string{"young-mandarin"}, Moves: []string{"7R", "2L"}}
	if err := s.Put(ctx, g); err != nil {
		t.Fatalf("Put: %v", err)
	}
	got, err := s.Get(ctx, "a")
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if got.Level != "hard" || !slices.Equal(got.Moves, g.Moves) || !slices.Equal(got.Variants, g.Variants) {
		t.Errorf("Get = %+v, want %+v", got, g)
	}
	g.Moves = append(g.Moves, "5R")
	if err := s.Put(ctx, g); err != nil {
		t.Fatalf("Put again: %v", err)
	}
	if got, _ := s.Get(ctx, "a"); len(got.Moves) != 3 {
		t.Errorf("after a second Put, Moves = %v, want 3 moves", got.Moves)
	}
	if err := s.Delete(ctx, "a"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := s.Get(ctx, "a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get after Delete error = %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, "a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Delete twice error = %v, want ErrNotFound", err)
	}
}

// The store must not share memory with its callers: a caller changing a
// slice after Put, or one returned by Get, changes nothing saved.
func TestMemoryCopies(t *testing.T) {
	ctx := context.Background()
	s := NewMemory()
	g := Game{ID: "a", Moves: []string{"7R"}, Variants: []string{"x"}}
	if err := s.Put(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.Moves[0], g.Variants[0] = "changed", "changed"
	got, _ := s.Get(ctx, "a")
	if got.Moves[0] != "7R" || got.Variants[0] != "x" {
		t.Fatalf("Put kept the caller's slices: %+v", got)
	}
	got.Moves[0] = "changed"
	if again, _ := s.Get(ctx, "a"); again.Moves[0] != "7R" {
		t.Errorf("Get shared its slices: %+v", again)
	}
}

func TestMemoryCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := NewMemory()
	if err := s.Put(ctx, Game{ID: "a"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Put with a canceled context = %v, want context.Canceled", err)
	}
	if s.Len() != 0 {
		t.Errorf("Put with a canceled context saved a game")
	}
}

// TestMemoryConcurrent is for the race detector: many writers and readers
// at once.
func TestMemoryConcurrent(t *testing.T) {
	ctx := context.Background()
	s := NewMemory()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			id := fmt.Sprint(i)
			for j := range 100 {
				s.Put(ctx, Game{ID: id, Moves: make([]string, j)})
				if g, err := s.Get(ctx, id); err != nil || g.ID != id {
					t.Errorf("Get(%q) = %+v, %v", id, g, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if s.Len() != 8 {
		t.Errorf("Len = %d, want 8", s.Len())
	}
}

var _ Store = (*Memory)(nil)
