package rules

// history remembers the positions of a line of play for the repetition
// rule. It only keeps what can still repeat: a position whose debts or
// board stones differ from the current one's can never come back (both
// change one way only), so each entry records where its window of
// comparable positions begins.
type history struct {
	entries []entry
}

type entry struct {
	key   [2]uint64
	irrev uint64 // Position.irreversible
	from  int    // index of the first entry with the same irrev
}

func (h *history) reset() { h.entries = h.entries[:0] }

// push adds p and returns how many times it has occurred, itself included.
func (h *history) push(p *Position) int {
	e := entry{key: p.key(), irrev: p.irreversible(), from: len(h.entries)}
	if n := len(h.entries); n > 0 && h.entries[n-1].irrev == e.irrev {
		e.from = h.entries[n-1].from
	}
	count := 1
	// Every turn changes the side to move, so only every other position
	// can equal p.
	for i := len(h.entries) - 2; i >= e.from; i -= 2 {
		if h.entries[i].key == e.key {
			count++
		}
	}
	h.entries = append(h.entries, e)
	return count
}

// pop forgets the last position pushed.
func (h *history) pop() { h.entries = h.entries[:len(h.entries)-1] }
