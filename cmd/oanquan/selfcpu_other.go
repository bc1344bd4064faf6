//go:build !unix

package main

// selfCPU returns 0: the process's CPU time is not read here (loadgen
// then reports none).
func selfCPU() float64 { return 0 }
