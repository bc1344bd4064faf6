package server

import (
	"context"
	"sync"
	"time"

	"oanquan/internal/match"
	"oanquan/internal/store"
)

// Presence: who is connected to an online game. Each server counts the
// WebSockets it holds; when its store is a store.PresenceBoard (several
// servers on one PostgreSQL), it posts those counts there and adds up
// the other servers' posts, so that a player sees the other player
// connected to another server, and the watchers of all servers. Posts
// are made only when the counts change (and renewed in one statement
// every 15 s), never for a move; one goroutine makes them, so
// that a burst of changes to a game makes one post and no request waits
// for the database.

// presenceTTL is how long a post lasts unless renewed: the connections
// of a server that died stop counting within it and one renewal of
// another server's. Each server renews its posts, and takes down those
// that ran out, every third of it. (A variable: tests shorten it.)
var presenceTTL = 45 * time.Second

// presenceSync shares the presence of online games through the store's
// board. A nil *presenceSync (the store has none) shares nothing.
type presenceSync struct {
	board store.PresenceBoard
	wake  chan struct{} // has a value when posts or reads wait

	mu    sync.Mutex
	posts map[string]bool // ids of the games whose connections here changed
	reads map[string]bool // ids of the games whose connections elsewhere changed

	// posted is what the board holds of this server, by game id (the
	// zero Presence is never held). Only the loop uses it.
	posted map[string]store.Presence
}

// newPresenceSync returns the sharing of presence through st, or nil if
// st has no board.
func newPresenceSync(st store.Store) *presenceSync {
	board, ok := st.(store.PresenceBoard)
	if !ok {
		return nil
	}
	return &presenceSync{
		board:  board,
		wake:   make(chan struct{}, 1),
		posts:  make(map[string]bool),
		reads:  make(map[string]bool),
		posted: make(map[string]store.Presence),
	}
}

// post asks for g's connections here to be posted.
func (q *presenceSync) post(g *liveGame) { q.add(g, true) }

// read asks for the other servers' posts on g to be read.
func (q *presenceSync) read(g *liveGame) { q.add(g, false) }

func (q *presenceSync) add(g *liveGame, post bool) {
	if q == nil || !g.m.Policy().Online {
		return
	}
	q.queue(g.m.ID(), post)
	select {
	case q.wake <- struct{}{}:
	default: // a wake is pending: it will see g too
	}
}

// queue asks for game id to be posted or read when the loop next works,
// without waking it (after a failure the database may be down: the next
// renewal tries again).
func (q *presenceSync) queue(id string, post bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if post {
		q.posts[id] = true
	} else {
		q.reads[id] = true
	}
}

// take returns the ids of the games waiting to be posted and read, and
// forgets them.
func (q *presenceSync) take() (posts, reads map[string]bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	posts, reads = q.posts, q.reads
	q.posts, q.reads = make(map[string]bool), make(map[string]bool)
	return posts, reads
}

// presenceChanged tells the match of online game g who is connected to
// it now: the WebSockets here by seat, the other servers' as last read,
// and which seats are taken. If the connections here changed since they
// were posted, they are posted.
func (s *Server) presenceChanged(g *liveGame) {
	if !g.m.Policy().Online {
		return
	}
	// One at a time per game, so that an older count is never set after
	// a newer one.
	g.presenceMu.Lock()
	defer g.presenceMu.Unlock()
	g.m.SetPresence(g.presence())
	s.presence.post(g) // the loop compares with what it posted
}

// presence is who is connected to g: here, through the other servers as
// last read, and which seats are taken.
func (g *liveGame) presence() match.Presence {
	g.mu.Lock()
	defer g.mu.Unlock()
	all := g.hereLocked().Add(g.others)
	p := match.Presence{Seats: all.Seats, Watchers: all.Watchers, Dropped: all.Dropped}
	for seat, h := range g.seats {
		p.Taken[seat] = h != nil
	}
	return p
}

// here counts g's WebSockets on this server by seat.
func (g *liveGame) here() store.Presence {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.hereLocked()
}

