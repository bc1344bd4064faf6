package e2e

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	. "oanquan/e2e/internal/browsertest"
)

// TestTurnLongTasks plays turns at normal speed on the phone profile
// (360×740, touch; E2E_CPU_SLOWDOWN=4 slows the CPU four times as
// Lighthouse's mobile profile does) and asks Chromium's long-task timing
// for any task over 50 ms while they are shown: a turn's animation must
// not hold the main thread long enough to drop frames. On a machine busy
// with other work a task also lasts while the renderer waits for a core,
// so figures under load overstate: the test runs only when E2E_PERF is
// set (.ci/run sets it and runs it alone, after the other tests), and
// tries again when it sees a long task.
func TestTurnLongTasks(t *testing.T) {
	if os.Getenv("E2E_PERF") == "" {
		t.Skip("set E2E_PERF=1 to measure long tasks (E2E_CPU_SLOWDOWN=4 for Lighthouse's mobile CPU)")
	}
	rate := 1.0
	if v, err := strconv.ParseFloat(os.Getenv("E2E_CPU_SLOWDOWN"), 64); err == nil && v >= 1 {
		rate = v
	}
	// A task the page makes long is long every time; one that a busy
	// machine makes long comes and goes. Up to three tries, each in a new
	// page: the test fails when every one saw a long task.
	for try := 1; ; try++ {
		long := turnLongTasks(t, rate)
		if len(long) == 0 {
			break
		}
		if try == 3 {
			t.Errorf("long tasks while turns were shown, in each of %d tries; the last: %v ms", try, long)
			break
		}
	}
}

// turnLongTasks plays a turn and its reply at normal speed, on a phone
// with its CPU slowed rate times, and returns the page's long tasks
// meanwhile, in ms.
func turnLongTasks(t *testing.T, rate float64) []int {
	p := NewPage(t, 360, 740, `{"mode":"ai","level":"easy","anim":"normal","first":0,"sound":false}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	p.Wait(Ready, 20*time.Second)
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate})
		return err
	}))
	p.Do(chromedp.Evaluate[chromedp.Void](`window.__long = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(Math.round(e.duration)); }).observe({ type: 'longtask' })`))
	rng := rand.New(rand.NewPCG(31, 32))
	start := time.Now()
	PlayByClicks(p, rng)
	long := Eval[[]int](p, `window.__long`)
	t.Logf("a turn and its reply at normal speed, CPU slowed %v×: %v, long tasks (ms): %v", rate, time.Since(start).Round(time.Millisecond), long)
	return long
}
