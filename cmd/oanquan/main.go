// Command oanquan plays Ô Ăn Quan. With no subcommand it serves the
// browser game; the subcommands drive the engine from the command line:
//
//	oanquan apply [--variant NAME]... POSITION MOVE...
//	oanquan show POSITION
//	oanquan perft [--variant NAME]... POSITION DEPTH
//	oanquan bench [--seconds S]
//
// Run `oanquan help` for the full list.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// command is one subcommand.
type command struct {
	name  string // as typed
	usage string // the arguments, as in "POSITION DEPTH"
	doc   string // one line
	run   func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands are the subcommands, in the order `oanquan help` lists them
// (by name). Each one's run function is in the file of its kind: the
// engine's (apply, show, perft) in engine.go, the computer player's in
// ai_*.go, the others in a file named after the command.
var commands = []command{
	{"analyse", "[--movetime MS] [--depth N] [--variant NAME]... POSITION",
		"every legal move with its score (points, mover's view), best first, one JSON line each", runAnalyse},
	{"apply", "[--variant NAME]... POSITION MOVE...",
		"play the moves from the position; one JSON line per move", runApply},
	{"arena", "A B [--games N] [--plies N] [--balanced POINTS] [--seed N] [--variant NAME]... [--verbose]",
		"two players (easy, medium, hard, random or alphabeta, with settings as in hard:movetime=200 or alphabeta:depth=8) play paired openings; prints wins, draws, losses, score share with 95% interval, Elo difference, points share", runArena},
	{"bench", "[--seconds S]",
		"random playouts from the start on one core, by the engine and by a plain implementation in alternate slices of 0.1 s (S seconds each); one JSON line: playouts, turns, seconds, playouts_per_sec, turns_per_sec (the engine), the same with plain_ (the plain one), cpu_seconds and playouts_per_cpu_sec for each (the thread's CPU time, where it can be read), ratio (engine over plain, per CPU second where known)", runBench},
	{"bestmove", "[--level easy|medium|hard] [--movetime MS] [--depth N] [--seed N] [--variant NAME]... POSITION",
		`the computer's move: the move on one line, then JSON with score, depth, nodes, pv, proven and, when proven, a verdict such as "wins by 6 with best play"`, runBestmove},
	{"endgames", "build --pebbles N --out DIR [--threads N] | probe [--endgames DIR] POSITION",
		"build the endgame table for every position with at most N pebbles on the board (resumable), or probe it: proven bounds of the final difference, exact when they meet, and the best moves", runEndgames},
	{"engine", "[--endgames DIR]",
		"speak the engine protocol (docs/PROTOCOL.md) on standard input and output", runEngine},
	{"icons", "",
		"draws the web app's icons (SVG, 192 and 512 px PNG) into web/static/icons; go generate ./web runs it", runIcons},
	{"loadgen", "[lobby|rated] [--url URL] [--games N] [--rate R] [--hard K] [--seconds S] [--warmup S] [--pid PID] [--fill N]",
		"drive a game server on this machine with concurrent games (lobby: a lobby change reaching many lobby pages; rated: rated games between new accounts through quick pairing; docs/OPERATING.md); one JSON line of figures", runLoadgen},
	{"perft", "[--variant NAME]... POSITION DEPTH",
		"count the lines of play DEPTH turns long", runPerft},
	{"reports", "[--db FILE|URL] [--days N] [--limit N]",
		"players' reports of players (for operators), newest first; one JSON line each: id, created, reported, reporter, reason, game", runReports},
	{"review", "[--movetime MS] [--depth N] RECORD_FILE",
		"go through a game record move by move: score before and after, the better move, inaccuracy/mistake/blunder; one JSON line per move", runReview},
	{"show", "POSITION",
		"draw the position as a board", runShow},
	{"wasm", "",
		"builds the engine for the browser (WebAssembly) into web/static/offline; go generate ./web runs it", runWasm},
}

// lookup finds the command name.
func lookup(name string) (command, error) {
	for _, c := range commands {
		if c.name == name {
			return c, nil
		}
	}
	return command{}, usagef("unknown command %q: run `oanquan help` for the list", name)
}

// usageError is a mistake in the command line or its input: exit status 2,
// one line on stderr.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "oanquan: "+oneLine(err.Error()))
		var ue *usageError
		if errors.As(err, &ue) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// run is the whole program, testable: it returns a *usageError for bad
// input and writes nothing on stdout for it.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	switch {
	case len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help"):
		if len(args) > 1 {
			return commandHelp(ctx, args[1], stdout)
		}
		printUsage(stdout)
		fmt.Fprintln(stdout, "\nFlags of the server (oanquan with no command):")
		var h *helpRequest
		if errors.As(runServe(ctx, []string{"-help"}, io.Discard, io.Discard), &h) {
			h.fs.SetOutput(stdout)
			h.fs.PrintDefaults()
		}
		return nil
	case len(args) == 0 || strings.HasPrefix(args[0], "-"):
		return helped(runServe(ctx, args, stdout, stderr), serveCommand, stdout)
	}
	c, err := lookup(args[0])
	if err != nil {
		return err
	}
	if wantsHelp(args[1:]) {
		if sub := args[1]; c.name == "loadgen" && (sub == "lobby" || sub == "rated") {
			// A run of its own, with flags of its own.
			err := c.run(ctx, []string{sub, "-help"}, io.Discard, io.Discard)
			return helped(err, command{name: "loadgen " + sub, usage: "[flags]", doc: loadgenRuns[sub]}, stdout)
		}
		return commandHelp(ctx, args[0], stdout)
	}
	return helped(c.run(ctx, args[1:], stdout, stderr), c, stdout)
}

