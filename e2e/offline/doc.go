// Package offline holds the browser end-to-end tests of the page without
// its server: playing offline with the engine in the browser (the service
// worker, the engine's speed, endgame tables kept and mended, an engine
// that fails to load), the computer's opening move shown with and without
// the server, and the server stopped and started again under a game.
// chromedp drives Debian's chromium against the real server, started
// in-process or built and run as a program (e2e/internal/browsertest).
//
//	apt-get install -y chromium fonts-noto-core
//	go test ./e2e/offline/
//
// Without chromium the tests skip, except when CI=true, where they fail.
// The environment is package e2e's (its doc.go): CHROMIUM, E2E_URL,
// AXE_JS, SCREENSHOT_DIR; E2E_PERF=1 runs TestOfflineEngineSpeed,
// E2E_OFFLINE_PEBBLES=N the endgame tables' test with N pebbles.
//
// The browser tests are four packages so that each finishes well within
// go test's default 10 minutes (go test ./... sets no -timeout). A few
// long tests that mostly wait (a worker given up, the computer's opening
// shown three times) call t.Parallel, so that two of them run at once
// after the others; a test that sets the environment (t.Setenv, E2E_URL),
// measures time, or stops processes stays sequential.
package offline
