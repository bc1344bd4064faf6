package server

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/socket"
	"oanquan/internal/store"
)

// The lobby's WebSocket (GET /api/lobby/ws, docs/API.md "Lobby"): it
// sends the open seeks its client may accept, and again whenever they
// change, here or (through the store's notices) on another server. A
// poster holds its seeks through it ({"type":"hold"} with a seek's
// secret): it is told "paired" when someone accepts one. A hold is a
// lease in the seek's row (store.Seeks.HoldSeeks), renewed by whichever
// server's socket holds the seek: when no socket on any server holds it
// for lobbyGrace (a reload, even to another server, comes back within
// it), any server's sweep deletes it.

// lobbyGrace is how long a seek outlives the last socket that held it,
// on whatever server.
const lobbyGrace = 5 * time.Second

// lobbyOutbox is how many messages other than lists ("held", "paired",
// "pong", …) a lobby socket may fall behind by before it is dropped (it
// may reconnect). Of the lists, only the latest waits to be sent.
const lobbyOutbox = 16

// lobbySessionCheck is how often a signed-in lobby socket reads its
// session again: one ended through another server (a sign-out, a sign
// out everywhere, a deletion) closes it within this time. Through this
// server it closes at once (endSessions).
const lobbySessionCheck = time.Minute

// refreshGap is the least time from the start of one refresh of the
// lobby's sockets to the next: changes coming faster (a burst of quick
// pairing's tickets, each held and paired) share refreshes, at most ten
// a second whatever their number, and a list is at most this late.
const refreshGap = 100 * time.Millisecond

// lobbyExpireEvery is how often the expired seeks are deleted.
const lobbyExpireEvery = time.Minute

// lobbyHub is the server's lobby sockets. Its zero value is not usable:
// see newLobbyHub. Safe for concurrent use.
type lobbyHub struct {
	s     *Server
	name  string       // this server's, as the holder of the seeks it holds
	grace atomic.Int64 // lobbyGrace, as a time.Duration; tests shorten it
	// regrace tells run that grace changed (cap 1).
	regrace chan struct{}
	// pairEvery is pairEvery: how often the tickets held here are tried.
	pairEvery time.Duration
	kick      chan struct{} // something changed: refresh every socket (coalesced)
	// gap is the least time from one refresh's start to the next's, as
	// a time.Duration: refreshGap; tests change it.
	gap atomic.Int64
	// refreshes counts the refreshes made (tests and benchmarks).
	refreshes atomic.Int64
	// blocksOf reads, by account, whom the signed-in sockets block or
	// are blocked by: Server.blockedAmong (a benchmark compares others).
	blocksOf atomic.Pointer[blocksReader]

	mu      sync.Mutex
	socks   map[*lobbySock]struct{}
	holders map[string]map[*lobbySock]string // by seek id: the sockets that hold it, and its secret
	hearing map[string]bool                  // seeks heard of being read (heard)
}

// blocksReader reads, by account, whom the signed-in sockets of socks
// block or are blocked by.
type blocksReader struct {
	read func(ctx context.Context, socks []*lobbySock) (map[string]map[string]bool, error)
}

