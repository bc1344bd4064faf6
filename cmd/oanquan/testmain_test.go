package main

import (
	"fmt"
	"os"
	"testing"
)

// TestMain gives the tests a data directory of their own, so that the
// commands' defaults (the games' database, the endgame tables found there)
// never read or change the user's; a test that needs another sets
// XDG_DATA_HOME itself.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "oanquan-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_DATA_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
