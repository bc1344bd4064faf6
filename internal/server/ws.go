package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"

	"oanquan/internal/match"
)

// wsWriteTimeout bounds the sending of one WebSocket message, and the
// wait for the answer to a ping: a client that takes longer is dropped.
const wsWriteTimeout = 10 * time.Second

// wsPingInterval is how often a quiet WebSocket is pinged, so that a
// client that vanished without closing is noticed and its game can go
// idle.
const wsPingInterval = 30 * time.Second

// websocket sends a game's updates as JSON messages (docs/API.md): the
// state at once, then turns, thinking and states as they happen. The
// client sends nothing; a client that falls behind is closed with
// StatusTryAgainLater and may reconnect for a fresh state.
func (s *Server) websocket(w http.ResponseWriter, r *http.Request) error {
	g, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		return fail(errBadRequest, "this is a WebSocket: connect with a WebSocket client")
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return fail(match.ErrClosed, "the server is shutting down")
	}
	s.sockets.Add(1) // under the lock, so that Close never waits on a zero count being raised
	s.mu.Unlock()
	defer s.sockets.Done()
	sub, err := g.m.Subscribe()
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
	s.relay(c, sub)
	return nil
}

// relay sends the subscription's updates on c until the client leaves,
// falls behind or stops answering pings, or the server closes.
func (s *Server) relay(c *websocket.Conn, sub *match.Subscription) {
	// The request's context ends with the hijacked request; the
	// connection lives until the client leaves or the server closes.
	// (CloseRead's context must not be the server's: when it ends,
	// CloseRead drops the connection without a close message.)
	ctx := c.CloseRead(context.Background())
	ping := time.NewTicker(s.wsPing)
	defer ping.Stop()
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
		case <-ping.C:
			if !send(c.Ping) {
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
			data, err := json.Marshal(toMessageJSON(u))
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