// lobbySock is one lobby WebSocket.
type lobbySock struct {
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
func (c *lobbySock) setList(msg []byte) {
	c.putList(msg)
	select {
	case c.listReady <- struct{}{}:
	default:
	}
}

// putList makes msg the list to send next.
func (c *lobbySock) putList(msg []byte) {
	c.listMu.Lock()
	defer c.listMu.Unlock()
	c.list = msg
}

// takeList returns the list to send.
func (c *lobbySock) takeList() []byte {
	c.listMu.Lock()
	defer c.listMu.Unlock()
	msg := c.list
	c.list = nil
	return msg
}

// drop ends the socket, as too slow.
func (c *lobbySock) drop() { c.once.Do(func() { close(c.done) }) }

// endSession closes c: its session ended. Its page reconnects, and
// lists as whoever it is now.
func (c *lobbySock) endSession() {
	c.ended.Store(true)
	c.drop()
}

// endSessions closes the sockets of account's sessions that end reports
// ended (a sign-out, everywhere, a new password, a deletion), so that
// none goes on listing the seeks as that account.
func (l *lobbyHub) endSessions(account string, ended func(key []byte) bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for c := range l.socks {
		if c.account == account && account != "" && ended(c.session) {
			c.endSession()
		}
	}
}

// checkSession closes c if its session ended (through another server).
func (s *Server) checkSession(c *lobbySock) {
	ctx, cancel := context.WithTimeout(s.ctx, storeTimeout)
	defer cancel()
	_, a, err := s.accounts.store.Session(ctx, c.session, time.Now())
	switch {
	case errors.Is(err, store.ErrNoAccount), err == nil && a.ID != c.account:
		c.endSession()
	case err != nil:
		s.log.Warn("reading a lobby socket's session", "err", err)
	}
}

// send queues msg for c, dropping c if it has fallen behind.
func (c *lobbySock) send(msg []byte) {
	select {
	case c.out <- msg:
	default:
		c.drop()
	}
}

func newLobbyHub(s *Server) *lobbyHub {
	l := &lobbyHub{s: s, name: "server-" + newID(), pairEvery: pairEvery, kick: make(chan struct{}, 1), regrace: make(chan struct{}, 1),
		socks: map[*lobbySock]struct{}{}, holders: map[string]map[*lobbySock]string{}, hearing: map[string]bool{}}
	l.blocksOf.Store(&blocksReader{s.blockedAmong})
	l.setGrace(lobbyGrace)
	l.gap.Store(int64(refreshGap))
	return l
}

// setGrace sets how long a seek outlives its last holding socket.
func (l *lobbyHub) setGrace(d time.Duration) {
	l.grace.Store(int64(d))
	select {
	case l.regrace <- struct{}{}:
	default:
	}
}

// graceOf returns how long a seek outlives its last holding socket.
func (l *lobbyHub) graceOf() time.Duration { return time.Duration(l.grace.Load()) }

// changed asks for every socket to be brought up to date.
func (l *lobbyHub) changed() {
	select {
	case l.kick <- struct{}{}:
	default: // a refresh is due already: it will read this change too
	}
}

// lobbyChanged tells the lobby's sockets that seek id changed (posted,
// accepted or gone).
func (s *Server) lobbyChanged(string) { s.lobby.changed() }

// run refreshes the sockets after each change and deletes the expired
// seeks now and then, until the server closes.
func (l *lobbyHub) run() {
	ks := l.s.store
	expire := time.NewTicker(lobbyExpireEvery)
	defer expire.Stop()
	pairs := time.NewTicker(l.pairEvery)
	defer pairs.Stop()
	// The holds are renewed, and the lapsed ones swept, three times a
	// grace: a hold renewed to a grace ahead never lapses while held.
	lease := time.NewTimer(l.graceOf() / 3)
	defer lease.Stop()
	var last time.Time       // the last refresh's start
	var due <-chan time.Time // a refresh waiting for the gap
	for {
		select {
		case <-l.s.ctx.Done():
			return
		case <-lease.C:
			l.renew(ks)
			l.sweep(ks)
			lease.Reset(l.graceOf() / 3)
		case <-l.regrace:
			lease.Reset(l.graceOf() / 3)
		case <-pairs.C:
			if !l.holding() {
				continue
			}
			ctx, cancel := context.WithTimeout(l.s.ctx, storeTimeout)
			open, err := ks.OpenSeeks(ctx, time.Now())
			cancel()
			if err != nil {
				l.s.log.Warn("reading the pool", "err", err)
				continue
			}
			l.pairHeld(open)
		case <-l.kick:
			// Coalesced: the changes that come while a refresh runs, or
			// within the gap after its start, wait for one more refresh,
			// which reads them all.
			if due != nil {
				continue
			}
			if wait := time.Duration(l.gap.Load()) - time.Since(last); wait > 0 {
				due = time.After(wait)
				continue
			}
			last = time.Now()
			l.refresh(ks)
		case <-due:
			due = nil
			last = time.Now()
			l.refresh(ks)
		case <-expire.C:
			ctx, cancel := context.WithTimeout(l.s.ctx, storeTimeout)
			n, err := ks.ExpireSeeks(ctx, time.Now())
			cancel()
			if err != nil {
				l.s.log.Warn("expiring seeks", "err", err)
			}
			if n > 0 {
				l.changed()
			}
		}
	}
}

// storeTimeout bounds the lobby's reads and writes of its own.
const storeTimeout = 5 * time.Second

// refresh sends every socket the seeks it may accept, and the poster's
// sockets the news of their seeks accepted or gone.
func (l *lobbyHub) refresh(ks store.Seeks) {
	l.refreshes.Add(1)
	ctx, cancel := context.WithTimeout(l.s.ctx, storeTimeout)
	defer cancel()
	open, err := ks.OpenSeeks(ctx, time.Now())
	if err != nil {
		l.s.log.Warn("reading the lobby's seeks", "err", err)
		return
	}
	// Only what the lists show: the tickets of quick pairing (never
	// listed) cost nothing here, and the posters' accounts and ratings,
	// with those of the sockets' players when a seek has a range, come
	// in one read.
	isOpen := make(map[string]bool, len(open))
	var shown []store.Seek
	ranged := false
	for _, k := range open {
		isOpen[k.ID] = true
		if !k.Pool {
			shown = append(shown, k)
			ranged = ranged || k.Min != 0 || k.Max != 0
		}
	}
	socks, held, gone := l.snapshot(isOpen)
	for _, id := range gone {
		l.settle(ctx, ks, id)
	}
	var players []string // the sockets' accounts, for the seeks' ranges
	if ranged {
		for _, c := range socks {
			players = append(players, c.account)
		}
	}
	ps, err := l.s.posters(ctx, shown, players...)
	if err != nil {
		l.s.log.Warn("reading the lobby's seeks", "err", err)
		return
	}
	views := make(map[string]json.RawMessage, len(shown))
	for _, k := range shown {
		views[k.ID], _ = json.Marshal(viewWith(k, ps))
	}
	blocks, err := l.blocksOf.Load().read(ctx, socks) // by account: blocked either way
	if err != nil {
		l.s.log.Warn("reading blocks", "err", err)
		return
	}
	for _, c := range socks {
		blocked := blocks[c.account]
		list := make([]json.RawMessage, 0, len(shown))
		for _, k := range shown {
			if held[c][k.ID] || samePoster(k, c.account, c.poster) || blocked[k.Account] || (k.Rated && c.account == "") ||
				!inRange(ratingAmong(ps, c.account, k.Speed), k) {
				continue
			}
			list = append(list, views[k.ID])
		}
		msg, _ := json.Marshal(struct {
			Type  string            `json:"type"`
			Seeks []json.RawMessage `json:"seeks"`
		}{"seeks", list})
		c.setList(msg)
	}
}

// holding reports whether a socket here holds a seek.
func (l *lobbyHub) holding() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.holders) > 0
}