// setOthers records who is connected to g through the other servers.
func (g *liveGame) setOthers(others store.Presence) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.others = others
}

// hereLocked counts g's WebSockets on this server by seat.
func (g *liveGame) hereLocked() store.Presence {
	var p store.Presence
	for _, seat := range g.conns {
		if seat < 0 {
			p.Watchers++
		} else {
			p.Seats[seat] = true
		}
	}
	for seat, d := range g.dropped {
		p.Dropped[seat] = d && !p.Seats[seat]
	}
	return p
}

// presenceLoop posts and reads the presence of online games as asked,
// and renews this server's posts every presenceTTL/3, until the server
// closes (Close then takes its posts down).
func (s *Server) presenceLoop() {
	q := s.presence
	// Posts of an earlier run of this server, which died, are not ours.
	s.dropPresence(s.ctx)
	t := time.NewTicker(presenceTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-q.wake:
		case <-t.C:
			s.renewPresence()
		}
		posts, reads := q.take()
		for id := range posts {
			s.postPresence(id)
		}
		for id := range reads {
			s.readPresence(id)
		}
	}
}

// liveGame returns live game id, or nil.
func (s *Server) liveGame(id string) *liveGame {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live[id]
}

// liveGames returns the games live now.
func (s *Server) liveGames() []*liveGame {
	s.mu.Lock()
	defer s.mu.Unlock()
	live := make([]*liveGame, 0, len(s.live))
	for _, g := range s.live {
		live = append(live, g)
	}
	return live
}

// postPresence posts the connections here to game id (none if it is no
// longer live), unless the board has them already.
func (s *Server) postPresence(id string) {
	q := s.presence
	var here store.Presence
	if g := s.liveGame(id); g != nil {
		here = g.here()
	}
	if here == q.posted[id] {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, saveTimeout)
	defer cancel()
	if err := q.board.PostPresence(ctx, id, s.cfg.ID, here, presenceTTL); err != nil {
		if s.ctx.Err() == nil {
			s.log.Warn("posting a game's presence", "id", id, "err", err)
			q.queue(id, true)
		}
		return
	}
	if here == (store.Presence{}) {
		delete(q.posted, id)
	} else {
		q.posted[id] = here
	}
}

// readPresence reads the other servers' posts on game id, if it is live,
// and tells its match.
func (s *Server) readPresence(id string) {
	g := s.liveGame(id)
	if g == nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, saveTimeout)
	defer cancel()
	others, err := s.presence.board.Presence(ctx, id, s.cfg.ID)
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Warn("reading a game's presence", "id", id, "err", err)
			s.presence.queue(id, false)
		}
		return
	}
	g.setOthers(others)
	s.presenceChanged(g)
}

// renewPresence renews this server's posts and asks for the games whose
// posts ran out to be read. If the board renewed another number of posts
// than this server made, some were lost (or are not its own): it takes
// them all down and asks for them to be posted anew.
func (s *Server) renewPresence() {
	q := s.presence
	ctx, cancel := context.WithTimeout(s.ctx, saveTimeout)
	defer cancel()
	n, expired, err := q.board.RenewPresence(ctx, s.cfg.ID, presenceTTL)
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Warn("renewing the presence posts", "err", err)
		}
		return
	}
	rows := 0
	for _, p := range q.posted {
		rows += store.PresenceRows(p)
	}
	if n != rows {
		s.log.Warn("presence posts lost: posting them again", "renewed", n, "posted", rows)
		s.dropPresence(ctx)
		for id := range q.posted {
			q.queue(id, true)
		}
		clear(q.posted)
	}
	for _, id := range expired {
		q.queue(id, false)
	}
}

// dropPresence takes down this server's posts.
func (s *Server) dropPresence(ctx context.Context) {
	if err := s.presence.board.DropPresence(ctx, s.cfg.ID); err != nil && ctx.Err() == nil {
		s.log.Warn("taking down the presence posts", "err", err)
	}
}

// closePresence takes down this server's posts as it closes, once the
// loop has stopped.
func (s *Server) closePresence() {
	if s.presence == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	s.dropPresence(ctx)
}
