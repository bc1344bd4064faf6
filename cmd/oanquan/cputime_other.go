//go:build !linux

package main

import "time"

// threadCPUTime reports false: a thread's CPU time is not read here.
func threadCPUTime() (time.Duration, bool) { return 0, false }