// snapshot returns the sockets, the seeks each holds, and the held seeks
// no longer open (isOpen).
func (l *lobbyHub) snapshot(isOpen map[string]bool) (socks []*lobbySock, held map[*lobbySock]map[string]bool, gone []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	socks = make([]*lobbySock, 0, len(l.socks))
	for c := range l.socks {
		socks = append(socks, c)
	}
	held = map[*lobbySock]map[string]bool{}
	for id, hs := range l.holders {
		for c := range hs {
			if held[c] == nil {
				held[c] = map[string]bool{}
			}
			held[c][id] = true
		}
		if !isOpen[id] {
			gone = append(gone, id)
		}
	}
	return socks, held, gone
}

// takeHolders returns the sockets holding seek id, with its secret, and
// forgets them: they hold it no more.
func (l *lobbyHub) takeHolders(id string) map[*lobbySock]string {
	l.mu.Lock()
	defer l.mu.Unlock()
	hs := l.holders[id]
	delete(l.holders, id)
	return hs
}

// settle tells the sockets holding seek id, no longer open, what became
// of it: "paired" with its game, or "gone"; they hold it no more.
func (l *lobbyHub) settle(ctx context.Context, ks store.Seeks, id string) {
	k, err := ks.Seek(ctx, id)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		l.s.log.Warn("reading a seek", "seek", id, "err", err)
		return
	}
	if err == nil && k.Game != "" {
		// The server that accepted or paired it makes the game just
		// after: until then the poster would find no game. It tells
		// every server once the game is made (gameMade).
		switch _, gerr := l.s.store.Get(ctx, k.Game); {
		case errors.Is(gerr, store.ErrNotFound):
			return // still held: the next refresh settles it
		case gerr != nil:
			l.s.log.Warn("reading a seek's game", "seek", id, "err", gerr)
			return
		}
	}
	hs := l.takeHolders(id)
	for c, secret := range hs {
		var msg []byte
		if err == nil && k.Game != "" {
			msg, _ = json.Marshal(lobbyPaired{Type: "paired", Seek: id, Game: k.Game, Seat: k.Seat, Secret: secret})
		} else {
			msg, _ = json.Marshal(lobbyNote{Type: "gone", Seek: id})
		}
		c.send(msg)
	}
}

