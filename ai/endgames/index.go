package endgames

import "oanquan/rules"

// maxLayer bounds the pebbles on the board a table can index (the binomial
// table's size); tables are far smaller in practice.
const maxLayer = 40

// binom[n][k] is n choose k, for n up to maxLayer+11.
var binom = func() (t [maxLayer + 12][12]uint64) {
	for n := range t {
		t[n][0] = 1
		for k := 1; k < 12 && k <= n; k++ {
			t[n][k] = t[n-1][k-1]
			if k < n {
				t[n][k] += t[n-1][k]
			}
		}
	}
	return t
}()

// layerSize returns how many ways k pebbles lie on the twelve cells.
func layerSize(k int) uint64 { return binom[k+11][11] }

// layerStart returns the index of the first board with k pebbles: the
// boards are laid out by pebble count, fewest first, so that a table for
// N pebbles begins with the table for any smaller N.
func layerStart(k int) uint64 { return layerStarts[k] }

var layerStarts = func() (t [maxLayer + 2]uint64) {
	for k := 1; k < len(t); k++ {
		t[k] = t[k-1] + layerSize(k-1)
	}
	return t
}()

// variants is the number of table entries per board: the two stones,
// each on its square or not. The side to move is always the bottom row's
// (player 0): a position with the top row to move is the same game as
// the board turned half a turn (rotated), which swaps the rows, the
// mandarin squares and their stones, so it is looked up there.
const variants = 4

// boardRank returns the rank of the cells among the boards with their
// pebble count k: the combinatorial number system over the eleven "bars"
// that separate the twelve counts (bar j at c0+…+cj+j).
func boardRank(cells *[rules.NumCells]uint8) (rank uint64, k int) {
	t := 0
	for j := range rules.NumCells - 1 {
		t += int(cells[j])
		rank += binom[t+j][j+1]
	}
	return rank, t + int(cells[rules.NumCells-1])
}

// pebbles returns the pebbles on the board, mandarin squares included.
func pebbles(cells *[rules.NumCells]uint8) int {
	n := 0
	for _, c := range cells {
		n += int(c)
	}
	return n
}

// stoneBits returns the variant of a board whose stones are s.
func stoneBits(left, right bool) uint64 { return b2u(left) | b2u(right)<<1 }

// rotate writes into r the board c turned half a turn: each cell six
// along the ring (the rows and the mandarin squares trade places).
func rotate(r, c *[rules.NumCells]uint8) {
	copy(r[:6], c[6:])
	copy(r[6:], c[:6])
}

// mirror writes into m the board c seen in a mirror: the ring's order
// reversed, each row onto itself (its squares in the other order), the
// mandarin squares trading places. Every move has its mirror (the other
// direction from the mirrored square), so a board and its mirror, with
// their stones swapped, have the same value: the build works out one of
// the two and writes both.
func mirror(m, c *[rules.NumCells]uint8) {
	for j := range m {
		m[j] = c[(16-j)%rules.NumCells]
	}
}

// entry returns the table index of p, whose board holds k pebbles.
func entry(p *rules.Position) (idx uint64, k int) {
	cells, left, right := &p.Cells, p.Stone[0], p.Stone[1]
	var turned [rules.NumCells]uint8
	if p.ToMove != 0 {
		rotate(&turned, cells)
		cells, left, right = &turned, right, left
	}
	rank, k := boardRank(cells)
	return (layerStart(k)+rank)*variants + stoneBits(left, right), k
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// bars is a board of one layer as its bars, which enumerate the layer in
// rank order.
type bars struct {
	t [rules.NumCells - 1]int
	k int
}

// unrank sets b to the board of rank r in layer k.
func (b *bars) unrank(r uint64, k int) {
	b.k = k
	top := k + rules.NumCells - 2
	for j := rules.NumCells - 2; j >= 0; j-- {
		for binom[top][j+1] > r {
			top--
		}
		b.t[j] = top
		r -= binom[top][j+1]
		top--
	}
}

// next moves b to the board of the next rank in its layer.
func (b *bars) next() {
	for j := 0; j < len(b.t); j++ {
		limit := b.k + rules.NumCells - 2
		if j+1 < len(b.t) {
			limit = b.t[j+1] - 1
		}
		if b.t[j] < limit {
			b.t[j]++
			for i := range j {
				b.t[i] = i
			}
			return
		}
	}
}

// cells writes b's counts.
func (b *bars) cells(c *[rules.NumCells]uint8) {
	prev := -1
	for j, t := range b.t {
		c[j] = uint8(t - prev - 1)
		prev = t
	}
	c[rules.NumCells-1] = uint8(b.k + rules.NumCells - 2 - prev)
}
