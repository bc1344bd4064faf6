// Package endgames builds and reads endgame tables: for every position
// with at most N pebbles on the board (each mandarin stone on its square or
// not, either side to move), what is proven of its value under the full
// rules, found by iterating over all of them until nothing changes.
//
// # What a stored value means
//
// An entry holds two bounds, Lo and Hi, of a position's value: the final
// difference (the mover's total less the opponent's, after the count)
// less the standing (the same difference counted now without the rows:
// store points, debts repaid), with best play by both sides under the full
// rules of shared/RULES.md. Final turns a value into the final difference.
// The bounds hold whatever the stores hold, whatever the debts, and
// whatever the game's history; when Lo equals Hi the value is exact. Either
// bound may be missing (NegInf, PosInf).
//
// Why the board, the stones and the side to move are enough, and where
// they are not:
//
//   - What a move does to the standing depends on the board alone: a
//     capture adds what it takes, and a refill costs the side that makes
//     it exactly 5 however it is supplied (its own pebbles, a mandarin
//     exchanged for the 10 it is worth, or pebbles borrowed, whose debt is
//     repaid at the count), and costs the lender nothing. Debts change no
//     move.
//   - "No refill possible" depends on the board alone too: the stores
//     together hold 70 less the points on the board.
//   - Repetition does not: the third occurrence of a position ends the
//     game, and a position includes each store's pebbles and mandarins and
//     its occurrences depend on the history. So the table treats every
//     position after a move as one that may end the game there with the
//     rows counted (a third occurrence) or may go on, and its bounds cover
//     both. That is what makes them hold for every history and every
//     split of the stores; it is also why many entries are not exact: their
//     value does depend on the history (a line that comes back to a
//     position ends there or not), or on the stores (a loop that gains
//     points for one side goes round until the stores repeat).
//   - A refill puts 5 pebbles on the board, so a table for N pebbles does
//     not hold every position its positions lead to: a move whose result
//     has more than N pebbles has no bound from the table (an exit).
//
// # How it is built, and why the result is true
//
// Every entry starts at Lo = +126, Hi = -126 (tighter than true). A pass
// sets each entry to what its moves allow: Hi to the best, over the moves,
// of the points the move gains less the lowest the position after it can
// be worth to the opponent (its Lo, or its rows if the game ends there),
// and Lo likewise from the highest. Bounds only ever loosen, so the passes
// end, when one changes nothing. At that point every entry is consistent:
// its Hi is at least, and its Lo at most, what its moves give from the
// entries after them. The rules make every game finite (RULES.md, "Game
// end and score"), so induction on the length of the longest game from a
// position and its history shows that its true value lies between
// consistent bounds: at the end of the game the value is the count, and
// before, it is the best move's result, which lies within the bounds the
// move gives. Starting from the tightest bounds finds the tightest
// consistent ones. A table that has not finished (a checkpoint) is not
// consistent yet and is not used: Open refuses it.
//
// Three things make the build cheaper without changing a single entry
// (format 2's tables, which had them all, were compared entry by entry):
// a position with the top row to move is looked up as the board turned
// half a turn, so only the bottom row's turns are stored; a board and its
// mirror (the ring's order reversed, the stones swapped) have the same
// value, so one of the two is worked out and both written; and since a
// mandarin stone never comes back, the positions without stones are built
// to their end first, then those with one, then with both, each phase's
// passes going over its own entries only.
//
// The file is a 64-byte header (magic and format version, N, entries,
// passes, a CRC-32C of the header and the entries) and two signed bytes
// per entry, entries ordered by pebbles on the board, then board (a
// combinatorial rank), then stones, the bottom row to move; it is read
// memory-mapped where the system allows, its checksum verified when it is
// opened. A table of another format's version is refused. Build writes
// each file to a temporary file of its own and renames it into place, so
// several builds may share a directory and a reader never sees a part of
// a file.
package endgames
