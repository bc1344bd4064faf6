// Package browsertest holds what the browser tests of the web game share
// (packages e2e, e2e/lobby, e2e/offline and e2e/online): a Chromium tab on the game (NewPage, Page:
// its console errors fail the test), the server it talks to (started
// in-process, E2E_URL, or the real program built and run by BuildServer,
// to be killed and started again), screenshots (ShotDir), the axe-core
// audit (AuditNew), the network cut through DevTools (Page.Offline), and
// the moves and checks that several tests make (PlayByKeyboard, ToMove,
// CheckFinalCount, …).
//
// Without Chromium, NewPage and RealServer skip the test, except when
// CI=true, where they fail it. CHROMIUM=/path/to/chrome picks another
// browser binary; AXE_JS=/path/to/axe.min.js turns the audit on;
// SCREENSHOT_DIR says where screenshots go (by default a folder under the
// system's temporary directory, never the repository).
//
// It is for tests only (it takes a *testing.T throughout), under e2e/ so
// that nothing else imports it. The tests dot-import it, as Go's own
// external tests import the package they test: its names are the tests'
// vocabulary, as they were when every browser test was one package.
package browsertest
