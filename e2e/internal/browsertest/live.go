package browsertest

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// liveWatch marks the document data-live="on" when the page's game feed
// is up and "off" when it drops, for the tests to wait on; the page itself
// keeps no such mark. The feed is the WebSocket (up when it opens, down
// when it closes other than by the page's own close), or for a game kept
// in the browser the engine's worker (up once it answers).
const liveWatch = `(() => {
	const mark = (v) => { document.documentElement.dataset.live = v; };
	const Socket = window.WebSocket;
	window.WebSocket = class extends Socket {
		constructor(...args) {
			super(...args);
			this.addEventListener('open', () => mark('on'));
			this.addEventListener('close', () => { if (!this.closedByPage) mark('off'); });
		}
		close(...args) {
			this.closedByPage = true;
			return super.close(...args);
		}
	};
	const Engine = window.Worker;
	window.Worker = class extends Engine {
		constructor(...args) {
			super(...args);
			this.addEventListener('message', () => mark('on'));
		}
	};
})()`

// watchLive has every document the page loads run liveWatch first.
var watchLive = chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
	_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: liveWatch})
	return err
})
