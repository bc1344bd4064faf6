package timecontrol_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"oanquan/timecontrol"
)

func Example() {
	blitz := timecontrol.Seconds(180, 2, 0)
	fmt.Println(blitz, blitz.Start(), blitz.Correspondence())
	days := timecontrol.Seconds(0, 0, 3)
	fmt.Println(days, days.Start(), days.Correspondence())
	// Output:
	// 180+2 3m0s false
	// 3d 72h0m0s true
}

// TestSecondsHeld: seconds beyond a time.Duration are held at its bound,
// never wrapped round to a short or negative control.
func TestSecondsHeld(t *testing.T) {
	for _, n := range []int{math.MaxInt, math.MaxInt64 / int(time.Second) * 2, 1 << 62} {
		if got := timecontrol.Seconds(n, n, 0); got.Initial != math.MaxInt64 || got.Increment != math.MaxInt64 {
			t.Errorf("Seconds(%d, …) = %+v, want both at the bound", n, got)
		}
		if got := timecontrol.Seconds(-n, 0, 0); got.Initial != math.MinInt64 {
			t.Errorf("Seconds(%d, …) = %+v, want the negative bound", -n, got)
		}
	}
	if got := timecontrol.Seconds(180, 2, 0); got.Initial != 3*time.Minute || got.Increment != 2*time.Second {
		t.Errorf("Seconds(180, 2, 0) = %+v", got)
	}
}
