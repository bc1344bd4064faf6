package browsertest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Controlled is true once the service worker has kept the page's files
// and serves the page.
const Controlled = `navigator.serviceWorker.controller !== null`

// Offline cuts the page's network (DevTools' network emulation, the
// service worker's requests included), or restores it.
func (p *Page) Offline(off bool) {
	p.T.Helper()
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		if err := emulateOffline(ctx, tg, off); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	}))
}

// byRule is Network.emulateNetworkConditionsByRule's parameters in both
// of the forms Chromium has taken. The older one (Chromium 148, Debian
// 12's for a while) requires offline at the top level and has no
// condition's offline nor emulateOfflineServiceWorker; the later one
// (Chromium 150 and 156 here) reads those two and keeps the top-level
// offline as a deprecated option. cdproto's struct has the later form
// alone, which Chromium 148 refuses ("Invalid parameters").
type byRule struct {
	Offline                     bool         `json:"offline"`
	EmulateOfflineServiceWorker *bool        `json:"emulateOfflineServiceWorker,omitempty"`
	MatchedNetworkConditions    []conditions `json:"matchedNetworkConditions"`
}

// conditions is a network.Conditions for every request (no URL
// pattern), without throttling; Offline is nil in the older form.
type conditions struct {
	URLPattern         string  `json:"urlPattern"`
	Latency            float64 `json:"latency"`
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
	Offline            *bool   `json:"offline,omitempty"`
}

// emulateOffline sets the network conditions of every request, the
// service worker's included: both forms of the parameters at once (which
// Chromium 150 and 156 take); should a Chromium refuse the fields it does
// not know, the older form alone.
func emulateOffline(ctx context.Context, tg *chromedp.Target, off bool) error {
	on := true
	both := byRule{Offline: off, EmulateOfflineServiceWorker: &on,
		MatchedNetworkConditions: []conditions{{DownloadThroughput: -1, UploadThroughput: -1, Offline: &off}}}
	var res network.EmulateNetworkConditionsByRuleResult
	err := tg.Call(ctx, network.CommandEmulateNetworkConditionsByRule, both, &res)
	if err == nil {
		return nil
	}
	older := byRule{Offline: off, MatchedNetworkConditions: []conditions{{DownloadThroughput: -1, UploadThroughput: -1}}}
	if err2 := tg.Call(ctx, network.CommandEmulateNetworkConditionsByRule, older, &res); err2 != nil {
		return fmt.Errorf("Network.emulateNetworkConditionsByRule: %v; in the older form: %v", err, err2)
	}
	return nil
}

// ForgetUnreachable drops the console errors of requests and WebSockets
// that could not reach the server: expected while offline.
func (p *Page) ForgetUnreachable() {
	p.mu.Lock()
	defer p.mu.Unlock()
	var kept []string
	for _, e := range p.errors {
		if !RefusedConnection(e) && !strings.Contains(e, "ERR_INTERNET_DISCONNECTED") {
			kept = append(kept, e)
		}
	}
	p.errors = kept
}

// WaitReload waits until the page has reloaded: the expression marker,
// true on the old page, is false on a new one that has loaded. (A wait
// fails when the page goes away in the middle of it.)
func (p *Page) WaitReload(marker string, timeout time.Duration) {
	p.T.Helper()
	for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(p.Ctx, 5*time.Second)
		v, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!(`+marker+`) && document.readyState === 'complete' && document.getElementById('status') !== null`))
		cancel()
		if err == nil && v {
			return
		}
	}
	p.T.Fatalf("the page did not reload in %v", timeout)
}

// LocalGame is true when the page shows a game played in the browser:
// one kept in the browser (offline/local.js).
const LocalGame = `(localStorage.getItem('oanquan.local') || '').includes('"' + localStorage.getItem('oanquan.game') + '"') && document.querySelectorAll('#game-board .cell').length === 12`
