// Package online holds the browser end-to-end tests of games with a
// friend online: the invitation by link, who is here (presence) and the
// connection shown at the board, offers, the rematch, the seat's private
// link and "Your games", and the server frozen, killed or run twice under
// them. chromedp drives Debian's chromium against the real server,
// started in-process or built and run as a program
// (e2e/internal/browsertest, which the other browser test packages share).
//
//	apt-get install -y chromium fonts-noto-core
//	go test ./e2e/online/
//
// Without chromium the tests skip, except when CI=true, where they fail.
// The environment is package e2e's (its doc.go): CHROMIUM, E2E_URL,
// AXE_JS, SCREENSHOT_DIR.
//
// The browser tests are four packages (e2e, e2e/lobby, e2e/offline,
// e2e/online) so that each finishes well within go test's default 10
// minutes (go test ./... sets no -timeout). A long test that mostly waits
// (the seat's link and "Your games") calls t.Parallel; a test that sets
// the environment (t.Setenv, E2E_URL), measures time, or stops processes
// stays sequential.
package online
