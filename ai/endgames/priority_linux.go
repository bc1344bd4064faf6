package endgames

import (
	"runtime"
	"syscall"
)

// onNiceThread runs work on a thread of its own at the given nice value:
// on Linux a thread's nice value is its own (PRIO_PROCESS with a thread id
// sets one thread). The calling goroutine must end when it returns: the
// thread stays locked to it and ends with it, its nice value with it (an
// unprivileged process cannot raise a thread's priority back). The one
// thread Go never ends is the process's first, which it parks for good
// instead, and whose nice value is the one `ps` and `top` show for the
// whole process: work given that thread moves to a goroutine of its own,
// which cannot run there while this one holds it. An error setting the
// nice value changes nothing that matters: the work runs at the usual
// priority.
func onNiceThread(nice int, work func()) {
	runtime.LockOSThread()
	if syscall.Gettid() == syscall.Getpid() {
		done := make(chan struct{})
		go func() {
			defer close(done)
			onNiceThread(nice, work)
		}()
		<-done
		runtime.UnlockOSThread()
		return
	}
	syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), nice)
	work()
}
