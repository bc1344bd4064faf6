package ai

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"oanquan/ai/endgames"
	"oanquan/notation"
	"oanquan/rules"
)

var (
	updateEndgames  = flag.Bool("update-endgames", false, "write testdata/endgames.txt anew from Medium self-play")
	hardEndgames    = flag.Int("add-hard-endgames", 0, "play this many Hard-vs-Hard games and add to testdata/endgames.txt their positions 10, 20 and 40 plies before the end")
	measureEndgames = flag.Duration("endgames", 0, "search each position of testdata/endgames.txt for this long and report which are proven")
	endgamesTable   = flag.String("endgames-table", "", "with -endgames, search with the endgame table in this directory")
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

// hardPliesBefore are how far before the end of a Hard-vs-Hard game the
// third part of testdata/endgames.txt takes its positions.
var hardPliesBefore = []int{10, 20, 40}

// addHardEndgames plays n games of Hard against Hard at its defaults
// (1 s a move, two threads) from openings of 2 random plies and appends to
// testdata/endgames.txt, for each, the positions 10, 20 and 40 plies
// before its end, those Hard played (most games are shorter than 40).
func addHardEndgames(t *testing.T, n int) {
	var r rules.Rules
	var b strings.Builder
	fmt.Fprintf(&b, "# Positions 10, 20 and 40 plies before the end of Hard-vs-Hard games (Hard at its defaults,\n# 1 s a move; openings of 2 random plies), written by go test -run TestEndgames -add-hard-endgames %d.\n", n)
	for game := range n {
		opening, ok := Opening(r, 2, uint64(1000+game))
		if !ok {
			continue
		}
		g, _ := rules.NewGame(r, r.Start())
		var seen []rules.Position // from the start: the opening counts
		for _, m := range opening {
			seen = append(seen, g.Position())
			g.Play(m, nil)
		}
		table := new(Table)
		for !g.Over() {
			seen = append(seen, g.Position())
			res, err := Search(context.Background(), g.Position(), Limits{Level: Hard, History: g.History(), Table: table})
			if err != nil {
				t.Fatal(err)
			}
			g.Play(res.Move, nil)
		}
		fmt.Fprintf(&b, "# game %d: opening %v, %d plies, ended by %v at %v\n", game+1, opening, len(seen), g.End(), g.Result().Score())
		for _, k := range hardPliesBefore {
			if k <= len(seen)-len(opening) {
				fmt.Fprintf(&b, "# %d plies before the end of Hard-vs-Hard game %d\n%s\n", k, game+1, notation.FormatPosition(seen[len(seen)-k]))
			}
		}
		t.Logf("game %d: %d plies", game+1, len(seen))
	}
	f, err := os.OpenFile(endgamesFile, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(b.String()); err != nil {
		t.Fatal(err)
	}
}

// pliesBefore are how far before the end of a game the second part of
// testdata/endgames.txt takes its positions.
var pliesBefore = []int{2, 4, 6, 8, 10, 12, 16, 20}

// endgame is a position of testdata/endgames.txt and the group it is
// counted in: the part of the file, or for the Hard-vs-Hard part how far
// before the end it was taken.
type endgame struct {
	pos   rules.Position
	group string
}

func readEndgames(t *testing.T) []endgame {
	f, err := os.Open(endgamesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []endgame
	group := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "# Endgame positions"):
			group = "Medium self-play, by pebble count"
		case strings.HasPrefix(line, "# Positions k plies"):
			group = "Medium self-play, 2-20 plies before the end"
		case strings.Contains(line, "plies before the end of Hard-vs-Hard game"):
			k, _, _ := strings.Cut(strings.TrimPrefix(line, "# "), " ")
			group = "Hard vs Hard, " + k + " plies before the end"
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		p, err := notation.ParsePosition(line)
		if err != nil {
			t.Fatalf("%s: %v", endgamesFile, err)
		}
		out = append(out, endgame{p, group})
	}
	return out
}

// TestEndgames checks the fixed endgame positions: each is a game in
// progress, and a shallow search of each returns a legal move. With
// -endgames DURATION it searches each for that long and reports which
// results are proven, and per group how many and the median depth
// reached (docs/AI.md).
func TestEndgames(t *testing.T) {
	if *updateEndgames {
		writeEndgames(t)
	}
	if *hardEndgames > 0 {
		addHardEndgames(t, *hardEndgames)
	}
	es := readEndgames(t)
	if len(es) < 10 {
		t.Fatalf("%s has %d positions, want at least 10", endgamesFile, len(es))
	}
	var table *endgames.Table
	if *endgamesTable != "" {
		var err error
		if table, err = endgames.Open(*endgamesTable); err != nil {
			t.Fatal(err)
		}
		defer table.Close()
	}
	var groups []string
	proven, depths := map[string]int{}, map[string][]int{}
	for _, e := range es {
		p := e.pos
		lim := Limits{Level: Hard, MoveTime: time.Minute, Depth: 4}
		if *measureEndgames > 0 {
			lim = Limits{Level: Hard, MoveTime: *measureEndgames, Endgames: table}
		}
		start := time.Now()
		res, err := Search(context.Background(), p, lim)
		if err != nil {
			t.Fatalf("Search(%s): %v", notation.FormatPosition(p), err)
		}
		if err := p.Legal(res.Move); err != nil {
			t.Fatalf("Search(%s) = %v: %v", notation.FormatPosition(p), res.Move, err)
		}
		if _, ok := depths[e.group]; !ok {
			groups = append(groups, e.group)
		}
		depths[e.group] = append(depths[e.group], res.Depth)
		if res.Proven {
			proven[e.group]++
		}
		if *measureEndgames > 0 {
			t.Logf("pebbles %2d  proven %-5v score %+3d depth %3d  %8v  %s", boardPebbles(&p), res.Proven, res.Score, res.Depth, time.Since(start).Round(time.Millisecond), notation.FormatPosition(p))
		}
	}
	if *measureEndgames > 0 {
		for _, g := range groups {
			d := depths[g]
			slices.Sort(d)
			t.Logf("%s: proven %d of %d, depth %d-%d (median %d)", g, proven[g], len(d), d[0], d[len(d)-1], d[len(d)/2])
		}
	}
}
