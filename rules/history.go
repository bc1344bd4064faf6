package rules

import "math/bits"

// history remembers the positions of a line of play for the repetition
// rule. It only compares what can still repeat: a position whose stones on
// the board differ from the current one's can never come back (stones
// only leave the board), so the history is cut into windows of positions
// that share them, and a position is compared with its own window only.
// Debts are not part of the rule's position (shared/RULES.md): a line in
// which a player keeps borrowing stays in one window and repeats.
// A counting filter over the whole line spares most positions even that:
// a position whose bucket was empty is certainly new.
type history struct {
	// entries[:n] are the keys (Position.key) of the positions so far.
	// The slice only grows, so that a push writes an element, not a slice
	// header (which would cost a write-barrier check on every turn).
	entries []key
	n       int
	cur     window   // the current window
	windows []window // the earlier windows still open below it, for pop
	// counts[bucket(k)] holds, under the generation gen in its high 16
	// bits, how many of entries[:n] fall in k's bucket; a counter of an
	// older generation counts none. A count that reaches countMax stays
	// there (and that bucket is then always compared), so it can never
	// wrap round to a false zero. Starting a new generation empties the
	// filter at once.
	counts *[1 << filterBits]uint32
	gen    uint32
}

type key = [2]uint64

type window struct {
	start int    // index in entries of the window's first position
	irrev uint64 // the window's Position.irreversible
}

const (
	filterBits = 12
	countMax   = 1<<16 - 1
)

// bucket returns k's counter in the filter: the key folded to one word
// and Fibonacci-hashed to its top filterBits bits.
func bucket(k0, k1 uint64) uint64 {
	return ((k0 ^ bits.RotateLeft64(k1, 29)) * 0x9e3779b97f4a7c15) >> (64 - filterBits)
}

// reset empties h, keeping its storage.
func (h *history) reset() {
	if h.gen++; h.counts == nil || h.gen == 1<<16 {
		h.counts, h.gen = new([1 << filterBits]uint32), 1
	}
	h.n, h.windows = 0, h.windows[:0]
	h.cur = window{irrev: ^uint64(0)} // matches no position
}

// push adds p and returns how many times it has occurred in the line,
// itself included. h must have been reset.
func (h *history) push(p *Position) int {
	// The key stays in two words throughout: written or compared as one
	// 16-byte value it would be stored and reloaded through the stack,
	// and such a load of two fresh 8-byte stores stalls the processor.
	k0, k1 := p.key()
	n := h.n
	if n == len(h.entries) {
		h.entries = append(h.entries, key{})
		h.entries = h.entries[:cap(h.entries)]
	}
	e := &h.entries[n]
	e[0], e[1] = k0, k1
	h.n = n + 1
	if irrev := p.irreversible(); irrev != h.cur.irrev || n == 0 {
		if n > 0 {
			h.windows = append(h.windows, h.cur)
		}
		h.cur = window{start: n, irrev: irrev}
	}
	c := &h.counts[bucket(k0, k1)]
	v := *c
	if v>>16 != h.gen {
		v = h.gen << 16
	}
	seen := v & countMax
	if seen != countMax {
		v++
	}
	*c = v
	if seen == 0 {
		return 1
	}
	// Every turn changes the side to move, so only every other position
	// can equal p.
	count := 1
	for i := n - 2; i >= h.cur.start; i -= 2 {
		if e := &h.entries[i]; e[0] == k0 && e[1] == k1 {
			count++
		}
	}
	return count
}

// pop forgets the last position pushed.
func (h *history) pop() {
	n := h.n - 1
	h.n = n
	if c := &h.counts[bucket(h.entries[n][0], h.entries[n][1])]; *c&countMax != countMax {
		*c--
	}
	if h.cur.start == n && n > 0 {
		w := len(h.windows) - 1
		h.cur, h.windows = h.windows[w], h.windows[:w]
	}
}
