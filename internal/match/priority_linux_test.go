package match

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"oanquan/ai"
)

// TestWorkersNice: the pool's searches run on threads of a lower priority
// than the rest of the process.
func TestWorkersNice(t *testing.T) {
	p := NewPool(1, first{})
	defer p.Close()
	nice := func() int {
		data, err := os.ReadFile("/proc/thread-self/stat")
		if err != nil {
			t.Skip("no /proc/thread-self:", err)
		}
		// The fields after the command's closing parenthesis: state is
		// field 3, nice field 19.
		f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
		n, err := strconv.Atoi(f[19-3])
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	var inWorker int
	p.do(context.Background(), "g", func(context.Context, *ai.Table) { inWorker = nice() })
	if inWorker != searchNice {
		t.Errorf("a worker's thread has nice %d, want %d", inWorker, searchNice)
	}
}
