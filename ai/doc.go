// Package ai is the computer player of Ô Ăn Quan: a game-tree search over
// rules.Position that returns a move, its score, the depth reached, the
// nodes searched and the principal variation.
//
//	res, err := ai.Search(ctx, pos, ai.Limits{Level: ai.Hard})
//	fmt.Println(res.Move, res.Score, res.Proven)
//
// Scores are in points: the final point difference (the mover's total
// minus the opponent's) expected with best play. When every line has been
// searched to the end of the game, Result.Proven is set and the score is
// the exact final difference.
//
// There are three levels. Hard is an iterative-deepening principal
// variation search (PVS) with a shared transposition table keyed by
// Zobrist hashes, hash-move, capture and history move ordering, a
// self-play tuned evaluation and, when time allows, a second thread (Lazy
// SMP). Medium is the same search cut to two plies, without the
// quiescence search, and with some noise in its choice. Easy looks one
// move ahead like a child would: it usually grabs the biggest capture it
// sees and never looks at the reply.
//
// Search knows the repetition rule: the positions of Limits.History and
// the positions along every searched line count toward the third
// occurrence that ends a game.
//
// Search is deterministic for a given Limits (Seed included) when it runs
// on one thread and stops at a depth rather than a clock: Limits.Depth
// set, and MoveTime and the context's deadline far enough away. Hard with
// a clock uses both cores, and which iteration the clock interrupts
// varies from run to run.
package ai
