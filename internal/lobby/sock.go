package lobby

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"oanquan/internal/ids"
	"oanquan/internal/socket"
	"oanquan/internal/store"
)

// A lobby socket: a WebSocket client (package socket) served by the
// lobby as a player, its lists and messages, the holds of its seeks.

// sock is one lobby WebSocket.
type sock struct {
	account string      // its session's account; "" for none
	session []byte      // its session's key; nil for none
	ended   atomic.Bool // its session ended: done closes it so
	client  string      // its address, as the limits know it
	poster  []byte      // the SHA-256 of its browser's poster key; nil for none
	out     chan []byte // the messages to send but lists; closed never (done ends the writer)
	done    chan struct{}
	once    sync.Once
	// The list to send: only the latest matters, so a client slower
	// than the changes gets fewer lists, never a queue of stale ones.
	listMu    sync.Mutex
	list      []byte
	listReady chan struct{} // cap 1: list is new
}

// setList makes msg the list to send next, replacing one not sent yet.
func (c *sock) setList(msg []byte) {
	c.putList(msg)
	select {
	case c.listReady <- struct{}{}:
	default:
	}
}

// putList makes msg the list to send next.
func (c *sock) putList(msg []byte) {
	c.listMu.Lock()
	defer c.listMu.Unlock()
	c.list = msg
}

// takeList returns the list to send.
func (c *sock) takeList() []byte {
	c.listMu.Lock()
	defer c.listMu.Unlock()
	msg := c.list
	c.list = nil
	return msg
}

// drop ends the socket, as too slow.
func (c *sock) drop() { c.once.Do(func() { close(c.done) }) }

// endSession closes c: its session ended. Its page reconnects, and
// lists as whoever it is now.
func (c *sock) endSession() {
	c.ended.Store(true)
	c.drop()
}

// EndSessions closes the sockets of account's sessions that end reports
// ended (a sign-out, everywhere, a new password, a deletion), so that
// none goes on listing the seeks as that account.
func (l *Lobby) EndSessions(account string, ended func(key []byte) bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for c := range l.socks {
		if c.account == account && account != "" && ended(c.session) {
			c.endSession()
		}
	}
}

// checkSession closes c if its session ended (through another server).
func (l *Lobby) checkSession(c *sock) {
	ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
	defer cancel()
	_, a, err := l.store.Session(ctx, c.session, time.Now())
	switch {
	case errors.Is(err, store.ErrNoAccount), err == nil && a.ID != c.account:
		c.endSession()
	case err != nil:
		l.log.Warn("reading a lobby socket's session", "err", err)
	}
}

// send queues msg for c, dropping c if it has fallen behind.
func (c *sock) send(msg []byte) {
	select {
	case c.out <- msg:
	default:
		c.drop()
	}
}

// pongJSON answers a client's {"type":"ping"}.
var pongJSON = []byte(`{"type":"pong"}`)

// lobbyPaired tells a poster's socket that its seek made a game.
type lobbyPaired struct {
	Type   string `json:"type"`
	Seek   string `json:"seek"`
	Game   string `json:"game"`
	Seat   int    `json:"seat"`
	Secret string `json:"secret"`
}

// lobbyNote is a short message of the lobby's: "held", "gone", "error".
type lobbyNote struct {
	Type    string `json:"type"`
	Seek    string `json:"seek,omitempty"`
	Message string `json:"message,omitempty"`
}

// lobbyIn is a message a lobby client sends: {"type":"hold","seek",
// "secret"} or {"type":"ping"}.
type lobbyIn struct {
	Type   string `json:"type"`
	Seek   string `json:"seek"`
	Secret string `json:"secret"`
}

// hold has c hold seek id, if secret is its poster's.
func (l *Lobby) hold(ctx context.Context, c *sock, id, secret string) {
	ks := l.store
	// A hold that names no seek of the sender's counts as a request
	// naming what does not exist: each costs a read of the store.
	lim := l.limits
	echo := id // the id refused, said back only if it could be one
	if !ids.Valid(id) {
		echo = ""
	}
	if err := lim.AllowGame(c.client); err != nil {
		msg, _ := json.Marshal(lobbyNote{Type: "error", Seek: echo, Message: err.Error()})
		c.send(msg)
		return
	}
	k, err := store.Seek{}, store.ErrNotFound
	if ids.Valid(id) {
		k, err = ks.Seek(ctx, id)
	}
	if err != nil || subtle.ConstantTimeCompare(ids.Hash(secret), k.Key) != 1 {
		if errors.Is(err, store.ErrNotFound) || err == nil {
			if lim.UnknownGame(c.client) {
				l.log.Warn("a client names many seeks or games that do not exist", "client", c.client)
			}
		}
		msg, _ := json.Marshal(lobbyNote{Type: "error", Seek: echo, Message: "no seek of yours has that id and secret"})
		c.send(msg)
		return
	}
	if err := ks.HoldSeeks(ctx, []string{id}, l.name, time.Now().Add(l.Grace())); err != nil {
		l.log.Warn("holding a seek", "seek", id, "err", err)
	}
	l.addHolder(id, c, secret)
	msg, _ := json.Marshal(lobbyNote{Type: "held", Seek: id})
	c.send(msg)
	l.Changed() // accepted meanwhile: settle says so; and the list leaves it out
}

