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
	"sort"
	"strings"
	"syscall"
)

// command is one subcommand. Files of this package add theirs to commands
// in an init function, so that each lives beside its own code.
type command struct {
	usage string // the arguments, as in "POSITION DEPTH"
	doc   string // one line
	run   func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

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
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return runServe(ctx, args, stdout, stderr)
	}
	switch args[0] {
	case "help", "-h", "--help":
		printUsage(stdout)
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		return usagef("unknown command %q: run `oanquan help` for the list", args[0])
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Ô Ăn Quan, the Vietnamese mandarin-capture game.")
	fmt.Fprintln(w, "\nUsage:\n  oanquan [--addr HOST:PORT]        play in the browser")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := commands[n]
		fmt.Fprintf(w, "  oanquan %s %s\n      %s\n", n, c.usage, c.doc)
	}
}

// oneLine keeps the first line of msg, so that every error is one line.
func oneLine(msg string) string {
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		return msg[:i]
	}
	return msg
}
