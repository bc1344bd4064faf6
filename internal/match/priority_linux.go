package match

import "syscall"

// searchNice is the nice value of the threads that search: the kernel
// then gives a core to a thread serving a request (nice 0) as soon as it
// wants one, and the searches take what is left. 10 weighs a searching
// thread about a tenth of a normal one.
const searchNice = 10

// lowerPriority makes the calling thread nice; the caller has locked its
// goroutine to it. On Linux a thread's nice value is its own (PRIO_PROCESS
// with a thread id sets one thread). An error changes nothing that
// matters: the search runs at the usual priority.
func lowerPriority() {
	syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), searchNice)
}
