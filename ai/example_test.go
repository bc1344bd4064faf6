package ai_test

import (
	"context"
	"fmt"
	"time"

	"oanquan/ai"
	"oanquan/notation"
	"oanquan/rules"
)

// The computer's move from the start at Hard, stopped at a depth: with
// one thread and no clock in the way, the same Limits give the same
// result every time.
func ExampleSearch() {
	var r rules.Rules
	res, err := ai.Search(context.Background(), r.Start(), ai.Limits{
		Level:    ai.Hard,
		Depth:    6,
		Seed:     1,
		MoveTime: time.Minute, // far away: the depth ends the search
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("move:", res.Move, "score:", res.Score, "depth:", res.Depth, "nodes:", res.Nodes)
	fmt.Println("line:", res.PV)
	// Output:
	// move: 6L score: 13 depth: 6 nodes: 15150
	// line: [6L 0L 9R 4R 5R 0L]
}

// Every legal move scored for the side to move, best first: what the
// page's hints show.
func ExampleHints() {
	pos, err := notation.ParsePosition("6/6/0/6/6/1*/6/6/0/0/6/1* 1 6,0,0 0,0,0 1")
	if err != nil {
		panic(err)
	}
	hints, err := ai.Hints(context.Background(), pos, ai.Limits{Depth: 4, MoveTime: time.Minute})
	if err != nil {
		panic(err)
	}
	for _, h := range hints {
		fmt.Println(h.Move, h.Score)
	}
	// Output:
	// 0R 4
	// 1R -6
	// 3L -11
	// 1L -18
	// 3R -18
	// 4L -32
	// 4R -38
	// 0L -39
}
