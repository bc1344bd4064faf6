// Package e2e holds the browser end-to-end tests of the web game itself:
// playing against the computer and on one device, the board, its
// animations and the turn log, the final count, the review, How to play,
// the page's weight and its accessibility. chromedp drives Debian's
// chromium against the real server, started in-process. The other
// browser tests are packages e2e/offline (the page without its server),
// e2e/online (games with a friend online) and e2e/lobby (strangers,
// clocks, accounts); what all share is e2e/internal/browsertest.
//
//	apt-get install -y chromium fonts-noto-core
//	go test ./e2e/...
//
// Without chromium the tests skip, except when CI=true, where they fail.
// CHROMIUM=/path/to/chrome picks another browser binary.
// E2E_URL=http://host:port runs them against a server already running.
// AXE_JS=/path/to/axe.min.js adds an axe-core audit of the page.
// UPDATE_SCREENSHOT=1 rewrites docs/screenshot.png; the other screenshots go
// to $SCREENSHOT_DIR (default $TMPDIR/oanquan-shots), never the repository.
// E2E_PERF=1 measures long tasks while a turn is shown (E2E_CPU_SLOWDOWN=4
// slows the CPU as Lighthouse's mobile profile does).
// go test -run TestGoldenTraces -update rewrites testdata/traces.json from
// the engine.
//
// Each package must finish within go test's default 10 minutes (go test
// ./... sets no -timeout): the browser tests are split in four for that,
// each between a sixth and a third of the whole. A long test that mostly
// waits (a review) calls t.Parallel, so that it may run beside another
// after the others; a test that sets the environment (t.Setenv,
// E2E_URL), measures time, or stops processes stays sequential.
package e2e