// addHolder records that c holds seek id, with its secret.
func (l *Lobby) addHolder(id string, c *sock, secret string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holders[id] == nil {
		l.holders[id] = map[*sock]string{}
	}
	l.holders[id][c] = secret
}

// join counts c among the lobby's sockets.
func (l *Lobby) join(c *sock) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.socks[c] = struct{}{}
}

// forget forgets c, and returns the seeks it alone held here.
func (l *Lobby) forget(c *sock) (orphans []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.socks, c)
	for id, hs := range l.holders {
		if _, ok := hs[c]; !ok {
			continue
		}
		delete(hs, c)
		if len(hs) == 0 {
			delete(l.holders, id)
			orphans = append(orphans, id)
		}
	}
	return orphans
}

// leave forgets c; the hold of each seek it alone held here runs a
// grace from now (unless a socket, here or on another server, holds it
// again by then), and is swept when it lapses.
func (l *Lobby) leave(c *sock) {
	orphans := l.forget(c)
	ks := l.store
	if len(orphans) == 0 || l.ctx.Err() != nil {
		return // shutting down: the holds lapse, and another server's (or the next run's) sweep deletes them
	}
	grace := l.Grace()
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := ks.HoldSeeks(ctx, orphans, l.name, time.Now().Add(grace)); err != nil {
		l.log.Warn("holding seeks for the grace", "err", err)
	}
	time.AfterFunc(grace+grace/10, func() {
		if l.ctx.Err() == nil {
			l.sweep(ks)
		}
	})
}

// Player is who a lobby socket is: its session's account and key (""
// and nil for none), its address as the limits know it, and the SHA-256
// of its browser's poster key (nil for none).
type Player struct {
	Account string
	Session []byte
	Client  string
	Poster  []byte
}

// Serve is the lobby's handler of the WebSocket client conn, upgraded,
// of player p: it sends the lists and messages until the client leaves,
// falls behind (1013), its session ends (1013) or the lobby's context
// ends (1001).
func (l *Lobby) Serve(conn *socket.Client, p Player) {
	c := &sock{account: p.Account, session: p.Session, client: p.Client, poster: p.Poster, out: make(chan []byte, lobbyOutbox), done: make(chan struct{}), listReady: make(chan struct{}, 1)}
	l.join(c)
	defer l.leave(c)
	defer conn.Finish() // the reader done before c leaves: no hold after it
	l.Changed()         // its first list
	conn.Receive(func(ctx context.Context, data []byte) { l.receive(ctx, c, data) })
	l.serve(conn, c)
}

// receive handles one message of c's client: a ping, or a hold of a
// seek. Anything else is ignored.
func (l *Lobby) receive(ctx context.Context, c *sock, data []byte) {
	var m lobbyIn
	if json.Unmarshal(data, &m) != nil {
		return
	}
	switch m.Type {
	case "ping":
		c.send(pongJSON)
	case "hold":
		hctx, hcancel := context.WithTimeout(ctx, storeTimeout)
		defer hcancel()
		l.hold(hctx, c, m.Seek, m.Secret)
	}
}

// serve sends c's client its lists and messages until it leaves, falls
// behind (1013), its session ends (1013) or the server closes (1001).
// A signed-in socket reads its session again now and then.
func (l *Lobby) serve(conn *socket.Client, c *sock) {
	var recheck <-chan time.Time
	if c.account != "" {
		t := time.NewTicker(l.sessionCheck)
		defer t.Stop()
		recheck = t.C
	}
	for {
		select {
		case <-l.ctx.Done():
			conn.GoingAway()
			return
		case <-c.done:
			if c.ended.Load() {
				conn.TooSlow("your session ended: reconnect")
				return
			}
			conn.TooSlow("too slow: reconnect for a fresh list")
			return
		case <-conn.Gone():
			return
		case <-recheck:
			l.checkSession(c)
		case <-conn.Pings():
			if !conn.Ping() {
				return
			}
		case msg := <-c.out:
			if !conn.Send(msg) {
				return
			}
		case <-c.listReady:
			if msg := c.takeList(); msg != nil && !conn.Send(msg) {
				return
			}
		}
	}
}
