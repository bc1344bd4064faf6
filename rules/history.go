package rules

import "math/bits"

// history remembers the positions of a line of play for the repetition
// rule. Every position is one entry, its key (Position.key), and a
// one-bit-per-key filter over the line (a Bloom filter with a single hash)
// spares most of them any comparison: a position whose bit was clear is
// certainly new. Only when the bit was already set are earlier keys
// compared, and only those that can still be equal: every other one (the
// side to move alternates), back to the first with another number of
// stones on the board (stones only leave the board, so no earlier
// position can come back; see keyPoints). Debts are not part of the
// rule's position (shared/RULES.md): a line in which a player keeps
// borrowing repeats.
//
// A push changes one word of the filter and returns that word as it was,
// for pop to restore the filter exactly.
type history struct {
	// entries[:n] are the positions so far. The slice only grows, so that
	// a push writes an element, not a slice header (which would cost a
	// write-barrier check on every turn).
	entries []entry
	n       int
	filter  [filterWords]uint64
}

// entry is a position's key.
type entry struct{ k0, k1 uint64 }

// filterWords is the filter's size in words: 4,096 bits, so that a game
// of a few hundred turns rarely finds a bit set by another position, and
// clearing it at every reset costs little.
const filterWords = 64

// slot returns the filter word and the bit of the key (k0, k1): the key
// folded to one word and Fibonacci-hashed, its top 6 bits choosing the
// word and the next 6 the bit.
func slot(k0, k1 uint64) (word uint64, bit uint64) {
	h := (k0 ^ bits.RotateLeft64(k1, 29)) * 0x9e3779b97f4a7c15
	return h >> 58, 1 << (h >> 52 & 63)
}

// reset empties h, keeping its storage.
func (h *history) reset() {
	h.n = 0
	h.filter = [filterWords]uint64{}
}

// push adds p and returns how many times it has occurred in the line,
// itself included, and what pop needs to take it back. h must have been
// reset.
func (h *history) push(p *Position) (count int, undo uint64) {
	k0, k1 := p.key()
	if h.n == len(h.entries) {
		h.grow()
	}
	w, _ := slot(k0, k1)
	undo = h.filter[w]
	if !h.add(k0, k1) {
		return 1, undo
	}
	return h.count(h.n - 1), undo
}

// add adds the position with key (k0, k1) and reports whether it may have
// occurred before in the line: when it returns false the position is new,
// and when true, count tells. There must be room for it (see grow). (It
// is push without the key, the room and the count, small enough for the
// compiler to inline in Game's turn.)
func (h *history) add(k0, k1 uint64) (maybeSeen bool) {
	// The key stays in two words throughout: written or compared as one
	// 16-byte value it would be stored and reloaded through the stack,
	// and such a load of two fresh 8-byte stores stalls the processor.
	n := h.n
	w, bit := slot(k0, k1)
	old := h.filter[w]
	h.filter[w] = old | bit
	h.entries[n] = entry{k0, k1}
	h.n = n + 1
	return old&bit != 0
}

// grow makes room for more entries. (Out of line, so that Game's turn,
// which calls it, stays small where it inlines add.)
//
//go:noinline
func (h *history) grow() {
	h.entries = append(h.entries, entry{})
	h.entries = h.entries[:cap(h.entries)]
}

// count returns how many of entries[:n+1] equal entries[n]: it compares
// every other entry (the side to move alternates) back to the first that
// held fewer points than entries[n] (see keyPoints: one with a stone that
// has left the board since), as no earlier one can be equal.
func (h *history) count(n int) int {
	k0, k1 := h.entries[n].k0, h.entries[n].k1
	points := keyPoints(k0, k1)
	count := 1
	for i := n - 2; i >= 0; i -= 2 {
		e := &h.entries[i]
		if e.k0 == k0 && e.k1 == k1 {
			count++
		} else if keyPoints(e.k0, e.k1) != points {
			break
		}
	}
	return count
}

// pop forgets the last position pushed, given what its push returned.
func (h *history) pop(undo uint64) {
	n := h.n - 1
	h.n = n
	e := &h.entries[n]
	w, _ := slot(e.k0, e.k1)
	h.filter[w] = undo
}
