//go:build unix

package main

import "syscall"

// raiseFileLimit raises the soft limit of open files to the hard one and
// returns it; 0 if it cannot be read. (Go's os package does the same at
// start since Go 1.19; asking again says what the limit is.)
func raiseFileLimit() uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	if lim.Cur < lim.Max {
		raised := lim
		raised.Cur = lim.Max
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised) == nil {
			lim = raised
		}
	}
	return uint64(lim.Cur)
}
