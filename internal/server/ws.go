package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"oanquan/internal/api"
	"oanquan/internal/match"
	"oanquan/internal/wire"
	"oanquan/rules"
)

// wsWriteTimeout bounds the sending of one WebSocket message, and the
// wait for the answer to a ping: a client that takes longer is dropped.
const wsWriteTimeout = 10 * time.Second

// wsPingInterval is how often a quiet WebSocket is pinged, so that a
// client that vanished without closing is noticed — its player shown
// as dropped (presence) within 20 s — and its game can go idle.
const wsPingInterval = 10 * time.Second

// websocket sends a game's updates as JSON messages (docs/API.md): the
// state at once (after the last turn, when the client says with seen=N
// that it shows the game from before it), then turns, thinking,
// presence and states as they happen. The client may send one message,
// {"type":"hello","secret":S}, to say which seat it plays (for the
// players' presence); without it, it watches (at once if it says so
// with a hello and no secret, else after wsHelloWait). It may send
// {"type":"ping"} at any time, answered with {"type":"pong"}: a page
// learns so that its connection still works (a network that dies
// silently closes no socket for minutes). A client that
// falls behind is closed with StatusTryAgainLater and may reconnect for
// a fresh state.
func (s *Server) websocket(w http.ResponseWriter, r *http.Request) error {
	g, err := s.gameFor(r.Context(), r, r.PathValue("id"))
	if err != nil {
		return err
	}
	if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		return api.Fail(api.ErrBadRequest, "this is a WebSocket: connect with a WebSocket client")
	}
	done, err := s.addSocketOf(r) // the caps, before the upgrade
	if err != nil {
		return err
	}
	defer done()
	if err := s.addSocket(); err != nil {
		return err
	}
	defer s.sockets.Done()
	sub, err := g.m.SubscribeSeen(seenPly(r))
	if err != nil {
		return err
	}
	defer sub.Close()
	// The server's read and write timeouts are for requests; a WebSocket
	// lives on. Clear the deadlines they set on the connection, which
	// the hijacked connection would otherwise keep. (Test recorders
	// cannot: the error is of no consequence.)
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	c, err := websocket.Accept(w, r, nil) // same origin only
	if err != nil {
		return nil // Accept has answered
	}
	defer c.CloseNow()
	// A player's page says hello as soon as it is connected: until it
	// has had time to, the connection counts for nobody (a player coming
	// back is never counted, even for a moment, as a watcher); without a
	// hello by then, it watches.
	wc := newWSConn()
	left := false
	defer func() {
		g.dropConn(wc, left)
		s.presenceChanged(g)
	}()
	left = s.relay(c, sub, func(seat rules.Player) {
		g.setConn(wc, int(seat))
		s.presenceChanged(g)
	}, func() {
		if g.watchConn(wc) {
			s.presenceChanged(g)
		}
	}, g, wc)
	return nil
}

// wsHelloWait is how long a new WebSocket has to say hello before it
// counts as a watcher.
const wsHelloWait = time.Second

// seenPly is the ply of the game the client shows already, from the
// query's seen=N (docs/API.md): the turn played at it, if it is the last
// thing that happened, is sent to it first. -1 when it says none, or
// nothing that reads as a ply.
func seenPly(r *http.Request) int {
	n, err := strconv.Atoi(r.URL.Query().Get("seen"))
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// addSocket counts one more WebSocket for Close to wait for, unless the
// server is closed.
func (s *Server) addSocket() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	s.sockets.Add(1) // under the lock, so that Close never waits on a zero count being raised
	return nil
}

// setConn records WebSocket c on g, acting for seat (-1: watching).
func (g *liveGame) setConn(c *wsConn, seat int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.conns[c] = seat
	if seat >= 0 {
		g.dropped[seat] = false
	}
}

// watchConn records WebSocket c on g as watching, unless it is known
// already (it said hello); it reports whether it did.
func (g *liveGame) watchConn(c *wsConn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.conns[c]; ok {
		return false
	}
	g.conns[c] = -1
	return true
}