// loadgenRuns describes loadgen's runs of their own.
var loadgenRuns = map[string]string{
	"lobby": "time a lobby change (a seek posted, then cancelled) until every one of many lobby WebSockets has it, from many loopback source addresses; one JSON line of figures",
	"rated": "play rated games at once between new accounts paired by quick pairing, at a steady pace, and check every rating; one JSON line of figures",
}

// serveCommand describes the program run without a subcommand.
var serveCommand = command{
	name:  "",
	usage: "[--addr HOST:PORT] [--db PATH|memory|postgres://…] [flags]",
	doc:   "serve the browser game",
}

// wantsHelp reports whether a command's arguments ask for its help, before
// any "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// commandHelp prints the usage of the command name and its flags.
func commandHelp(ctx context.Context, name string, stdout io.Writer) error {
	c, err := lookup(name)
	if err != nil {
		return err
	}
	// A command asked for its help with flags answers with them; the
	// others refuse the argument at once, having no flags.
	err = c.run(ctx, []string{"-help"}, io.Discard, io.Discard)
	if h := (*helpRequest)(nil); !errors.As(err, &h) {
		err = &helpRequest{}
	}
	return helped(err, c, stdout)
}

// helped prints c's usage if err is a request for help, and returns nil
// then; otherwise it returns err.
func helped(err error, c command, stdout io.Writer) error {
	var h *helpRequest
	if !errors.As(err, &h) {
		return err
	}
	name := "oanquan"
	if c.name != "" {
		name += " " + c.name
	}
	fmt.Fprintf(stdout, "Usage: %s %s\n\n%s.\n", name, c.usage, upperFirst(c.doc))
	if h.fs != nil {
		fmt.Fprintln(stdout, "\nFlags:")
		h.fs.SetOutput(stdout)
		h.fs.PrintDefaults()
	}
	return nil
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Ô Ăn Quan, the Vietnamese mandarin-capture game.")
	fmt.Fprintln(w, "\nUsage:\n  oanquan [--addr HOST:PORT] [--db …] serve the browser game (flags below)")
	for _, c := range commands {
		fmt.Fprintf(w, "  oanquan %s %s\n      %s\n", c.name, c.usage, c.doc)
	}
}

// oneLine keeps the first line of msg, so that every error is one line.
func oneLine(msg string) string {
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		return msg[:i]
	}
	return msg
}
