package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"oanquan/internal/ids"
	"oanquan/internal/limits"
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
// server it closes at once (EndSessions).
const lobbySessionCheck = time.Minute

// RefreshGap is the least time from the start of one refresh of the
// lobby's sockets to the next: changes coming faster (a burst of quick
// pairing's tickets, each held and paired) share refreshes, at most ten
// a second whatever their number, and a list is at most this late.
const RefreshGap = 100 * time.Millisecond

// lobbyExpireEvery is how often the expired seeks are deleted.
const lobbyExpireEvery = time.Minute

// Lobby is the lobby: its seeks and quick pairing's tickets in the
// store, its sockets, and the making of the games its pairings make.
// Make one with New and Run it. Safe for concurrent use.
type Lobby struct {
	store  Store
	games  Games
	limits *limits.Limiter
	log    *slog.Logger
	ctx    context.Context // Run's: ends with the server
	// sessionCheck is lobbySessionCheck; tests shorten it.
	sessionCheck time.Duration

	name  string       // this server's, as the holder of the seeks it holds
	grace atomic.Int64 // lobbyGrace, as a time.Duration; tests shorten it
	// regrace tells Run that grace changed (cap 1).
	regrace chan struct{}
	// pairEvery is pairEvery: how often the tickets held here are tried.
	pairEvery time.Duration
	kick      chan struct{} // something changed: refresh every socket (coalesced)
	// gap is the least time from one refresh's start to the next's, as
	// a time.Duration: RefreshGap; tests change it.
	gap atomic.Int64
	// refreshes counts the refreshes made (tests and benchmarks).
	refreshes atomic.Int64
	// blocksOf reads, by account, whom the signed-in sockets block or
	// are blocked by: the store's BlockedAmong (a benchmark compares
	// others).
	blocksOf atomic.Pointer[BlocksReader]

	mu      sync.Mutex
	socks   map[*sock]struct{}
	holders map[string]map[*sock]string // by seek id: the sockets that hold it, and its secret
	hearing map[string]bool             // seeks heard of being read (Heard)
}

// BlocksReader reads, by account, whom each of accounts (the signed-in
// sockets', each once) blocks or is blocked by.
type BlocksReader func(ctx context.Context, accounts []string) (map[string]map[string]bool, error)

// New returns the lobby of cfg, to Run.
func New(cfg Config) *Lobby {
	l := &Lobby{store: cfg.Store, games: cfg.Games, limits: cfg.Limits, log: cfg.Log, ctx: cfg.Context, sessionCheck: lobbySessionCheck,
		name: "server-" + ids.New(), pairEvery: pairEvery, kick: make(chan struct{}, 1), regrace: make(chan struct{}, 1),
		socks: map[*sock]struct{}{}, holders: map[string]map[*sock]string{}, hearing: map[string]bool{}}
	if l.log == nil {
		l.log = slog.New(slog.DiscardHandler)
	}
	if l.ctx == nil {
		l.ctx = context.Background()
	}
	l.SetBlocksReader(nil)
	l.SetGrace(lobbyGrace)
	l.gap.Store(int64(RefreshGap))
	return l
}

// SetBlocksReader makes r the reader of the sockets' blocks, called at
// each refresh; nil: the store's BlockedAmong (no read for no account).
// (A benchmark compares others; a test stalls it.)
func (l *Lobby) SetBlocksReader(r BlocksReader) {
	if r == nil {
		r = func(ctx context.Context, accounts []string) (map[string]map[string]bool, error) {
			if len(accounts) == 0 {
				return nil, nil
			}
			return l.store.BlockedAmong(ctx, accounts)
		}
	}
	l.blocksOf.Store(&r)
}

// blockedAmong returns, by account, the accounts that each signed-in
// socket of socks blocks or is blocked by: one read of the store for
// them all, at each change of the lobby. The blocks are read afresh at
// each change, and a block or unblock is one (here, and through the
// store's notices on every other server), so none is ever listed a seek
// of a player blocked either way.
func (l *Lobby) blockedAmong(ctx context.Context, socks []*sock) (map[string]map[string]bool, error) {
	seen := map[string]bool{}
	var accounts []string
	for _, c := range socks {
		if c.account != "" && !seen[c.account] {
			seen[c.account] = true
			accounts = append(accounts, c.account)
		}
	}
	return (*l.blocksOf.Load())(ctx, accounts)
}

