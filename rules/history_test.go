package rules

import (
	"math/rand/v2"
	"testing"
)

// The repetition history against a plain count, on lines drawn from a few
// positions so that they repeat often, with pops (as perft makes them), a
// debt that grows now and then (as in a game it never shrinks along a
// line; the rule ignores it, so it must not keep a position from
// repeating), a stone that leaves the board (a new window), resets across
// the filter's generation wrap, and buckets forced to their sticky
// maximum.
func TestHistoryCountsLikeAPlainCount(t *testing.T) {
	var r Rules
	base := r.Start()
	var pool []Position
	for i := range 6 {
		p := base
		p.Cells[0], p.Cells[1] = uint8(5-i), uint8(5+i)
		pool = append(pool, p)
		q := p
		q.Stores[0].Debt = 3 // the same position for the rule
		pool = append(pool, q)
		q.Stone[0] = false // a different window
		q.Stores[0].Mandarins = 1
		pool = append(pool, q)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var h history
	h.reset()
	h.gen = 1<<16 - 3 // the generation wraps a few resets from now
	for game := range 40 {
		h.reset()
		if game%3 == 1 { // a pool position's bucket at its sticky maximum
			k0, k1 := pool[rng.IntN(len(pool))].key()
			h.counts[bucket(k0, k1)] = h.gen<<16 | countMax
		}
		var line []Position
		for range 200 {
			if len(line) > 1 && rng.IntN(4) == 0 {
				h.pop()
				line = line[:len(line)-1]
				continue
			}
			p := pool[rng.IntN(len(pool))]
			if n := len(line); n > 0 {
				last := line[n-1]
				if last.Stores[0].Debt > p.Stores[0].Debt {
					p.Stores[0].Debt = last.Stores[0].Debt // debts only grow
				}
				if !last.Stone[0] && p.Stone[0] {
					continue // stones only leave the board
				}
			}
			p.ToMove = Player(len(line) & 1) // turns alternate, as in a game
			got := h.push(&p)
			line = append(line, p)
			if want := plainCount(line); got != want {
				t.Fatalf("game %d, position %d of the line: push says %d occurrences, a plain count %d", game, len(line)-1, got, want)
			}
		}
	}
}

// plainCount counts the occurrences of the last position of line within
// it, comparing everything but the ply and the debts.
func plainCount(line []Position) int {
	last := refKey(line[len(line)-1])
	n := 0
	for _, p := range line {
		if refKey(p) == last {
			n++
		}
	}
	return n
}
