// Package online holds the browser end-to-end tests of play between
// people: games with a friend by link (invitation, presence, offers,
// rematch, the seat's private link), the lobby (quick pairing, seeks,
// names, phrases), clocks, accounts and profiles, and the server killed,
// frozen or run twice under them. chromedp drives Debian's chromium
// against the real server, started in-process or built and run as a
// program (e2e/internal/browsertest, which package e2e shares).
//
//	apt-get install -y chromium fonts-noto-core
//	go test ./e2e/online/
//
// Without chromium the tests skip, except when CI=true, where they fail.
// The environment is package e2e's (its doc.go): CHROMIUM, E2E_URL,
// AXE_JS, SCREENSHOT_DIR; E2E_LONG=1 runs TestClockDriftLong.
//
// The browser tests are split in two packages so that each finishes well
// within go test's default 10 minutes (go test ./... sets no -timeout),
// each about half of the whole. A few long tests that mostly wait (a clock
// running out, the seat's link and "Your games") call t.Parallel, so that
// two of them run at once after the others; a test that sets the
// environment (t.Setenv, E2E_URL), measures time, or stops processes
// stays sequential.
package online
