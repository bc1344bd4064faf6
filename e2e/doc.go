// Package e2e holds the browser end-to-end tests of the web game: chromedp
// drives Debian's chromium against the real server, started in-process.
//
//	apt-get install -y chromium fonts-noto-core
//	go test ./e2e/
//
// Without chromium the tests skip, except when CI=true, where they fail.
// CHROMIUM=/path/to/chrome picks another browser binary.
// E2E_URL=http://host:port runs them against a server already running.
// AXE_JS=/path/to/axe.min.js adds an axe-core audit of the page.
// UPDATE_SCREENSHOT=1 rewrites docs/screenshot.png.
package e2e
