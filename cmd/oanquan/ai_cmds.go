package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"oanquan/ai"
	"oanquan/notation"
	"oanquan/rules"
)

// variantFlags collects repeated --variant flags into rules.
type variantFlags struct{ r *rules.Rules }

func (v variantFlags) String() string { return "" }
func (v variantFlags) Set(s string) error {
	return v.r.Enable(s)
}

// searchFlags are the flags bestmove and analyse share.
type searchFlags struct {
	fs       *flag.FlagSet
	rules    rules.Rules
	level    string
	movetime int
	depth    int
	seed     uint64
	endgames string
}

func newSearchFlags(name string, withLevel bool) *searchFlags {
	sf := &searchFlags{fs: flag.NewFlagSet(name, flag.ContinueOnError)}
	sf.fs.SetOutput(io.Discard)
	if withLevel {
		sf.fs.StringVar(&sf.level, "level", "hard", "easy, medium or hard")
		sf.fs.Uint64Var(&sf.seed, "seed", 0, "seed for the level's random choices")
	}
	sf.fs.IntVar(&sf.movetime, "movetime", 0, "milliseconds to think (0: the level's default)")
	sf.fs.IntVar(&sf.depth, "depth", 0, "plies to search at most (0: no limit)")
	sf.fs.Var(variantFlags{&sf.rules}, "variant", "a rule variant (repeatable)")
	sf.fs.StringVar(&sf.endgames, "endgames", "", "directory of an endgame table (oanquan endgames build) to answer from"+endgamesUsage)
	return sf
}

// parse reads the flags and the position (one argument, or its five
// fields as separate arguments) and returns the limits.
func (sf *searchFlags) parse(args []string) (rules.Position, ai.Limits, error) {
	var lim ai.Limits
	if err := sf.fs.Parse(args); err != nil {
		return rules.Position{}, lim, usagef("%s: %v", sf.fs.Name(), err)
	}
	if sf.fs.NArg() == 0 {
		return rules.Position{}, lim, usagef("%s: missing POSITION", sf.fs.Name())
	}
	pos, err := notation.ParsePosition(strings.Join(sf.fs.Args(), " "))
	if err != nil {
		return pos, lim, usagef("%s: %v", sf.fs.Name(), err)
	}
	if sf.movetime < 0 || sf.depth < 0 {
		return pos, lim, usagef("%s: --movetime and --depth must be 0 or more", sf.fs.Name())
	}
	lim = ai.Limits{Level: ai.Hard, MoveTime: time.Duration(sf.movetime) * time.Millisecond, Depth: sf.depth, Seed: sf.seed, Rules: sf.rules}
	if sf.level != "" {
		if lim.Level, err = ai.ParseLevel(sf.level); err != nil {
			return pos, lim, usagef("%s: %v", sf.fs.Name(), err)
		}
	}
	lim.Endgames, err = openEndgames(sf.fs.Name(), sf.endgames)
	return pos, lim, err
}

// searchJSON is bestmove's second line. Verdict is there only when the
// result is proven: the side to move's outcome with best play, in words
// ("wins by 6 with best play").
type searchJSON struct {
	Score   int      `json:"score"`
	Depth   int      `json:"depth"`
	Nodes   int64    `json:"nodes"`
	PV      []string `json:"pv"`
	Proven  bool     `json:"proven"`
	Verdict string   `json:"verdict,omitempty"`
}

func moveStrings(ms []rules.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

func runBestmove(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	pos, lim, err := newSearchFlags("bestmove", true).parse(args)
	if err != nil {
		return err
	}
	defer closeEndgames(lim.Endgames)
	res, err := ai.Search(ctx, pos, lim)
	if errors.Is(err, ai.ErrNoMove) {
		return usagef("bestmove: %v", err)
	}
	if err != nil {
		return err
	}
	line, _ := json.Marshal(searchJSON{Score: res.Score, Depth: res.Depth, Nodes: res.Nodes, PV: moveStrings(res.PV), Proven: res.Proven, Verdict: res.Verdict()})
	_, err = fmt.Fprintf(stdout, "%v\n%s\n", res.Move, line)
	return err
}

func runAnalyse(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	pos, lim, err := newSearchFlags("analyse", false).parse(args)
	if err != nil {
		return err
	}
	defer closeEndgames(lim.Endgames)
	hints, err := ai.Hints(ctx, pos, lim)
	if errors.Is(err, ai.ErrNoMove) {
		return usagef("analyse: %v", err)
	}
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, h := range hints {
		fmt.Fprintf(&b, "{\"move\":%q,\"score\":%d}\n", h.Move.String(), h.Score)
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}
