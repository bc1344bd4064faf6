package ai

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"oanquan/notation"
	"oanquan/rules"
)

var (
	updateEndgames  = flag.Bool("update-endgames", false, "write testdata/endgames.txt anew from Medium self-play")
	measureEndgames = flag.Duration("endgames", 0, "search each position of testdata/endgames.txt for this long and report which are proven")
)

const endgamesFile = "testdata/endgames.txt"

// boardPebbles counts the pebbles on the board, stones left out.
func boardPebbles(p *rules.Position) int {
	n := 0
	for _, c := range p.Cells {
		n += int(c)
	}
	return n
}

// writeEndgames plays Medium against itself from random openings and
// keeps, for each even pebble count from 4 to 40, the first position
// reached with at most that many pebbles on the board.
func writeEndgames(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var r rules.Rules
	found := map[int]rules.Position{}
	before := map[int]rules.Position{} // k plies before the end of a game
	for game := 0; (len(found) < 19 || len(before) < len(pliesBefore)) && game < 500; game++ {
		g := randomGame(t, r, rng, 2)
		var seen []rules.Position
		for !g.Over() {
			seen = append(seen, g.Position())
			pos := g.Position()
			n := boardPebbles(&pos)
			for k := 4; k <= 40; k += 2 {
				if _, ok := found[k]; !ok && n <= k && n > k-2 {
					found[k] = pos
				}
			}
			res, _ := Search(context.Background(), pos, Limits{Level: Medium, Seed: uint64(game), History: g.History()})
			g.Play(res.Move, nil)
		}
		for _, k := range pliesBefore {
			if _, ok := before[k]; !ok && len(seen) > k+2 && game%len(pliesBefore) == len(before) {
				before[k] = seen[len(seen)-k]
				break
			}
		}
	}
	var b strings.Builder
	b.WriteString("# Endgame positions from Medium self-play: one per board pebble count\n# (stones not counted), written by go test -run TestEndgames -update-endgames.\n")
	for k := 4; k <= 40; k += 2 {
		if p, ok := found[k]; ok {
			fmt.Fprintf(&b, "%s\n", notation.FormatPosition(p))
		}
	}
	b.WriteString("# Positions k plies before the end of a Medium self-play game, k = 2, 4, 6, 8, 10, 12, 16, 20.\n")
	for _, k := range pliesBefore {
		if p, ok := before[k]; ok {
			fmt.Fprintf(&b, "%s\n", notation.FormatPosition(p))
		}
	}
	if err := os.WriteFile(endgamesFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pliesBefore are how far before the end of a game the second part of
// testdata/endgames.txt takes its positions.
var pliesBefore = []int{2, 4, 6, 8, 10, 12, 16, 20}

func readEndgames(t *testing.T) []rules.Position {
	f, err := os.Open(endgamesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []rules.Position
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := notation.ParsePosition(line)
		if err != nil {
			t.Fatalf("%s: %v", endgamesFile, err)
		}
		out = append(out, p)
	}
	return out
}

// TestEndgames checks the fixed endgame positions: each is a game in
// progress, and a shallow search of each returns a legal move. With
// -endgames DURATION it searches each for that long and reports which
// results are proven (docs/AI.md).
func TestEndgames(t *testing.T) {
	if *updateEndgames {
		writeEndgames(t)
	}
	ps := readEndgames(t)
	if len(ps) < 10 {
		t.Fatalf("%s has %d positions, want at least 10", endgamesFile, len(ps))
	}
	for _, p := range ps {
		lim := Limits{Level: Hard, Depth: 4}
		if *measureEndgames > 0 {
			lim = Limits{Level: Hard, MoveTime: *measureEndgames}
		}
		start := time.Now()
		res, err := Search(context.Background(), p, lim)
		if err != nil {
			t.Fatalf("Search(%s): %v", notation.FormatPosition(p), err)
		}
		if err := p.Legal(res.Move); err != nil {
			t.Fatalf("Search(%s) = %v: %v", notation.FormatPosition(p), res.Move, err)
		}
		if *measureEndgames > 0 {
			t.Logf("pebbles %2d  proven %-5v score %+3d depth %3d  %8v  %s", boardPebbles(&p), res.Proven, res.Score, res.Depth, time.Since(start).Round(time.Millisecond), notation.FormatPosition(p))
		}
	}
}
