package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/match"
	"oanquan/internal/socket"
	"oanquan/internal/wire"
	"oanquan/rules"
)

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
	c, err := s.admitSocket(r)
	if err != nil {
		return err
	}
	defer c.End()
	sub, err := g.m.SubscribeSeen(seenPly(r))
	if err != nil {
		return err
	}
	defer sub.Close()
	if !c.Accept(w, r) {
		return nil // Accept has answered
	}
	// A player's page says hello as soon as it is connected: until it
	// has had time to, the connection counts for nobody (a player coming
	// back is never counted, even for a moment, as a watcher); without a
	// hello by then, it watches.
	gs := &gameSocket{s: s, g: g, c: c, wc: newWSConn(), sub: sub, pings: make(chan struct{}, 1)}
	defer gs.leave()
	c.Receive(gs.receive)
	gs.relay()
	return nil
}

// admitSocket admits a WebSocket of r, before its upgrade: within the
// caps of its address and of the server, and counted for Close to wait
// for, unless the server is closed.
func (s *Server) admitSocket(r *http.Request) (*socket.Client, error) {
	c, err := socket.Admit(r, socket.Options{Ping: s.wsPing, Write: s.wsWrite, ReadLimit: wsReadLimit, Enter: func() (func(), error) {
		done, err := s.addSocketOf(r) // the caps, before the upgrade
		if err != nil {
			return nil, err
		}
		if err := s.addSocket(); err != nil {
			done()
			return nil, err
		}
		return func() { s.sockets.Done(); done() }, nil
	}})
	if errors.Is(err, socket.ErrNotUpgrade) {
		return nil, api.Fail(api.ErrBadRequest, "%s", err.Error())
	}
	return c, err
}

// gameSocket is the game's handler of a WebSocket client: what its
// client says (hello, ping, phrase) and what it is sent (the match's
// updates, phrases, pongs).
type gameSocket struct {
	s        *Server
	g        *liveGame
	c        *socket.Client
	wc       *wsConn
	sub      *match.Subscription
	pings    chan struct{} // the client's pings, to answer (cap 1)
	reloaded bool          // the seats were read again for a hello (once a connection; the reader's)
}

// leave forgets the socket on its game, once the client's messages are
// no longer read (no hello comes after it).
func (gs *gameSocket) leave() {
	gs.g.dropConn(gs.wc, gs.c.Finish())
	gs.s.presenceChanged(gs.g)
}

// hello records the socket as playing seat.
func (gs *gameSocket) hello(seat rules.Player) {
	gs.g.setConn(gs.wc, int(seat))
	gs.s.presenceChanged(gs.g)
}

// watch records the socket as watching, unless it said hello.
func (gs *gameSocket) watch() {
	if gs.g.watchConn(gs.wc) {
		gs.s.presenceChanged(gs.g)
	}
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
const wsReadLimit = socket.DefaultReadLimit

// wsWriteTimeout bounds the sending of one WebSocket message, and the
// wait for the answer to a ping: a client that takes longer is dropped.
const wsWriteTimeout = socket.DefaultWriteTimeout

// wsPingInterval is how often a quiet WebSocket is pinged, so that a
// client that vanished without closing is noticed — its player shown
// as dropped (presence) within 20 s — and its game can go idle.
const wsPingInterval = socket.DefaultPingInterval

// helloJSON is a message a client may send: a hello, a ping, or a
// phrase.
type helloJSON struct {
	Type   string `json:"type"`
	Secret string `json:"secret"`
	Phrase string `json:"phrase"`
}

// receive handles one message of the client's: a hello (hello with
// its seat, or watch for one with no secret or that acts for no seat),
// a ping (answered by relay) or a phrase, said from wc. Anything else
// is ignored.
func (gs *gameSocket) receive(_ context.Context, data []byte) {
	var h helloJSON
	if json.Unmarshal(data, &h) != nil {
		return // nothing else is expected: ignore it
	}
	switch h.Type {
	case "ping":
		select {
		case gs.pings <- struct{}{}:
		default: // a pong is on its way already: one answers both
		}
	case "phrase":
		gs.s.sayPhrase(gs.g, gs.wc, h.Phrase)
	case "hello":
		if seats := gs.seatsOf(h.Secret); len(seats) > 0 {
			gs.hello(seats[0])
		} else {
			gs.watch()
		}
	}
}

// seatsOf returns the seats secret acts for. The friend may have joined
// through another server just now, before this one heard of it: the
// seats are read again for a secret of no seat, once a connection (a
// client sending wrong secrets costs one read).
func (gs *gameSocket) seatsOf(secret string) []rules.Player {
	g := gs.g
	seats := g.seatsOfSecret(secret)
	if len(seats) == 0 && secret != "" && !gs.reloaded && g.m.Policy().Online && g.taken() != [2]bool{true, true} {
		gs.reloaded = true
		gs.s.reloadSeats(g)
		seats = g.seatsOfSecret(secret)
	}
	return seats
}

// tooSlow is the close of a client that does not take what is sent.
const tooSlow = "too slow: reconnect for a fresh state"

// relay sends the subscription's updates until the client leaves, falls
// behind or stops answering pings, or the server closes. It counts the
// socket as watching after wsHelloWait, failing a hello, and sends wc's
// messages too (phrases) as they come.
func (gs *gameSocket) relay() {
	c := gs.c
	wait := time.NewTimer(wsHelloWait)
	defer wait.Stop()
	for {
		select {
		case <-wait.C:
			gs.watch()
		case <-c.Pings():
			if !c.Ping() {
				c.TooSlow(tooSlow)
				return
			}
		case <-gs.pings:
			if !c.Send(pongJSON) {
				c.TooSlow(tooSlow)
				return
			}
		case data := <-gs.wc.out:
			if !c.Send(data) {
				c.TooSlow(tooSlow)
				return
			}
		case u, ok := <-gs.sub.C:
			if !ok {
				if gs.s.ctx.Err() != nil {
					c.GoingAway()
				} else {
					c.TooSlow(tooSlow)
				}
				return
			}
			if !gs.send(u) {
				return
			}
		case <-gs.s.ctx.Done():
			c.GoingAway()
			return
		case <-c.Gone(): // the client has gone
			return
		}
	}
}

// send sends update u, reporting whether it went; if not, and the client
// has not gone, it is closed as too slow.
func (gs *gameSocket) send(u match.Update) bool {
	data, err := json.Marshal(wire.MessageOf(u))
	if err != nil {
		panic(err) // the server's own types always marshal
	}
	if gs.c.Send(data) {
		return true
	}
	select {
	case <-gs.c.Gone():
	default:
		gs.c.TooSlow(tooSlow)
	}
	return false
}
