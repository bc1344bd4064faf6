package store_test

import (
	"context"
	"errors"
	"fmt"

	"oanquan/internal/store"
	"oanquan/internal/store/memory"
)

// A game saved, a move appended, the game read back; a game that is not
// there is ErrNotFound. Any store does the same (here the memory one).
func Example() {
	ctx := context.Background()
	var s store.Full = memory.New()
	defer s.Close()

	start := "5/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 0" // notation.Start
	if err := s.Create(ctx, store.Game{ID: "k3j9x2", Mode: "ai", Level: "easy", Start: start}); err != nil {
		fmt.Println(err)
	}
	// Move 0; the computer is to move after it.
	if err := s.Append(ctx, "k3j9x2", 0, "7R", store.ComputerToMove); err != nil {
		fmt.Println(err)
	}
	g, err := s.Get(ctx, "k3j9x2")
	fmt.Println(g.Moves, g.Waiting == store.ComputerToMove, err)

	// The same index again: another writer got there first.
	err = s.Append(ctx, "k3j9x2", 0, "2L", store.Idle)
	fmt.Println(errors.Is(err, store.ErrConflict))

	_, err = s.Get(ctx, "nope")
	fmt.Println(errors.Is(err, store.ErrNotFound))
	// Output:
	// [7R] true <nil>
	// true
	// true
}
