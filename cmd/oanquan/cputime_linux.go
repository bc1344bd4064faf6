package main

import (
	"syscall"
	"time"
)

// threadCPUTime returns the CPU time (user and system) the calling OS
// thread has used, and true; false where it cannot be read. bench locks
// itself to one thread, so the difference of two readings is the CPU its
// work took, whatever else the machine runs. Linux keeps a thread's user
// and system time adjusted to add up to its exact run time.
func threadCPUTime() (time.Duration, bool) {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
