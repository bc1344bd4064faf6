// Package socket is the server's one WebSocket client: the checks and
// caps before the upgrade, the reader goroutine, pings, a bound on each
// write and the close codes, for every kind of socket the server has (a
// game's, the lobby's; next a tournament's, notifications). A kind is a
// small handler over a Client, as lila-ws keeps one client actor and a
// small actor per kind: it handles the client's messages (Client.Receive)
// and runs its own loop of what to send, with Client's pings and sends.
//
//	c, err := socket.Admit(r, socket.Options{Enter: enter})
//	if err != nil {
//		return err // before the upgrade: an HTTP answer
//	}
//	defer c.End() // the reader finished, then the places given back
//	if !c.Accept(w, r) {
//		return nil // Accept has answered
//	}
//	c.Receive(func(ctx context.Context, data []byte) { … })
//	for {
//		select {
//		case <-c.Pings():
//			if !c.Ping() {
//				return nil
//			}
//		case <-c.Gone():
//			return nil
//		}
//	}
//
// It knows nothing of games, the lobby, HTTP routes or the store.
//
// A kind that must forget the client once no message can come (a
// socket's holds, a seat's presence) calls Finish first, then forgets,
// and End gives the places back last.
//
// A Client has no lock: its reader goroutine and the kind's loop share
// only the connection (safe for concurrent use), an atomic flag and
// sync.Onces.
package socket

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// The defaults of Options.
const (
	// DefaultWriteTimeout bounds the sending of one message, and the
	// wait for the answer to a ping: a client that takes longer is
	// dropped.
	DefaultWriteTimeout = 10 * time.Second
	// DefaultPingInterval is how often a quiet socket is pinged, so that
	// a client that vanished without closing is noticed (a player shown
	// as dropped within 20 s).
	DefaultPingInterval = 10 * time.Second
	// DefaultReadLimit bounds a client's message.
	DefaultReadLimit = 1 << 10
)

// Options are how a Client is admitted and run. The zero value admits
// every upgrade, with the defaults.
type Options struct {
	// Enter takes the socket's places before the upgrade (the caps of
	// its address and of the server, the server's count of sockets that
	// Close waits for) and returns what gives them back; an error
	// refuses the socket with it. nil: nothing to take.
	Enter func() (leave func(), err error)
	// Ping is how often the client is pinged; 0: DefaultPingInterval.
	Ping time.Duration
	// Write bounds each write and each ping; 0: DefaultWriteTimeout.
	Write time.Duration
	// ReadLimit bounds a client's message; 0: DefaultReadLimit.
	ReadLimit int64
}

// ErrNotUpgrade is Admit's error for a request that is not a
// WebSocket's upgrade; the server answers it 400.
var ErrNotUpgrade = errNotUpgrade{}

type errNotUpgrade struct{}

func (errNotUpgrade) Error() string {
	return "this is a WebSocket: connect with a WebSocket client"
}

// Client is one WebSocket client. Make one with Admit, End it when done
// (deferred, at once after Admit). Its methods but End are for the
// kind's loop, Receive's handler runs in the reader's goroutine.
type Client struct {
	opt    Options
	leave  []func()
	conn   *websocket.Conn
	ctx    context.Context // ends when the client has gone (the reader ended) or End
	cancel context.CancelFunc
	ping   *time.Ticker
	read   chan struct{} // closed when the reader has ended; nil: none started
	left   atomic.Bool   // the page closed the connection: set before ctx ends
	finish sync.Once     // Finish's work, once
	end    sync.Once     // the places given back, once
}

// Admit checks that r asks for a WebSocket and takes its places
// (Options.Enter), before the upgrade: an error is the HTTP answer.
func Admit(r *http.Request, opt Options) (*Client, error) {
	if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		return nil, ErrNotUpgrade
	}
	if opt.Ping <= 0 {
		opt.Ping = DefaultPingInterval
	}
	if opt.Write <= 0 {
		opt.Write = DefaultWriteTimeout
	}
	if opt.ReadLimit <= 0 {
		opt.ReadLimit = DefaultReadLimit
	}
	c := &Client{opt: opt}
	if opt.Enter != nil {
		leave, err := opt.Enter()
		if err != nil {
			return nil, err
		}
		c.leave = append(c.leave, leave)
	}
	// The request's context ends with the hijacked request; the
	// connection lives until the client leaves or the server closes.
	// (The reader's context must not be the server's: when it ends, the
	// connection is dropped without a close message.)
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c, nil
}

