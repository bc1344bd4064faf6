package rules

import (
	"math/rand/v2"
	"testing"
)

// The repetition history against a plain count, on lines drawn from a few
// positions so that they repeat often, with pops (as perft makes them), a
// debt that grows now and then (as in a game it never shrinks along a
// line; the rule ignores it, so it must not keep a position from
// repeating), a stone that leaves the board (no earlier position can come
// back), and a filter forced full (every push compares), with a check
// that pops leave the filter as it was.
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
		q.Stone[0] = false // fewer stones on the board: earlier ones cannot come back
		q.Stores[0].Mandarins = 1
		pool = append(pool, q)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var h history
	for game := range 40 {
		h.reset()
		if game%3 == 1 { // every bit set: every push compares
			for i := range h.filter {
				h.filter[i] = ^uint64(0)
			}
		}
		var line []Position
		var filters [][filterWords]uint64 // the filter before each push
		var undos []uint64
		for range 200 {
			if len(line) > 1 && rng.IntN(4) == 0 {
				h.pop(undos[len(undos)-1])
				undos = undos[:len(undos)-1]
				line = line[:len(line)-1]
				if h.filter != filters[len(line)] {
					t.Fatalf("game %d: the filter after a pop back to %d positions is not what it was", game, len(line))
				}
				filters = filters[:len(line)]
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
			filters = append(filters, h.filter)
			got, undo := h.push(&p)
			undos = append(undos, undo)
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

// keyPoints, which the history's comparisons stop by, is 70 less 10 for
// each stone on the board, at every position of random games (where
// stones leave the board and stores exchange mandarins).
func TestKeyPointsCountsStones(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var r Rules
	for range 300 {
		g, _ := NewGame(r, r.Start())
		for {
			p := g.Position()
			want := Total - StoneValue*int(b2u(p.Stone[0])+b2u(p.Stone[1]))
			if got := keyPoints(p.key()); got != want {
				t.Fatalf("keyPoints of %+v = %d, want %d", p, got, want)
			}
			if g.Over() {
				break
			}
			ms := g.MoveSet()
			g.PlayLegal(ms.Moves[rng.IntN(int(ms.N))], nil)
		}
	}
}
