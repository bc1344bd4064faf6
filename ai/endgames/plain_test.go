package endgames

import (
	"testing"

	"oanquan/rules"
)

// TestBuildMatchesPlainIteration: the build's shortcuts — the top row's
// turns read at the board turned, a board worked out with its mirror, the
// stones' phases, the entries whose moves lead to no changed board left
// alone — change no value. A plain iteration over every position of both
// sides, every one every pass until a pass changes nothing, gives the same
// bounds as the table for every position in play, 6 pebbles and fewer.
func TestBuildMatchesPlainIteration(t *testing.T) {
	const n = 6
	tb, err := Load("table", build(t, n, BuildOptions{}))
	if err != nil {
		t.Fatal(err)
	}

	// The plain table: eight entries a board (side, left stone, right
	// stone), no symmetry.
	index := func(p *rules.Position) (uint64, int) {
		rank, k := boardRank(&p.Cells)
		return (layerStart(k)+rank)*8 + uint64(p.ToMove) | b2u(p.Stone[0])<<1 | b2u(p.Stone[1])<<2, k
	}
	var all []rules.Position
	for k := 0; k <= n; k++ {
		var b bars
		b.unrank(0, k)
		for i := range layerSize(k) {
			if i > 0 {
				b.next()
			}
			for v := range 8 {
				p := rules.Position{ToMove: rules.Player(v & 1), Stone: [2]bool{v&2 != 0, v&4 != 0}}
				b.cells(&p.Cells)
				setStores(&p, k)
				if p.Status() == rules.EndNone {
					all = append(all, p)
				}
			}
		}
	}
	plain := make([]Bounds, layerStart(n+1)*8)
	for i := range plain {
		plain[i] = start
	}
	for pass := 1; ; pass++ {
		changed := 0
		for i := range all {
			p := &all[i]
			nb := Bounds{NegInf, NegInf}
			ms := p.Moves()
			for _, m := range ms.Moves[:ms.N] {
				ch := play(p, m)
				after := unknown
				if ch.end == rules.EndNone {
					if idx, k := index(&ch.pos); k <= n {
						after = plain[idx]
					}
				}
				mb := moveBounds(ch.outcome(), after, mayRepeat)
				nb.Lo, nb.Hi = max(nb.Lo, mb.Lo), max(nb.Hi, mb.Hi)
			}
			idx, _ := index(p)
			cur := plain[idx]
			nb.Lo, nb.Hi = min(nb.Lo, cur.Lo), max(nb.Hi, cur.Hi)
			if nb != cur {
				plain[idx] = nb
				changed++
			}
		}
		if changed == 0 {
			t.Logf("plain iteration: %d positions, %d passes", len(all), pass)
			break
		}
	}

	differ := 0
	for i := range all {
		p := &all[i]
		idx, _ := index(p)
		if got := tb.lookup(p); got != plain[idx] {
			differ++
			if differ <= 5 {
				t.Errorf("%v: table %v, plain iteration %v", p, got, plain[idx])
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d positions differ", differ, len(all))
	}
}
