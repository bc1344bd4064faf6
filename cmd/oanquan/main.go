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
	name  string // as typed; set by run
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
	c, ok := commands[args[0]]
	if !ok {
		return usagef("unknown command %q: run `oanquan help` for the list", args[0])
	}
	c.name = args[0]
	if wantsHelp(args[1:]) {
		return commandHelp(ctx, args[0], stdout)
	}
	return helped(c.run(ctx, args[1:], stdout, stderr), c, stdout)
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
	c, ok := commands[name]
	if !ok {
		return usagef("unknown command %q: run `oanquan help` for the list", name)
	}
	c.name = name
	// A command asked for its help with flags answers with them; the
	// others refuse the argument at once, having no flags.
	err := c.run(ctx, []string{"-help"}, io.Discard, io.Discard)
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
