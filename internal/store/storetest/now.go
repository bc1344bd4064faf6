package storetest

import (
	"sync"
	"time"
)

// Clock is a clock the tests move by hand: a store opened for the
// contract reads its now from one (each adapter's tests set it, as only
// they can), so that leases, phrases' gaps, the ends and changes of
// games (Updated, Finish) and presence's posts run out when a test says,
// never by sleeping. It stands still until moved.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a Clock at the present, whole microseconds (the
// precision every store keeps).
func NewClock() *Clock {
	return &Clock{t: time.Now().Truncate(time.Microsecond)}
}

// Now returns the clock's time: the func a store takes as its clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
