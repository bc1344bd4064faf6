package limits

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestSocketsGiveMemoryBack: once a flood of WebSockets has mostly
// closed, the memory is handed back to the system, once, and not for a
// few sockets coming and going.
func TestSocketsGiveMemoryBack(t *testing.T) {
	l := NewSockets(0, 1<<20)
	var freed atomic.Int32
	l.free = func() { freed.Add(1) }
	var done []func()
	for range freeAfter {
		d, err := l.Add("192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		done = append(done, d)
	}
	settle := func() int32 { time.Sleep(20 * time.Millisecond); return freed.Load() } // free runs in a goroutine
	for _, d := range done[:freeAfter/2-1] {
		d()
		d() // twice is once
	}
	if n := settle(); n != 0 {
		t.Errorf("memory handed back with %d of %d sockets open", l.n, freeAfter)
	}
	done[freeAfter/2-1]()
	if n := settle(); n != 1 {
		t.Errorf("memory handed back %d times with half the sockets closed, want once", n)
	}
	for _, d := range done[freeAfter/2:] {
		d()
	}
	if n := settle(); n != 1 {
		t.Errorf("memory handed back %d times after every socket closed, want once", n)
	}
	if l.n != 0 || len(l.open) != 0 {
		t.Errorf("after every socket closed: %d counted, %d clients", l.n, len(l.open))
	}
	l2 := NewSockets(0, 1<<20)
	l2.free = func() { freed.Add(1) }
	for range 10 {
		d, _ := l2.Add("192.0.2.1")
		d()
	}
	time.Sleep(50 * time.Millisecond)
	if n := freed.Load(); n != 1 {
		t.Errorf("memory handed back for a few sockets: %d times in all", n)
	}
}
