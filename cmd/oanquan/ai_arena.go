package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"time"

	"oanquan/ai"
	"oanquan/rules"
)

func runArena(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	games := fs.Int("games", 20, "games to play (rounded up to an even number: each opening twice)")
	plies := fs.Int("plies", 2, "random plies that make each opening")
	seed := fs.Uint64("seed", 1, "seed for the openings and the players")
	verbose := fs.Bool("verbose", false, "print a line per game")
	balanced := fs.Int("balanced", -1, "keep only openings that Hard at depth 8 scores within this many points of even (-1: keep all)")
	dir := fs.String("endgames", "", "directory of an endgame table (oanquan endgames build) for every searching level without endgames=0"+endgamesUsage)
	var r rules.Rules
	fs.Var(variantFlags{&r}, "variant", "a rule variant (repeatable)")
	// Flags may come before or after the two players.
	var names []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return usagef("arena: %v", err)
		}
		if fs.NArg() == 0 {
			break
		}
		names = append(names, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(names) != 2 {
		return usagef("arena: want two players, A and B, got %d", len(names))
	}
	if *games < 1 || *plies < 0 {
		return usagef("arena: --games must be 1 or more and --plies 0 or more")
	}
	tb, err := openEndgames("arena", *dir)
	if err != nil {
		return err
	}
	defer closeEndgames(tb)
	var players [2]ai.Player
	for i, n := range names {
		p, err := ai.ParsePlayer(n)
		if err != nil {
			return usagef("arena: %v", err)
		}
		if !p.NoEndgames {
			p.Limits.Endgames = tb
		}
		players[i] = p
	}
	var results []ai.GameResult
	s := *seed
	for i := 0; len(results) < *games; i++ {
		opening, ok := ai.Opening(r, *plies, s*1000003+uint64(i))
		if !ok || *balanced >= 0 && !isBalanced(ctx, r, opening, *balanced) {
			continue
		}
		if i > 1000*(*games) {
			return usagef("arena: found too few openings within --balanced %d", *balanced)
		}
		for _, aFirst := range []bool{true, false} {
			g, err := ai.PlayGame(ctx, r, opening, &players[0], &players[1], aFirst, s+uint64(len(results))*7919)
			if err != nil {
				return err
			}
			results = append(results, g)
			if *verbose {
				fmt.Fprintf(stdout, "game %d: opening %v, %s first: %d-%d in %d plies\n", len(results), opening, names[map[bool]int{true: 0, false: 1}[aFirst]], g.Points[0], g.Points[1], g.Plies)
			}
		}
	}
	printArena(stdout, names, results)
	return nil
}

// isBalanced reports whether Hard, searching 8 plies on one thread,
// scores the position after opening within limit points of even.
func isBalanced(ctx context.Context, r rules.Rules, opening []rules.Move, limit int) bool {
	p := r.Start()
	for _, m := range opening {
		p.Play(m, &r, nil)
	}
	res, err := ai.Search(ctx, p, ai.Limits{Level: ai.Hard, Depth: 8, Threads: 1, Rules: r})
	return err == nil && res.Score >= -limit && res.Score <= limit
}

func printArena(w io.Writer, names []string, results []ai.GameResult) {
	st := ai.Summarise(results)
	fmt.Fprintf(w, "%s vs %s: %d games (%d openings, each played from both sides)\n", names[0], names[1], st.Games, (st.Games+1)/2)
	fmt.Fprintf(w, "%s wins %d, draws %d, losses %d\n", names[0], st.Wins, st.Draws, st.Losses)
	fmt.Fprintf(w, "score share %.1f%% (95%% interval %.1f%%–%.1f%%)\n", 100*st.Share, 100*st.Low, 100*st.High)
	fmt.Fprintf(w, "Elo difference %s (95%% interval %s to %s)\n", eloString(st.Elo), eloString(st.EloLow), eloString(st.EloHigh))
	fmt.Fprintf(w, "points share %.1f%% (95%% interval %.1f%%–%.1f%%)\n", 100*st.PointsShare, 100*st.PointsLow, 100*st.PointsHigh)
	stopped := 0
	for _, g := range results {
		if g.Stopped {
			stopped++
		}
	}
	if stopped > 0 {
		fmt.Fprintf(w, "%d games stopped after %d plies and counted as they stood\n", stopped, ai.MaxGamePlies)
	}
	for i := range 2 {
		var total, maxT time.Duration
		moves := 0
		for _, g := range results {
			total += g.Time[i]
			moves += g.Moves[i]
			maxT = max(maxT, g.MaxTime[i])
		}
		if moves > 0 {
			fmt.Fprintf(w, "%s: %d moves, mean %v, max %v per move\n", names[i], moves, (total / time.Duration(moves)).Round(time.Millisecond), maxT.Round(time.Millisecond))
		}
	}
}

func eloString(e float64) string {
	switch {
	case math.IsInf(e, 1):
		return "+inf"
	case math.IsInf(e, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.0f", e)
}