// dropConn forgets WebSocket c on g, which its page closed (left) or
// which dropped. A seat whose last connection dropped is marked so until
// its player is back or leaves.
func (g *liveGame) dropConn(c *wsConn, left bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	seat, ok := g.conns[c]
	delete(g.conns, c)
	if !ok || seat < 0 {
		return
	}
	for _, other := range g.conns {
		if other == seat {
			return // the player is still here through another page
		}
	}
	g.dropped[seat] = !left
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

// wsConn is one WebSocket open on a game, for counting who is there and
// sending it what comes from elsewhere than the game's match: the
// players' phrases (phrases.go).
type wsConn struct {
	out chan []byte // messages to send, as JSON
}

// wsOutBuffer is how many messages a WebSocket's out holds: phrases are
// few (one per seat every 3 s); one that finds it full is dropped.
const wsOutBuffer = 8

func newWSConn() *wsConn { return &wsConn{out: make(chan []byte, wsOutBuffer)} }

// offer queues data for the socket, unless its queue is full.
func (c *wsConn) offer(data []byte) {
	select {
	case c.out <- data:
	default:
	}
}

// pongJSON answers a client's {"type":"ping"}.
var pongJSON = []byte(`{"type":"pong"}`)

// wsReadLimit bounds a client's message: a hello is small.
const wsReadLimit = 1 << 10

// helloJSON is a message a client may send: a hello, a ping, or a
// phrase.
type helloJSON struct {
	Type   string `json:"type"`
	Secret string `json:"secret"`
	Phrase string `json:"phrase"`
}

// readHellos reads the client's messages until it leaves, and calls
// hello with the seat of each valid hello, watch for a hello with no
// secret or one that acts for no seat, and says each phrase (from wc).
// It returns when the connection ends, saying whether the page closed
// it (leftPage).
func (s *Server) readHellos(ctx context.Context, c *websocket.Conn, g *liveGame, wc *wsConn, hello func(rules.Player), watch func(), pings chan<- struct{}) bool {
	reloaded := false
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return leftPage(err)
		}
		var h helloJSON
		if json.Unmarshal(data, &h) != nil {
			continue // nothing else is expected: ignore it
		}
		if h.Type == "ping" {
			select {
			case pings <- struct{}{}:
			default: // a pong is on its way already: one answers both
			}
			continue
		}
		if h.Type == "phrase" {
			s.sayPhrase(g, wc, h.Phrase)
			continue
		}
		if h.Type != "hello" {
			continue
		}
		seats := g.seatsOfSecret(h.Secret)
		if len(seats) == 0 && h.Secret != "" && !reloaded && g.m.Policy().Online && g.taken() != [2]bool{true, true} {
			// The friend may have joined through another server just
			// now, before this one heard of it. Once a connection: a
			// client sending wrong secrets costs one read.
			reloaded = true
			s.reloadSeats(g)
			seats = g.seatsOfSecret(h.Secret)
		}
		if len(seats) > 0 {
			hello(seats[0])
		} else {
			watch()
		}
	}
}

// relay sends the subscription's updates on c until the client leaves,
// falls behind or stops answering pings, or the server closes. It calls
// hello with the seat of each valid hello the client sends, and watch
// for a hello that names no seat or, failing a hello, after
// wsHelloWait. It reports whether the client's page closed the
// connection (left), as opposed to its dropping; it returns once the
// client's messages are no longer read (no hello comes after it). It
// sends wc's messages too (phrases) as they come.
func (s *Server) relay(c *websocket.Conn, sub *match.Subscription, hello func(rules.Player), watch func(), g *liveGame, wc *wsConn) (left bool) {
	// The request's context ends with the hijacked request; the
	// connection lives until the client leaves or the server closes.
	// (The reader's context must not be the server's: when it ends, the
	// connection is dropped without a close message.)
	c.SetReadLimit(wsReadLimit)
	ctx, cancel := context.WithCancel(context.Background())
	var closed atomic.Bool // the page closed the connection: set before ctx is done
	read := make(chan struct{})
	pings := make(chan struct{}, 1) // the client's pings, to answer
	go func() {
		defer close(read)
		defer cancel()
		closed.Store(s.readHellos(ctx, c, g, wc, hello, watch, pings))
	}()
	// How it ended is the reader's word, once it is done: a write that
	// failed because the page closed the connection comes just after the
	// reader got the page's close frame.
	defer func() {
		cancel()
		c.CloseNow() // (after a Close, nothing more)
		<-read
		left = closed.Load()
	}()
	ping := time.NewTicker(s.wsPing)
	defer ping.Stop()
	wait := time.NewTimer(wsHelloWait)
	defer wait.Stop()
	send := func(f func(context.Context) error) bool {
		wctx, cancel := context.WithTimeout(ctx, s.wsWrite)
		defer cancel()
		return f(wctx) == nil
	}
	// A client that does not take what is sent (a ping unanswered, a
	// write that does not go through in time) is told so, with 1013 and
	// a close frame, and dropped: it may reconnect for a fresh state.
	tooSlow := func() {
		c.Close(websocket.StatusTryAgainLater, "too slow: reconnect for a fresh state")
	}
	for {
		select {
		case <-wait.C:
			watch()
		case <-ping.C:
			if !send(c.Ping) {
				tooSlow()
				return
			}
		case <-pings:
			if !send(func(ctx context.Context) error { return c.Write(ctx, websocket.MessageText, pongJSON) }) {
				tooSlow()
				return
			}
		case data := <-wc.out:
			if !send(func(ctx context.Context) error { return c.Write(ctx, websocket.MessageText, data) }) {
				tooSlow()
				return
			}
		case u, ok := <-sub.C:
			if !ok {
				if s.ctx.Err() != nil {
					c.Close(websocket.StatusGoingAway, "the server is shutting down")
				} else {
					tooSlow()
				}
				return
			}
			data, err := json.Marshal(wire.MessageOf(u))
			if err != nil {
				panic(err) // the server's own types always marshal
			}
			if !send(func(ctx context.Context) error { return c.Write(ctx, websocket.MessageText, data) }) {
				if ctx.Err() == nil {
					tooSlow()
				}
				return
			}
		case <-s.ctx.Done():
			c.Close(websocket.StatusGoingAway, "the server is shutting down")
			return
		case <-ctx.Done(): // the client has gone
			return
		}
	}
}