// paired tells the sockets here holding seek id that it made game, in
// seat, and forgets them: apart from the lists, so that a slow or
// failing refresh never withholds a game.
func (l *lobbyHub) paired(id, game string, seat int) {
	hs := l.takeHolders(id)
	for c, secret := range hs {
		msg, _ := json.Marshal(lobbyPaired{Type: "paired", Seek: id, Game: game, Seat: seat, Secret: secret})
		c.send(msg)
	}
}

// heard reads seek id, which the store's notices say changed on some
// server, if a socket here holds it, and tells its sockets "paired" if
// its game is made: apart from the lists, as paired. One read at a time
// for a seek; a seek still open, or whose game is not made yet, is left
// to the next notice or refresh.
func (l *lobbyHub) heard(id string) {
	ks := l.s.store
	if !l.startHearing(id) {
		return
	}
	go func() {
		defer l.doneHearing(id)
		ctx, cancel := context.WithTimeout(l.s.ctx, storeTimeout)
		defer cancel()
		k, err := ks.Seek(ctx, id)
		if err != nil || k.Game == "" {
			return // gone, or open: the lists' refresh says so
		}
		switch _, err := l.s.store.Get(ctx, k.Game); {
		case errors.Is(err, store.ErrNotFound):
			return // the server that paired it says so once it is made
		case err != nil:
			l.s.log.Warn("reading a seek's game", "seek", id, "err", err)
			return
		}
		l.paired(id, k.Game, k.Seat)
	}()
}

// startHearing marks seek id as being read for heard, if a socket here
// holds it and it is not being read already, and reports whether it did.
func (l *lobbyHub) startHearing(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, held := l.holders[id]; !held || l.hearing[id] {
		return false
	}
	l.hearing[id] = true
	return true
}

// doneHearing marks seek id as read.
func (l *lobbyHub) doneHearing(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.hearing, id)
}

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
func (l *lobbyHub) hold(ctx context.Context, c *lobbySock, id, secret string) {
	ks := l.s.store
	// A hold that names no seek of the sender's counts as a request
	// naming what does not exist: each costs a read of the store.
	lim := l.s.limits
	echo := id // the id refused, said back only if it could be one
	if !validID(id) {
		echo = ""
	}
	if err := lim.AllowGame(c.client); err != nil {
		msg, _ := json.Marshal(lobbyNote{Type: "error", Seek: echo, Message: err.Error()})
		c.send(msg)
		return
	}
	k, err := store.Seek{}, store.ErrNotFound
	if validID(id) {
		k, err = ks.Seek(ctx, id)
	}
	if err != nil || subtle.ConstantTimeCompare(hashSecret(secret), k.Key) != 1 {
		if errors.Is(err, store.ErrNotFound) || err == nil {
			if lim.UnknownGame(c.client) {
				l.s.log.Warn("a client names many seeks or games that do not exist", "client", c.client)
			}
		}
		msg, _ := json.Marshal(lobbyNote{Type: "error", Seek: echo, Message: "no seek of yours has that id and secret"})
		c.send(msg)
		return
	}
	if err := ks.HoldSeeks(ctx, []string{id}, l.name, time.Now().Add(l.graceOf())); err != nil {
		l.s.log.Warn("holding a seek", "seek", id, "err", err)
	}
	l.addHolder(id, c, secret)
	msg, _ := json.Marshal(lobbyNote{Type: "held", Seek: id})
	c.send(msg)
	l.changed() // accepted meanwhile: settle says so; and the list leaves it out
}

