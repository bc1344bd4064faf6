package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"oanquan/ai"
	"oanquan/ai/endgames"
	"oanquan/internal/store/stores"
	"oanquan/rules"
)

// runEndgames builds or probes endgame tables: `endgames build` and
// `endgames probe`.
func runEndgames(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("endgames: want build or probe")
	}
	switch args[0] {
	case "build":
		return runEndgamesBuild(ctx, args[1:], stdout, stderr)
	case "probe":
		return runEndgamesProbe(args[1:], stdout)
	}
	return usagef("endgames: unknown subcommand %q: want build or probe", args[0])
}

func runEndgamesBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("endgames build", flag.ContinueOnError)
	n := fs.Int("pebbles", 10, "the most pebbles on the board of a position in the table")
	out := fs.String("out", "", "directory to write the table into (required)")
	threads := fs.Int("threads", 0, "workers (0: every core)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the build to this file, for go tool pprof")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *out == "":
		return usagef("endgames build: --out DIR is required")
	case *n < 0 || *n > 40:
		return usagef("endgames build: --pebbles %d: want 0 to 40", *n)
	case fs.NArg() > 0:
		return usagef("endgames build: unexpected argument %q", fs.Arg(0))
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	start := time.Now()
	opt := endgames.BuildOptions{Threads: *threads, Progress: func(p endgames.Progress) {
		left := "unknown"
		if p.Left >= 0 {
			left = p.Left.Round(time.Second).String()
		}
		fmt.Fprintf(stderr, "phase %d of %d, pass %d: %.0f%% done, pass ends in %v; %d of %d entries with Lo = Hi so far; the last pass changed %d; elapsed %v, left about %s\n",
			p.Phase, p.Phases, p.Pass, 100*p.Done, p.PassLeft.Round(time.Second), p.Exact, p.Positions, p.Changed, p.Elapsed.Round(time.Second), left)
	}}
	stopProfile, err := startCPUProfile(*cpuprofile)
	if err != nil {
		return err
	}
	err = endgames.Build(ctx, *n, *out, opt)
	if perr := stopProfile(); err == nil && perr != nil {
		return fmt.Errorf("endgames build: --cpuprofile: %w", perr)
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("endgames build: interrupted; run it again to resume from the checkpoint in %s", *out)
		}
		return err
	}
	path := *out + "/" + endgames.Name(*n)
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	t, err := endgames.OpenFile(path)
	if err != nil {
		return err
	}
	defer t.Close()
	st := t.Stats()
	line, _ := json.Marshal(map[string]any{"file": path, "bytes": fi.Size(), "seconds": time.Since(start).Seconds(),
		"positions": st.Positions, "exact": st.Exact, "bounded": st.Bounded, "layers": st.Layers})
	_, err = fmt.Fprintf(stdout, "%s\n", line)
	return err
}

// startCPUProfile starts a CPU profile written to path, and returns the
// function that stops it and closes the file. With no path it does
// nothing.
func startCPUProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, usagef("--cpuprofile: %v", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

// probeJSON is `endgames probe`'s answer.
type probeJSON struct {
	Exact   bool        `json:"exact"`
	Score   *int        `json:"score,omitempty"` // the final difference, mover's view, when exact
	Min     *int        `json:"min,omitempty"`   // proven bounds of it otherwise
	Max     *int        `json:"max,omitempty"`
	Verdict string      `json:"verdict,omitempty"`
	Best    []string    `json:"best,omitempty"` // the moves that reach the exact score
	Moves   []moveProbe `json:"moves"`
}

type moveProbe struct {
	Move  string `json:"move"`
	Score *int   `json:"score,omitempty"`
	Min   *int   `json:"min,omitempty"`
	Max   *int   `json:"max,omitempty"`
}

// bounds turns a table's bounds on p's value into the final difference's.
func bounds(p *rules.Position, b endgames.Bounds) (score, lo, hi *int) {
	at := func(v int) *int { f := endgames.Final(p, v); return &f }
	if b.Exact() {
		return at(b.Lo), nil, nil
	}
	if b.Lo != endgames.NegInf {
		lo = at(b.Lo)
	}
	if b.Hi != endgames.PosInf {
		hi = at(b.Hi)
	}
	return nil, lo, hi
}

func runEndgamesProbe(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("endgames probe", flag.ContinueOnError)
	dir := fs.String("endgames", "", "directory holding the table"+endgamesUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("endgames probe: missing POSITION")
	}
	pos, err := parsePosition(strings.Join(fs.Args(), " "))
	if err != nil {
		return err
	}
	t, err := openEndgames("endgames probe", *dir)
	if err != nil {
		return err
	}
	if t == nil {
		return usagef("endgames probe: no endgame table: build one (oanquan endgames build --pebbles N --out DIR) and give --endgames DIR")
	}
	defer t.Close()
	var r rules.Rules
	moves, best, ok := t.Moves(&pos, &r, nil)
	if !ok {
		if st := pos.Status(); st != rules.EndNone {
			return usagef("endgames probe: the game is over (%v)", st)
		}
		return usagef("endgames probe: the table holds positions with at most %d pebbles on the board; this one has %d", t.Pebbles(), boardPebbles(&pos))
	}
	var out probeJSON
	out.Exact = best.Exact()
	out.Score, out.Min, out.Max = bounds(&pos, best)
	if out.Exact {
		out.Verdict = ai.Result{Score: *out.Score, Proven: true}.Verdict()
	}
	for _, m := range moves {
		mp := moveProbe{Move: m.Move.String()}
		mp.Score, mp.Min, mp.Max = bounds(&pos, m.Bounds)
		if out.Exact && mp.Score != nil && *mp.Score == *out.Score {
			out.Best = append(out.Best, mp.Move)
		}
		out.Moves = append(out.Moves, mp)
	}
	line, _ := json.Marshal(out)
	_, err = fmt.Fprintf(stdout, "%s\n", line)
	return err
}

func boardPebbles(p *rules.Position) int {
	n := 0
	for _, c := range p.Cells {
		n += int(c)
	}
	return n
}

// endgamesUsage ends the help of every command's --endgames flag.
const endgamesUsage = "; default: the largest readable table in the data directory ($XDG_DATA_HOME/oanquan or ~/.local/share/oanquan) if there is one; none: no table"

// openEndgames opens the endgame table a command's --endgames flag
// names: dir's (the one for the most pebbles), none for "none", and for ""
// (the flag not given) the largest table in the data directory that this
// program reads, or none when there is none (one of another format or
// damaged is passed over: the server builds its small one again).
func openEndgames(cmd, dir string) (*endgames.Table, error) {
	switch dir {
	case "none":
		return nil, nil
	case "":
		def, err := stores.DefaultPath()
		if err != nil {
			return nil, nil
		}
		for _, path := range endgames.Paths(filepath.Dir(def)) {
			if t, err := endgames.OpenFile(path); err == nil {
				return t, nil
			}
		}
		return nil, nil
	}
	t, err := endgames.Open(dir)
	if err != nil {
		return nil, usagef("%s: --endgames: %v", cmd, err)
	}
	return t, nil
}

// closeEndgames closes a table openEndgames opened, if any.
func closeEndgames(t *endgames.Table) {
	if t != nil {
		t.Close()
	}
}