// Accept upgrades the connection (same origin only), reporting whether
// it did; if not, Accept has answered the request.
func (c *Client) Accept(w http.ResponseWriter, r *http.Request) bool {
	// The server's read and write timeouts are for requests; a WebSocket
	// lives on. Clear the deadlines they set on the connection, which
	// the hijacked connection would otherwise keep. (Test recorders
	// cannot: the error is of no consequence.)
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return false
	}
	conn.SetReadLimit(c.opt.ReadLimit)
	c.conn = conn
	c.ping = time.NewTicker(c.opt.Ping)
	return true
}

// Receive reads the client's messages in a goroutine of their own, and
// calls handle with each, until the client leaves or End; then Gone is
// closed. handle's ctx ends with the reading.
func (c *Client) Receive(handle func(ctx context.Context, data []byte)) {
	c.read = make(chan struct{})
	go func() {
		defer close(c.read)
		defer c.cancel()
		for {
			_, data, err := c.conn.Read(c.ctx)
			if err != nil {
				c.left.Store(leftPage(err))
				return
			}
			handle(c.ctx, data)
		}
	}()
}

// Gone is closed when the client has gone: its messages are no longer
// read.
func (c *Client) Gone() <-chan struct{} { return c.ctx.Done() }

// Pings ticks when the client is to be pinged (Ping).
func (c *Client) Pings() <-chan time.Time { return c.ping.C }

// Ping pings the client and waits for its answer, within the write
// bound, reporting whether it came.
func (c *Client) Ping() bool { return c.within(c.conn.Ping) }

// Send sends data as a text message within the write bound, reporting
// whether it went.
func (c *Client) Send(data []byte) bool {
	return c.within(func(ctx context.Context) error { return c.conn.Write(ctx, websocket.MessageText, data) })
}

// within runs f with a context of the write bound.
func (c *Client) within(f func(context.Context) error) bool {
	ctx, cancel := context.WithTimeout(c.ctx, c.opt.Write)
	defer cancel()
	return f(ctx) == nil
}

// TooSlow closes the connection with 1013 (try again later) and reason:
// the client does not take what is sent (a ping unanswered, a write not
// through in time), or must reconnect (its session ended). It may
// reconnect for a fresh state.
func (c *Client) TooSlow(reason string) { c.conn.Close(websocket.StatusTryAgainLater, reason) }

// GoingAway closes the connection with 1001: the server is shutting
// down.
func (c *Client) GoingAway() { c.conn.Close(websocket.StatusGoingAway, "the server is shutting down") }

// Finish ends the connection (after a TooSlow or GoingAway, nothing
// more) and waits for the reader, so that no message is handled after
// it returns. It reports whether the client's page closed the
// connection (left), as opposed to its dropping: the reader's word, once
// it is done (a write that failed because the page closed the
// connection comes just after the reader got the page's close frame).
// Calls after the first only report.
func (c *Client) Finish() (left bool) {
	c.finish.Do(func() {
		c.cancel()
		if c.conn != nil {
			c.conn.CloseNow()
		}
		if c.read != nil {
			<-c.read
		}
		if c.ping != nil {
			c.ping.Stop()
		}
	})
	return c.left.Load()
}

// End finishes the client (Finish) and gives back the places Enter
// took. It is for a defer at once after Admit; calls after the first
// do nothing more.
func (c *Client) End() {
	c.Finish()
	c.end.Do(func() {
		for _, f := range c.leave {
			f()
		}
	})
}

// leftPage reports whether a WebSocket that ended with err (from a read)
// was closed by its page, which sends a close frame with 1000 or 1001 —
// or none (1005), as a browser's close() with no code does — rather than
// dropped: the connection ended without a close frame (1006), a read
// failed, or the page said the network went away (any other code).
func leftPage(err error) bool {
	switch websocket.CloseStatus(err) {
	case websocket.StatusNormalClosure, websocket.StatusGoingAway, websocket.StatusNoStatusRcvd:
		return true
	}
	return false
}
