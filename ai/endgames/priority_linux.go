package endgames

import "syscall"

// lowerPriority sets the nice value of the calling thread, to which the
// caller has locked its goroutine: on Linux a thread's nice value is its
// own (PRIO_PROCESS with a thread id sets one thread). An error changes
// nothing that matters: the build runs at the usual priority.
func lowerPriority(nice int) {
	syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), nice)
}
