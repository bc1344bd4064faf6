package limits

import (
	"runtime/debug"
	"sync"
	"time"

	"oanquan/internal/api"
)

// socketRetry is the Retry-After of a WebSocket refused for a cap: the
// page reconnects after it.
const socketRetry = 5 * time.Second

// Sockets counts the WebSockets open, by client and in all, and
// refuses one over either cap before the upgrade. When many have closed
// it hands the memory they used back to the system. Its lock is a leaf.
type Sockets struct {
	perClient, total int // the caps; 0: none per client
	// free hands freed memory back to the system (debug.FreeOSMemory);
	// tests count its calls.
	free func()

	mu       sync.Mutex
	open     map[string]int // by client (limiter.client)
	n        int            // open in all
	peak     int            // the most open since memory was last handed back
	lastFree time.Time
}

// freeAfter is how many WebSockets must have been open at once for their
// closing to hand memory back: below it, the runtime's own pace is
// enough.
const freeAfter = 1000

// NewSockets returns the counts of WebSockets with caps perClient (0:
// none) and total.
func NewSockets(perClient, total int) *Sockets {
	return &Sockets{perClient: perClient, total: total, free: debug.FreeOSMemory, open: make(map[string]int)}
}

// Add counts a WebSocket of client, or refuses it: 429 rate_limited over
// the client's cap, 503 unavailable over the server's. done uncounts it.
func (l *Sockets) Add(client string) (done func(), err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.perClient > 0 && l.open[client] >= l.perClient:
		return nil, &RetryError{Limit: "sockets per address", Retry: socketRetry, Err: api.Fail(api.ErrRate, "too many WebSockets open from your address (%d): close some, or try again in %d s", l.perClient, RetrySeconds(socketRetry))}
	case l.n >= l.total:
		return nil, &RetryError{Limit: "sockets", Retry: socketRetry, Err: api.Fail(api.ErrUnavailable, "the server has as many WebSockets open as it takes: try again in %d s", RetrySeconds(socketRetry))}
	}
	l.open[client]++
	l.n++
	l.peak = max(l.peak, l.n)
	var once sync.Once
	return func() { once.Do(func() { l.remove(client) }) }, nil
}

// Count returns how many WebSockets are open.
func (l *Sockets) Count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

// remove uncounts a WebSocket of client. Once fewer than half of the most
// open lately (and that many was at least freeAfter) are left, it hands
// the memory of those closed back to the system, at most every
// 10 seconds: without it, a flood of sockets that came and went leaves
// the server's resident memory high for minutes.
func (l *Sockets) remove(client string) {
	if l.removeLocked(client) {
		go l.free() // it runs a garbage collection: not under the lock
	}
}

func (l *Sockets) removeLocked(client string) (free bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[client]--; l.open[client] <= 0 {
		delete(l.open, client)
	}
	l.n--
	if l.peak < freeAfter || l.n > l.peak/2 || time.Since(l.lastFree) < 10*time.Second {
		return false
	}
	l.peak, l.lastFree = l.n, time.Now()
	return true
}