// SetSessionCheck sets how often a signed-in socket reads its session
// again; tests shorten it. Call it before sockets are served.
func (l *Lobby) SetSessionCheck(d time.Duration) { l.sessionCheck = d }

// SetGap sets the least time from one refresh's start to the next's;
// tests change it.
func (l *Lobby) SetGap(d time.Duration) { l.gap.Store(int64(d)) }

// Refreshes returns how many refreshes the lobby has made (tests and
// benchmarks).
func (l *Lobby) Refreshes() int64 { return l.refreshes.Load() }

// Sockets returns how many sockets the lobby has.
func (l *Lobby) Sockets() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.socks)
}

// SetGrace sets how long a seek outlives its last holding socket.
func (l *Lobby) SetGrace(d time.Duration) {
	l.grace.Store(int64(d))
	select {
	case l.regrace <- struct{}{}:
	default:
	}
}

// Grace returns how long a seek outlives its last holding socket.
func (l *Lobby) Grace() time.Duration { return time.Duration(l.grace.Load()) }

// Changed asks for every socket to be brought up to date.
func (l *Lobby) Changed() {
	select {
	case l.kick <- struct{}{}:
	default: // a refresh is due already: it will read this change too
	}
}

// Run refreshes the sockets after each change and deletes the expired
// seeks now and then, until the server closes.
func (l *Lobby) Run() {
	ks := l.store
	expire := time.NewTicker(lobbyExpireEvery)
	defer expire.Stop()
	pairs := time.NewTicker(l.pairEvery)
	defer pairs.Stop()
	// The holds are renewed, and the lapsed ones swept, three times a
	// grace: a hold renewed to a grace ahead never lapses while held.
	lease := time.NewTimer(l.Grace() / 3)
	defer lease.Stop()
	var last time.Time       // the last refresh's start
	var due <-chan time.Time // a refresh waiting for the gap
	for {
		select {
		case <-l.ctx.Done():
			return
		case <-lease.C:
			l.renew(ks)
			l.sweep(ks)
			lease.Reset(l.Grace() / 3)
		case <-l.regrace:
			lease.Reset(l.Grace() / 3)
		case <-pairs.C:
			if !l.holding() {
				continue
			}
			ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
			open, err := ks.OpenSeeks(ctx, time.Now())
			cancel()
			if err != nil {
				l.log.Warn("reading the pool", "err", err)
				continue
			}
			l.PairHeld(open)
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
			ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
			n, err := ks.ExpireSeeks(ctx, time.Now())
			cancel()
			if err != nil {
				l.log.Warn("expiring seeks", "err", err)
			}
			if n > 0 {
				l.Changed()
			}
		}
	}
}

// storeTimeout bounds the lobby's reads and writes of its own.
const storeTimeout = 5 * time.Second