// addHolder records that c holds seek id, with its secret.
func (l *lobbyHub) addHolder(id string, c *lobbySock, secret string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holders[id] == nil {
		l.holders[id] = map[*lobbySock]string{}
	}
	l.holders[id][c] = secret
}

// join counts c among the lobby's sockets.
func (l *lobbyHub) join(c *lobbySock) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.socks[c] = struct{}{}
}

// forget forgets c, and returns the seeks it alone held here.
func (l *lobbyHub) forget(c *lobbySock) (orphans []string) {
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
func (l *lobbyHub) leave(c *lobbySock) {
	orphans := l.forget(c)
	ks := l.s.store
	if len(orphans) == 0 || l.s.ctx.Err() != nil {
		return // shutting down: the holds lapse, and another server's (or the next run's) sweep deletes them
	}
	grace := l.graceOf()
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := ks.HoldSeeks(ctx, orphans, l.name, time.Now().Add(grace)); err != nil {
		l.s.log.Warn("holding seeks for the grace", "err", err)
	}
	time.AfterFunc(grace+grace/10, func() {
		if l.s.ctx.Err() == nil {
			l.sweep(ks)
		}
	})
}

// renew extends the holds of the seeks held here to a grace from now.
func (l *lobbyHub) renew(ks store.Seeks) {
	ids := l.heldIDs()
	ctx, cancel := context.WithTimeout(l.s.ctx, storeTimeout)
	defer cancel()
	if err := ks.HoldSeeks(ctx, ids, l.name, time.Now().Add(l.graceOf())); err != nil {
		l.s.log.Warn("renewing the holds of seeks", "err", err)
	}
}

// heldIDs returns the ids of the seeks held here.
func (l *lobbyHub) heldIDs() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	ids := make([]string, 0, len(l.holders))
	for id := range l.holders {
		ids = append(ids, id)
	}
	return ids
}

// sweep deletes the open seeks whose holds lapsed: their posters left,
// here or on another server (or that server stopped).
func (l *lobbyHub) sweep(ks store.Seeks) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	switch n, err := ks.SweepSeeks(ctx, time.Now()); {
	case err != nil:
		l.s.log.Warn("sweeping seeks", "err", err)
	case n > 0:
		l.s.log.Info("seeks withdrawn: their posters left", "seeks", n)
		l.changed()
	}
}

// lobbySocket serves GET /api/lobby/ws: the lobby's handler of a
// WebSocket client.
func (s *Server) lobbySocket(w http.ResponseWriter, r *http.Request) error {
	conn, err := s.admitSocket(r)
	if err != nil {
		return err
	}
	defer conn.End()
	se, a, err := host{s: s, r: r}.session(r.Context())
	switch {
	case err == nil:
	case errors.Is(err, api.ErrSignedOut):
		se, a = store.Session{}, store.Account{}
	default:
		return err
	}
	poster := s.ensurePosterKey(w, r) // a new key's cookie goes with the upgrade's answer
	if !conn.Accept(w, r) {
		return nil // Accept has answered
	}
	c := &lobbySock{account: a.ID, session: se.Key, client: s.limits.Client(r), poster: poster, out: make(chan []byte, lobbyOutbox), done: make(chan struct{}), listReady: make(chan struct{}, 1)}
	l := s.lobby
	l.join(c)
	defer l.leave(c)
	l.changed() // its first list
	conn.Receive(func(ctx context.Context, data []byte) { l.receive(ctx, c, data) })
	l.serve(conn, c)
	return nil
}

// receive handles one message of c's client: a ping, or a hold of a
// seek. Anything else is ignored.
func (l *lobbyHub) receive(ctx context.Context, c *lobbySock, data []byte) {
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
func (l *lobbyHub) serve(conn *socket.Client, c *lobbySock) {
	s := l.s
	var recheck <-chan time.Time
	if c.account != "" {
		t := time.NewTicker(s.lobbySessionCheck)
		defer t.Stop()
		recheck = t.C
	}
	for {
		select {
		case <-s.ctx.Done():
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
			s.checkSession(c)
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
