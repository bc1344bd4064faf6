package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// presenceText is the presence line's text.
const presenceText = `(document.getElementById('presence')?.textContent || '')`

// within waits up to d for expr, failing the test with what with the
// presence line shown if it is not true by then.
func within(p *page, expr string, d time.Duration, what string) {
	p.t.Helper()
	for deadline := time.Now().Add(d); ; time.Sleep(25 * time.Millisecond) {
		if eval[bool](p, expr) {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: not within %v; the presence line says %q", what, d, eval[string](p, presenceText))
		}
	}
}

// holds checks for d that expr stays true.
func holds(p *page, expr string, d time.Duration, what string) {
	p.t.Helper()
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if !eval[bool](p, expr) {
			p.t.Fatalf("%s: no longer so; the presence line says %q", what, eval[string](p, presenceText))
		}
	}
}

// says is an expression true when the presence line contains all of
// parts and none of not.
func says(parts []string, not ...string) string {
	var conds []string
	for _, s := range parts {
		conds = append(conds, fmt.Sprintf(`%s.includes(%q)`, presenceText, s))
	}
	for _, s := range not {
		conds = append(conds, fmt.Sprintf(`!%s.includes(%q)`, presenceText, s))
	}
	return strings.Join(conds, " && ")
}

// TestPresenceTellsTheTruth (issue 18, item 2): who is on the game page
// is shown truly, with the animations on, for two players and a watcher
// in three browsers on the real program.
//   - A page whose own network is cut (DevTools) says within 2 s that it
//     cannot tell whether the friend is here, rather than the last
//     "Your friend is here"; so do all three while the server is killed.
//   - The server is killed with SIGKILL, a move is made meanwhile, and
//     it starts again: within 2 s of the three pages being reconnected
//     both players read "Your friend is here · 1 watching" and the
//     watcher sees both players, and that stays so once the move sent
//     again has been shown (the state of a turn shown later carried the
//     presence of its moment, before the friend's seat was known again:
//     the friend was shown absent and counted as a watcher).
//   - The friend leaving the page and the friend's connection dropping
//     (the browser killed: no close frame) read differently, within 2 s,
//     on the line and in the live region.
func TestPresenceTellsTheTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program")
	}
	srv := realServer(t)
	shots := shotDir(t)

	a := newPage(t, 1200, 900, `{"mode":"online","first":0}`)
	click(a, "#new")
	a.wait(`document.getElementById('newgame').open`, 5*time.Second)
	click(a, "#newgame-start")
	a.wait(`document.getElementById('invite-link')?.value.includes('?game=')`, 10*time.Second)
	link := eval[string](a, `document.getElementById('invite-link').value`)

	b := newPage(t, 390, 844, `{}`, chromedp.EmulateMobile, chromedp.EmulateTouch)
	b.do(chromedp.Navigate(link))
	b.wait(`document.documentElement.dataset.live === 'on' && `+says([]string{"Your friend is here"}), 15*time.Second)
	w := newPage(t, 1000, 800, `{}`)
	w.do(chromedp.Navigate(link))
	w.wait(`!document.getElementById('watching').hidden && document.documentElement.dataset.live === 'on'`, 15*time.Second)
	a.wait(says([]string{"Your friend is here", "1 watching"}), 10*time.Second)

	// The friend's own network is cut: the friend's page cannot tell
	// who is here, and the creator's says the friend's connection dropped.
	b.offline(true)
	cut := time.Now()
	within(b, says([]string{"cannot tell whether your friend is here"}, "Your friend is here"), 2*time.Second, "the friend's page offline")
	b.screenshot(filepath.Join(shots, "presence-unknown-phone.png"))
	auditNew(b, "presence unknown, phone")
	setLang(b, "fa")
	b.do(colorScheme(true))
	b.screenshot(filepath.Join(shots, "presence-unknown-phone-fa-dark.png"))
	auditNew(b, "presence unknown, Persian phone, dark")
	setLang(b, "en")
	b.do(colorScheme(false))
	a.wait(says([]string{"Your friend's connection dropped"}), 25*time.Second)
	t.Logf("the friend's network cut: the creator's page said the connection dropped after %v", time.Since(cut).Round(time.Millisecond))
	b.offline(false)
	b.wait(says([]string{"Your friend is here"}), 20*time.Second)
	b.forgetUnreachable()
	a.wait(says([]string{"Your friend is here", "1 watching"}), 20*time.Second)

	// The server dies; the creator moves meanwhile; it comes back.
	srv.kill()
	for _, p := range []*page{a, b, w} {
		p.wait(`document.documentElement.dataset.live === 'off'`, 10*time.Second)
		within(p, says([]string{"cannot tell"}, "Your friend is here", "●"), 2*time.Second, "while the server is down")
	}
	a.wait(onlineReady, 10*time.Second)
	shown := eval[int](a, movesShown)
	cells := eval[[]int](a, `[...document.querySelectorAll('#game-board button.cell.legal')].map(b => Number(b.dataset.cell))`)
	a.do(
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#game-board button.cell[data-cell="%d"]`, cells[0]))),
		chromedp.WaitVisible(chromedp.CSS(`.arrows .arrow[data-dir="right"]`)),
		chromedp.Click(chromedp.CSS(`.arrows .arrow[data-dir="right"]`)),
	)
	srv.start()
	for _, p := range []*page{a, b, w} {
		p.wait(`document.documentElement.dataset.live === 'on'`, 30*time.Second)
	}
	here := says([]string{"Your friend is here", "1 watching"}, "2 watching")
	both := says([]string{"●", "1 watching"}, "○")
	within(a, here, 2*time.Second, "the creator, after the restart")
	within(b, here, 2*time.Second, "the friend, after the restart")
	within(w, both, 2*time.Second, "the watcher, after the restart")
	for _, p := range []*page{a, b, w} {
		p.wait(fmt.Sprintf(`(%s) === %d`, movesShown, shown+1), 30*time.Second)
	}
	// Once the move is shown (its animation ended), still so.
	holds(a, here, time.Second, "the creator, once the move is shown")
	holds(b, here, time.Second, "the friend, once the move is shown")
	holds(w, both, time.Second, "the watcher, once the move is shown")
	for _, p := range []*page{a, b, w} {
		p.dropRefused()
	}

	// The watcher leaves while the friend's move is being shown: once
	// shown, the move's state (of its moment) does not bring the watcher
	// back on the line.
	b.wait(onlineReady, 10*time.Second)
	cells = eval[[]int](b, `[...document.querySelectorAll('#game-board button.cell.legal')].map(b => Number(b.dataset.cell))`)
	b.do(
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#game-board button.cell[data-cell="%d"]`, cells[0]))),
		chromedp.WaitVisible(chromedp.CSS(`.arrows .arrow[data-dir="left"]`)),
		chromedp.Click(chromedp.CSS(`.arrows .arrow[data-dir="left"]`)),
	)
	w.do(chromedp.Navigate("about:blank"))
	alone := says([]string{"Your friend is here"}, "watching")
	within(a, alone, 2*time.Second, "the creator, once the watcher has left")
	a.wait(fmt.Sprintf(`(%s) === %d`, movesShown, shown+2), 30*time.Second)
	holds(a, alone, 3*time.Second, "the creator, once the friend's move is shown")
	w.do(chromedp.Navigate(link))
	a.wait(here, 15*time.Second)

	// The friend leaves the page, then comes back.
	b.do(chromedp.Navigate("about:blank"))
	within(a, says([]string{"not on the game page"}, "dropped"), 2*time.Second, "the friend left the page")
	a.wait(`document.getElementById('announce').textContent.includes('has left the game page')`, 2*time.Second)
	b.do(chromedp.Navigate(link))
	a.wait(says([]string{"Your friend is here"}), 15*time.Second)

	// The friend's browser dies: the connection drops without a word.
	killBrowser(b)
	within(a, says([]string{"Your friend's connection dropped"}), 2*time.Second, "the friend's connection dropped")
	a.wait(`document.getElementById('announce').textContent.includes('connection dropped')`, 2*time.Second)
	within(w, says([]string{"connection dropped", "●"}), 2*time.Second, "the watcher sees the dropped connection")
	a.screenshot(filepath.Join(shots, "presence-dropped-desktop.png"))
	auditNew(a, "presence: a dropped connection")
	setLang(a, "fa")
	a.do(colorScheme(true))
	a.screenshot(filepath.Join(shots, "presence-dropped-fa-dark.png"))
	auditNew(a, "presence: a dropped connection, Persian, dark")
	setLang(a, "vi")
	a.screenshot(filepath.Join(shots, "presence-dropped-vi.png"))
}

// killBrowser kills p's browser and every process it started with
// SIGKILL, by their ids, its network service first (which holds the
// sockets: killed after the page's, it would close them with 1001): the
// page's connections end with no close frame, as when a phone dies or
// its network goes.
func killBrowser(p *page) {
	p.t.Helper()
	root := chromedp.FromContext(p.ctx).Browser.Process().Pid
	parent := map[int]int{}
	procs, _ := os.ReadDir("/proc")
	for _, e := range procs {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so from the last ')'.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) > 1 {
			parent[pid], _ = strconv.Atoi(f[1])
		}
	}
	of := func(pid int) bool {
		for ; pid > 1; pid = parent[pid] {
			if pid == root {
				return true
			}
		}
		return false
	}
	var rest []int
	for pid := range parent {
		if !of(pid) {
			continue
		}
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if strings.Contains(string(cmd), "NetworkService") {
			syscall.Kill(pid, syscall.SIGKILL)
		} else {
			rest = append(rest, pid)
		}
	}
	for _, pid := range rest {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}
