package endgames

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"oanquan/rules"
)

// Table is a built endgame table, read-only and safe for concurrent use.
type Table struct {
	n     int
	data  []byte // the entries, two bytes each
	close func() error
}

// Open opens the table for the most pebbles in dir; it returns an error
// wrapping os.ErrNotExist when there is none.
func Open(dir string) (*Table, error) {
	paths := Paths(dir)
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no endgame table (pebbles-NN.egtb): %w", dir, os.ErrNotExist)
	}
	return OpenFile(paths[0])
}

// Paths returns the table files in dir (pebbles-NN.egtb), the one for the
// most pebbles first, whether they can be read or not.
func Paths(dir string) []string {
	paths, _ := filepath.Glob(filepath.Join(dir, "pebbles-*.egtb")) // the pattern is well formed
	sort.Sort(sort.Reverse(sort.StringSlice(paths)))                // by pebbles: Name pads them
	return paths
}

// OpenFile opens one table file, memory-mapped where the system allows.
// It refuses, with an error naming the file, anything but a finished
// table of this program's format whose checksum matches its entries: an
// error wraps ErrFormat for a table of another format, ErrDamaged for one
// whose entries have changed. It reads the whole file to check it the
// first time, and remembers beside it that it did (see checkedSuffix).
func OpenFile(path string) (*Table, error) {
	return openFile(path, true)
}

// openFile is OpenFile; with remember false it checks the whole file
// whatever a record says, and records nothing (for a file about to be
// renamed).
func openFile(path string, remember bool) (*Table, error) {
	data, closer, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	h, err := parseUnchecked(data, path)
	if err == nil {
		fi, serr := os.Stat(path)
		switch {
		case serr != nil || !remember:
			err = verify(data, h, path)
		case wasChecked(path, fi, h.sum):
		default:
			if err = verify(data, h, path); err == nil {
				rememberChecked(path, fi, h.sum)
			}
		}
	}
	if err != nil {
		closer()
		return nil, err
	}
	return &Table{n: h.n, data: data[headerSize:], close: closer}, nil
}

// Load reads a table from the bytes of a table file, for where there is
// no file to map (the engine in the browser receives it over the
// network). The table uses data as it is: data must not change while the
// table is in use. Like OpenFile it refuses a file that is not a finished
// table of this format with its checksum matching; name says which in its
// errors.
func Load(name string, data []byte) (*Table, error) {
	h, err := parseFinished(data, name)
	if err != nil {
		return nil, err
	}
	return &Table{n: h.n, data: data[headerSize:], close: func() error { return nil }}, nil
}

// Close releases the table.
func (t *Table) Close() error { return t.close() }

// Pebbles returns the most pebbles on the board of a position in t.
func (t *Table) Pebbles() int { return t.n }

// Covers reports whether t holds p: at most t's pebbles on the board, the
// game not over, and rules that play as the default ones from p on (the
// young-mandarin variant is over, the strict-mandarin-stop one is off).
func (t *Table) Covers(p *rules.Position, r *rules.Rules) bool {
	return t != nil && !r.StrictMandarinStop && p.Ply >= r.YoungPlies &&
		pebbles(&p.Cells) <= t.n && p.Status() == rules.EndNone
}

// lookup returns the stored bounds of p, which t covers.
func (t *Table) lookup(p *rules.Position) Bounds {
	i, _ := entry(p)
	return decode(t.data[2*i], t.data[2*i+1])
}

// Probe returns what the table proves of p's value: the final difference
// less the standing (see Final), mover's view, with best play under the
// full rules, whatever the game's history and the stores. ok is false
// when t does not cover p.
func (t *Table) Probe(p *rules.Position, r *rules.Rules) (b Bounds, ok bool) {
	if !t.Covers(p, r) {
		return unknown, false
	}
	return t.lookup(p), true
}

// MoveValue is one move's result as the table sees it.
type MoveValue struct {
	Move   rules.Move
	Bounds Bounds // the value of p after this move, p's mover's view
}

// Moves returns the bounds of each of p's moves, in the order of
// rules.Position.Moves, and p's own bounds computed from them. seen
// reports whether the position after a move has already occurred twice,
// which ends the game there; with seen nil every move's bounds hold for
// any history.
func (t *Table) Moves(p *rules.Position, r *rules.Rules, seen func(*rules.Position) bool) (moves []MoveValue, best Bounds, ok bool) {
	if !t.Covers(p, r) {
		return nil, unknown, false
	}
	best = Bounds{NegInf, NegInf}
	ms := p.Moves()
	for _, m := range ms.Moves[:ms.N] {
		ch := play(p, m)
		after, rep := unknown, mayRepeat
		if ch.end == rules.EndNone {
			switch {
			case seen == nil:
			case seen(&ch.pos):
				rep = repeats
			default:
				rep = noRepeat
			}
			if rep != repeats && t.Covers(&ch.pos, r) {
				after = t.lookup(&ch.pos)
			}
		}
		mb := moveBounds(ch.outcome(), after, rep)
		moves = append(moves, MoveValue{m, mb})
		best.Lo, best.Hi = max(best.Lo, mb.Lo), max(best.Hi, mb.Hi)
	}
	stored := t.lookup(p)
	best.Lo, best.Hi = max(best.Lo, stored.Lo), min(best.Hi, stored.Hi)
	return moves, best, true
}

// Stats counts a table's entries.
type Stats struct {
	Positions uint64 // entries that are positions in play
	Exact     uint64 // of them, those whose value is known
	Bounded   uint64 // of the others, those with at least one finite bound
	// Layers[k] counts the positions with k pebbles on the board as
	// [positions, exact].
	Layers [][2]uint64
}

// Stats counts t's entries (it reads the whole table).
func (t *Table) Stats() Stats {
	var s Stats
	var c [rules.NumCells]uint8
	s.Layers = make([][2]uint64, t.n+1)
	for k := 0; k <= t.n; k++ {
		var b bars
		b.unrank(0, k)
		for i := range layerSize(k) {
			if i > 0 {
				b.next()
			}
			b.cells(&c)
			for v := range uint64(variants) {
				p := rules.Position{Cells: c, Stone: [2]bool{v&1 != 0, v&2 != 0}}
				if p.Status() != rules.EndNone {
					continue
				}
				// Each entry is two positions: this one, and the board
				// turned with the other side to move.
				s.Positions += 2
				s.Layers[k][0] += 2
				e := (layerStart(k)+i)*variants + v
				bd := decode(t.data[2*e], t.data[2*e+1])
				switch {
				case bd.Exact():
					s.Exact += 2
					s.Layers[k][1] += 2
				case bd.Lo != NegInf || bd.Hi != PosInf:
					s.Bounded += 2
				}
			}
		}
	}
	return s
}
