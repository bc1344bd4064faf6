//go:build unix

package main

import (
	"syscall"
	"testing"
)

// TestRaiseFileLimit: the soft limit of open files is raised to the hard
// one, and that is the limit returned.
func TestRaiseFileLimit(t *testing.T) {
	var lim syscall.Rlimit
	files := raiseFileLimit()
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if files != uint64(lim.Max) || lim.Cur != lim.Max {
		t.Errorf("raiseFileLimit() = %d; limits now %d (soft), %d (hard): want both the hard one", files, lim.Cur, lim.Max)
	}
}
