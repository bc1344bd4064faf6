package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"oanquan/ai"
	"oanquan/ai/endgames"
	"oanquan/notation"
	"oanquan/rules"
)

// runEngine speaks the engine protocol on standard input and output.
func runEngine(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("engine", flag.ContinueOnError)
	dir := fs.String("endgames", "", "directory of an endgame table (oanquan endgames build) for the searches and hints"+endgamesUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("engine: unexpected argument %q", fs.Arg(0))
	}
	tb, err := openEndgames("engine", *dir)
	if err != nil {
		return err
	}
	defer closeEndgames(tb)
	return engineLoop(ctx, os.Stdin, stdout, tb)
}

// engine is the state of one protocol session. Searches run in their own
// goroutine so that `stop` and `isready` are answered while they think;
// out is shared and guarded by mu.
type engine struct {
	mu      sync.Mutex
	out     io.Writer
	options ai.Limits
	game    *rules.Game

	cancel context.CancelFunc // the running search's, or nil
	done   chan struct{}      // closed when it has printed its answer
}

// engineLoop reads commands from in until `quit` or the end of input,
// answering on out. Bad commands get an `error` line and the session
// goes on.
func engineLoop(ctx context.Context, in io.Reader, out io.Writer, tb *endgames.Table) error {
	e := &engine{out: out, options: ai.Limits{Level: ai.Hard, Endgames: tb}}
	e.reset(rules.Rules{})
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	// At the end of input a running search finishes and answers; quit
	// stops it at once.
	defer e.wait()
	for sc.Scan() {
		if ctx.Err() != nil {
			return nil
		}
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if f[0] == "quit" {
			e.stop()
			return nil
		}
		if err := e.command(ctx, f); err != nil {
			e.println("error " + oneLine(err.Error()))
		}
	}
	return sc.Err()
}

func (e *engine) println(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	fmt.Fprintln(e.out, s)
}

// reset starts a new game under r, with a new transposition table: Hard
// keeps one from move to move within a game.
func (e *engine) reset(r rules.Rules) {
	e.options.Rules = r
	e.options.Table = new(ai.Table)
	e.game, _ = rules.NewGame(r, r.Start())
}

// stop ends a running search and waits for its answer.
func (e *engine) stop() {
	if e.cancel != nil {
		e.cancel()
		<-e.done
		e.cancel = nil
	}
}

// wait lets a running search finish.
func (e *engine) wait() {
	if e.cancel != nil {
		<-e.done
		e.cancel()
		e.cancel = nil
	}
}

func (e *engine) command(ctx context.Context, f []string) error {
	switch f[0] {
	case "oqi":
		e.println("id name oanquan\nid author the oanquan team")
		e.println("option name Level type combo default hard var easy var medium var hard")
		e.println("option name MoveTime type spin default 0 min 0 max 3600000")
		e.println("option name Seed type spin default 0 min 0 max 18446744073709551615")
		e.println("option name Variants type string default none")
		e.println("oqiok")
	case "isready":
		e.println("readyok")
	case "stop":
		e.stop()
	case "setoption":
		e.stop()
		return e.setOption(f[1:])
	case "newgame":
		e.stop()
		e.reset(e.options.Rules)
	case "position":
		e.stop()
		return e.position(f[1:])
	case "show":
		e.println("position " + notation.FormatPosition(e.game.Position()))
	case "go", "hints":
		e.stop()
		return e.think(ctx, f[0] == "hints", f[1:])
	default:
		return fmt.Errorf("unknown command %q", f[0])
	}
	return nil
}