// refresh sends every socket the seeks it may accept, and the poster's
// sockets the news of their seeks accepted or gone.
func (l *Lobby) refresh(ks store.Seeks) {
	l.refreshes.Add(1)
	ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
	defer cancel()
	open, err := ks.OpenSeeks(ctx, time.Now())
	if err != nil {
		l.log.Warn("reading the lobby's seeks", "err", err)
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
	ps, err := l.Posters(ctx, shown, players...)
	if err != nil {
		l.log.Warn("reading the lobby's seeks", "err", err)
		return
	}
	views := make(map[string]json.RawMessage, len(shown))
	for _, k := range shown {
		views[k.ID], _ = json.Marshal(View(k, ps))
	}
	blocks, err := l.blockedAmong(ctx, socks) // by account: blocked either way
	if err != nil {
		l.log.Warn("reading blocks", "err", err)
		return
	}
	for _, c := range socks {
		blocked := blocks[c.account]
		list := make([]json.RawMessage, 0, len(shown))
		for _, k := range shown {
			if held[c][k.ID] || SamePoster(k, c.account, c.poster) || blocked[k.Account] || (k.Rated && c.account == "") ||
				!InRange(RatingAmong(ps, c.account, k.Speed), k) {
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
func (l *Lobby) holding() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.holders) > 0
}

// snapshot returns the sockets, the seeks each holds, and the held seeks
// no longer open (isOpen).
func (l *Lobby) snapshot(isOpen map[string]bool) (socks []*sock, held map[*sock]map[string]bool, gone []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	socks = make([]*sock, 0, len(l.socks))
	for c := range l.socks {
		socks = append(socks, c)
	}
	held = map[*sock]map[string]bool{}
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
func (l *Lobby) takeHolders(id string) map[*sock]string {
	l.mu.Lock()
	defer l.mu.Unlock()
	hs := l.holders[id]
	delete(l.holders, id)
	return hs
}

// settle tells the sockets holding seek id, no longer open, what became
// of it: "paired" with its game, or "gone"; they hold it no more.
func (l *Lobby) settle(ctx context.Context, ks store.Seeks, id string) {
	k, err := ks.Seek(ctx, id)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		l.log.Warn("reading a seek", "seek", id, "err", err)
		return
	}
	if err == nil && k.Game != "" {
		// The server that accepted or paired it makes the game just
		// after: until then the poster would find no game. It tells
		// every server once the game is made (GameMade).
		switch _, gerr := l.store.Get(ctx, k.Game); {
		case errors.Is(gerr, store.ErrNotFound):
			return // still held: the next refresh settles it
		case gerr != nil:
			l.log.Warn("reading a seek's game", "seek", id, "err", gerr)
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

// tellPaired tells the sockets here holding seek id that it made game, in
// seat, and forgets them: apart from the lists, so that a slow or
// failing refresh never withholds a game.
func (l *Lobby) tellPaired(id, game string, seat int) {
	hs := l.takeHolders(id)
	for c, secret := range hs {
		msg, _ := json.Marshal(lobbyPaired{Type: "paired", Seek: id, Game: game, Seat: seat, Secret: secret})
		c.send(msg)
	}
}

// Heard reads seek id, which the store's notices say changed on some
// server, if a socket here holds it, and tells its sockets "paired" if
// its game is made: apart from the lists, as paired. One read at a time
// for a seek; a seek still open, or whose game is not made yet, is left
// to the next notice or refresh.
func (l *Lobby) Heard(id string) {
	ks := l.store
	if !l.startHearing(id) {
		return
	}
	go func() {
		defer l.doneHearing(id)
		ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
		defer cancel()
		k, err := ks.Seek(ctx, id)
		if err != nil || k.Game == "" {
			return // gone, or open: the lists' refresh says so
		}
		switch _, err := l.store.Get(ctx, k.Game); {
		case errors.Is(err, store.ErrNotFound):
			return // the server that paired it says so once it is made
		case err != nil:
			l.log.Warn("reading a seek's game", "seek", id, "err", err)
			return
		}
		l.tellPaired(id, k.Game, k.Seat)
	}()
}

// startHearing marks seek id as being read for heard, if a socket here
// holds it and it is not being read already, and reports whether it did.
func (l *Lobby) startHearing(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, held := l.holders[id]; !held || l.hearing[id] {
		return false
	}
	l.hearing[id] = true
	return true
}

// doneHearing marks seek id as read.
func (l *Lobby) doneHearing(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.hearing, id)
}

// renew extends the holds of the seeks held here to a grace from now.
func (l *Lobby) renew(ks store.Seeks) {
	ids := l.heldIDs()
	ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
	defer cancel()
	if err := ks.HoldSeeks(ctx, ids, l.name, time.Now().Add(l.Grace())); err != nil {
		l.log.Warn("renewing the holds of seeks", "err", err)
	}
}

// heldIDs returns the ids of the seeks held here.
func (l *Lobby) heldIDs() []string {
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
func (l *Lobby) sweep(ks store.Seeks) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	switch n, err := ks.SweepSeeks(ctx, time.Now()); {
	case err != nil:
		l.log.Warn("sweeping seeks", "err", err)
	case n > 0:
		l.log.Info("seeks withdrawn: their posters left", "seeks", n)
		l.Changed()
	}
}
