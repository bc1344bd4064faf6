// Package lobby holds the browser end-to-end tests of play between
// strangers and of the players' accounts: the lobby (quick pairing,
// seeks, names, phrases), games with clocks (on time, correspondence, a
// claim, the first move's limit), accounts, profiles and the leaderboard.
// chromedp drives Debian's chromium against the real server, started
// in-process (e2e/internal/browsertest).
//
//	apt-get install -y chromium fonts-noto-core
//	go test ./e2e/lobby/
//
// Without chromium the tests skip, except when CI=true, where they fail.
// The environment is package e2e's (its doc.go): CHROMIUM, E2E_URL,
// AXE_JS, SCREENSHOT_DIR; E2E_LONG=1 runs TestClockDriftLong; E2E_PERF=1
// holds TestClockOnTime to the clock's 100 ms (alone, as .ci/run runs it).
//
// The browser tests are four packages so that each finishes well within
// go test's default 10 minutes (go test ./... sets no -timeout). Two long
// tests that mostly wait for a clock call t.Parallel, so that they run
// at once after the others; a test that sets the environment (t.Setenv,
// E2E_URL), measures time, or stops processes stays sequential.
package lobby
