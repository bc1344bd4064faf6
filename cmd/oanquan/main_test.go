package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestCommands: the table lists each command once, by name as the help
// prints them, each with a summary and a run function.
func TestCommands(t *testing.T) {
	for i, c := range commands {
		if c.name == "" || c.doc == "" || c.run == nil {
			t.Errorf("command %d (%q) lacks a name, a summary or a run function", i, c.name)
		}
		if i > 0 && commands[i-1].name >= c.name {
			t.Errorf("command %q after %q: want each once, by name", c.name, commands[i-1].name)
		}
	}
}

// TestHelp: `oanquan help` lists every command in the table's order with
// its usage and summary; `oanquan help NAME` and `oanquan NAME --help`
// print the one command's usage; an unknown name is a usage error.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"help"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	help := out.String()
	at := 0
	for _, c := range commands {
		line := "  oanquan " + c.name + " " + c.usage + "\n      " + c.doc + "\n"
		i := strings.Index(help[at:], line)
		if i < 0 {
			t.Fatalf("oanquan help: %q missing, or out of order, in\n%s", line, help)
		}
		at += i + len(line)
	}
	for _, args := range [][]string{{"help", "perft"}, {"perft", "--help"}} {
		out.Reset()
		if err := run(context.Background(), args, &out, io.Discard); err != nil {
			t.Fatalf("run %q: %v", args, err)
		}
		want := "Usage: oanquan perft [--variant NAME]... POSITION DEPTH\n\nCount the lines of play DEPTH turns long.\n"
		if !strings.HasPrefix(out.String(), want) {
			t.Errorf("run %q printed %q, want it to start with %q", args, out.String(), want)
		}
	}
	for _, args := range [][]string{{"nosuch"}, {"help", "nosuch"}} {
		err := run(context.Background(), args, io.Discard, io.Discard)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), `unknown command "nosuch"`) {
			t.Errorf("run %q = %v, want the usage error unknown command", args, err)
		}
	}
}

// TestLoadgenRunsHelp: loadgen's lobby and rated runs answer -help with
// their own flags, not loadgen's general ones.
func TestLoadgenRunsHelp(t *testing.T) {
	for sub, flag := range map[string]string{"lobby": "-changes", "rated": "-check-db"} {
		var out bytes.Buffer
		if err := run(context.Background(), []string{"loadgen", sub, "-help"}, &out, io.Discard); err != nil {
			t.Fatalf("loadgen %s -help: %v", sub, err)
		}
		if s := out.String(); !strings.Contains(s, "Usage: oanquan loadgen "+sub) || !strings.Contains(s, flag) || strings.Contains(s, "-fill") {
			t.Errorf("loadgen %s -help:\n%s", sub, s)
		}
	}
}
