package rules

// history remembers the positions of a line of play for the repetition
// rule. It only compares what can still repeat: a position whose debts or
// board stones differ from the current one's can never come back (both
// change one way only), so the history is cut into windows of positions
// that share them, and a position is compared with its own window only.
type history struct {
	// entries[:n] are the positions so far. The slice only grows, so that
	// a push writes an element, not a slice header (which would cost a
	// write-barrier check on every turn).
	entries []histEntry
	n       int
	cur     window   // the current window
	windows []window // the earlier windows still open below it, for pop
}

type histEntry struct {
	key   [2]uint64 // Position.key
	bloom uint64    // a bit for each key so far in the window with the same side to move, this one included
}

type window struct {
	start int    // index in entries of the window's first position
	irrev uint64 // the window's Position.irreversible
}

func (h *history) reset() {
	h.n, h.windows = 0, h.windows[:0]
	h.cur = window{irrev: ^uint64(0)} // matches no position
}

// push adds p and returns how many times it has occurred in the line,
// itself included.
func (h *history) push(p *Position) int {
	k := p.key()
	n := h.n
	if n == len(h.entries) {
		h.entries = append(h.entries, histEntry{})
		h.entries = h.entries[:cap(h.entries)]
	}
	var bloom uint64
	if irrev := p.irreversible(); irrev != h.cur.irrev || n == 0 {
		if n > 0 {
			h.windows = append(h.windows, h.cur)
		}
		h.cur = window{start: n, irrev: irrev}
	} else if n-2 >= h.cur.start {
		// Every turn changes the side to move, so only every other
		// position can equal p, and the filter only holds those.
		bloom = h.entries[n-2].bloom
	}
	// One of 64 bits for the key: while a key's bit is not set in its
	// window, the key is certainly new there and needs no comparison.
	bit := uint64(1) << ((k[0] ^ k[1]*0x9e3779b97f4a7c15) >> 58)
	e := &h.entries[n]
	e.key, e.bloom = k, bloom|bit
	h.n = n + 1
	if bloom&bit == 0 {
		return 1
	}
	count := 1
	for i := n - 2; i >= h.cur.start; i -= 2 {
		if h.entries[i].key == k {
			count++
		}
	}
	return count
}

// pop forgets the last position pushed.
func (h *history) pop() {
	n := h.n - 1
	h.n = n
	if h.cur.start == n && n > 0 {
		w := len(h.windows) - 1
		h.cur, h.windows = h.windows[w], h.windows[:w]
	}
}