func (e *engine) setOption(f []string) error {
	if len(f) < 4 || f[0] != "name" || f[2] != "value" {
		return fmt.Errorf("setoption: want setoption name NAME value VALUE")
	}
	v := strings.Join(f[3:], " ")
	switch strings.ToLower(f[1]) {
	case "level":
		l, err := ai.ParseLevel(v)
		if err != nil {
			return err
		}
		e.options.Level = l
	case "movetime":
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("setoption MoveTime %q: want milliseconds, 0 or more", v)
		}
		e.options.MoveTime = time.Duration(n) * time.Millisecond
	case "seed":
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return fmt.Errorf("setoption Seed %q: want a whole number", v)
		}
		e.options.Seed = n
	case "variants":
		var r rules.Rules
		if v != "none" {
			for _, name := range strings.Split(v, ",") {
				if err := r.Enable(name); err != nil {
					return err
				}
			}
		}
		e.reset(r)
	default:
		return fmt.Errorf("setoption: unknown option %q: want Level, MoveTime, Seed or Variants", f[1])
	}
	return nil
}

// position reads `start` or a position's five fields, then optionally
// `moves` and the moves played since.
func (e *engine) position(f []string) error {
	r := e.options.Rules
	var start rules.Position
	switch {
	case len(f) >= 1 && f[0] == "start":
		start, f = r.Start(), f[1:]
	case len(f) >= 5:
		p, err := notation.ParsePosition(strings.Join(f[:5], " "))
		if err != nil {
			return err
		}
		start, f = p, f[5:]
	default:
		return fmt.Errorf("position: want start or the five fields of a position, then moves M...")
	}
	g, err := rules.NewGame(r, start)
	if err != nil {
		return err
	}
	if len(f) > 0 {
		if f[0] != "moves" {
			return fmt.Errorf("position: %q: want moves", f[0])
		}
		for _, s := range f[1:] {
			m, err := notation.ParseMove(s)
			if err != nil {
				return err
			}
			if _, err := g.Play(m, nil); err != nil {
				return err
			}
		}
	}
	e.game = g
	return nil
}

// think starts a search (go) or an analysis (hints) in the background.
func (e *engine) think(ctx context.Context, hints bool, f []string) error {
	lim := e.options
	for i := 0; i < len(f); i += 2 {
		if i+1 >= len(f) {
			return fmt.Errorf("%q needs a value", f[i])
		}
		switch f[i] {
		case "movetime", "depth":
			n, err := strconv.Atoi(f[i+1])
			if err != nil || n < 0 {
				return fmt.Errorf("%s %q: want a whole number, 0 or more", f[i], f[i+1])
			}
			if f[i] == "depth" {
				lim.Depth = n
			} else {
				lim.MoveTime = time.Duration(n) * time.Millisecond
			}
		case "level":
			l, err := ai.ParseLevel(f[i+1])
			if err != nil {
				return err
			}
			lim.Level = l
		default:
			return fmt.Errorf("unknown go parameter %q: want movetime, depth or level", f[i])
		}
	}
	if e.game.Over() {
		return fmt.Errorf("the game is over (%v)", e.game.End())
	}
	pos := e.game.Position()
	lim.History = e.game.History()
	sctx, cancel := context.WithCancel(ctx)
	e.cancel, e.done = cancel, make(chan struct{})
	go func() {
		defer close(e.done)
		start := time.Now()
		if hints {
			hs, err := ai.Hints(sctx, pos, lim)
			if err != nil {
				e.println("error " + err.Error())
				return
			}
			var b strings.Builder
			for _, h := range hs {
				fmt.Fprintf(&b, "hint %v %d\n", h.Move, h.Score)
			}
			b.WriteString("hintsok")
			e.println(b.String())
			return
		}
		res, err := ai.Search(sctx, pos, lim)
		if err != nil {
			e.println("error " + err.Error())
			return
		}
		pv := make([]string, len(res.PV))
		for i, m := range res.PV {
			pv[i] = m.String()
		}
		verdict := ""
		if v := res.Verdict(); v != "" {
			verdict = "\nverdict " + v
		}
		e.println(fmt.Sprintf("info depth %d score %d nodes %d time %d proven %v pv %s%s\nbestmove %v",
			res.Depth, res.Score, res.Nodes, time.Since(start).Milliseconds(), res.Proven, strings.Join(pv, " "), verdict, res.Move))
	}()
	return nil
}
