//go:build unix

package main

import (
	"syscall"
	"time"
)

// selfCPU returns this process's CPU time so far, user and system, in
// seconds.
func selfCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
