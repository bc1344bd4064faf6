package server

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net/http"
	"reflect"
	"slices"
	"sync"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/ids"
	"oanquan/internal/match"
	"oanquan/internal/store"
	"oanquan/internal/wire"
	"oanquan/notation"
	"oanquan/rules"
)

// saveTimeout bounds one save of a game to the store.
const saveTimeout = 5 * time.Second

// newID returns a random game id (ids.New).
func newID() string { return ids.New() }

// validID reports whether id could be a game id (ids.Valid).
func validID(id string) bool { return ids.Valid(id) }

// seatsOf returns the seats' secrets' hashes and accounts of a game
// whose seats players are acted for by the holder of secret, played by
// the account accountID ("" for none): the other seats have none.
func seatsOf(players []rules.Player, secret, accountID string) (hashes [2][]byte, accounts [2]string) {
	for _, p := range players {
		hashes[p] = hashSecret(secret)
		accounts[p] = accountID
	}
	return hashes, accounts
}

// newMatch saves a new game made from cfg, whose seats' secrets have
// the hashes seats (nil: a seat not taken yet) and are played by the
// accounts ("" for none), and makes it live. Its id is id, chosen by
// the caller when the store named the game before it was made (a
// pairing: a seek accepted, tickets paired), or a new one for "".
func (s *Server) newMatch(ctx context.Context, id string, cfg match.Config, seats [2][]byte, accounts [2]string) (*match.Match, error) {
	if cfg.Start == nil {
		start := cfg.Rules.Start()
		cfg.Start = &start
	}
	// Checked before it is saved: a game that cannot be played is never
	// saved.
	game, err := rules.NewGame(cfg.Rules, *cfg.Start)
	if err != nil {
		return nil, api.Fail(api.ErrBadRequest, "position: %v", err)
	}
	if cfg.Clock != nil && seats[0] != nil && seats[1] != nil {
		clk := match.NewClock(*cfg.Clock) // a rematch: ready at once
		clk.Start = time.Now()
		cfg.ClockState = &clk
	}
	g := toStored(cfg)
	g.Seats, g.Accounts = seats, accounts
	if cfg.ClockState != nil {
		at, _ := cfg.ClockState.Deadline(*cfg.Clock, s.cfg.Clocks.timing(s.started), 0, cfg.Start.ToMove)
		g.Clock.Deadline = at
	}
	pol, _ := match.PolicyOf(cfg.Mode)
	g.Waiting = store.Waiting(pol.ComputerPlays(cfg.Start.ToMove, cfg.Human) && !game.Over())
	for tries := 0; ; tries++ {
		g.ID = id
		if id == "" {
			g.ID = newID()
		}
		err := s.store.Create(ctx, g)
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrExists) || tries == 5 || id != "" {
			return nil, fmt.Errorf("saving a new game: %w", err)
		}
	}
	cfg.ID = g.ID
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	// A lobby's game is named before it is made: a request for it (the
	// poster told "paired" through another server) may have loaded it
	// from the store meanwhile. That copy is the game; a second one would
	// be left out of s.live with its clock's timer running, flagging a
	// game it no longer knows (the flag loop loadgen found).
	if live := s.live[cfg.ID]; live != nil {
		s.touchLocked(live)
		return live.m, nil
	}
	return s.startLocked(cfg, g.Seats)
}

// liveGame is a game in memory.
type liveGame struct {
	m    *match.Match
	elem *list.Element // in Server.lru
	used time.Time     // when a request last asked for it

	mu    sync.Mutex
	seats [2][]byte       // the hashes of the seats' secrets, as saved
	conns map[*wsConn]int // the WebSockets open on the game: the seat each acts for, or -1
	// dropped says which seats' last WebSocket here dropped rather than
	// being closed by its page, until the seat's player is back or leaves.
	dropped [2]bool
	others  store.Presence // who is connected through the other servers, as last read

	presenceMu sync.Mutex // held by presenceChanged
}

// hashes returns the hashes of g's seats' secrets.
func (g *liveGame) hashes() [2][]byte {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.seats
}

// taken says which of g's seats have a player.
func (g *liveGame) taken() [2]bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return [2]bool{g.seats[0] != nil, g.seats[1] != nil}
}

// setSeat records that the holder of hash has seat p.
func (g *liveGame) setSeat(p int, hash []byte) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seats[p] = hash
}

// startLocked creates the match and makes it live, closing the least
// recently used live games beyond Config.MaxLive.
func (s *Server) startLocked(cfg match.Config, seats [2][]byte) (*match.Match, error) {
	cfg.Engine = s.engine(cfg.ID)
	cfg.MoveTime = s.cfg.MoveTime
	cfg.HintTime = s.cfg.HintTime
	cfg.Commit = s.commit
	cfg.Timing = s.cfg.Clocks.timing(s.started)
	cfg.OnDue = s.onDue
	m, err := match.New(cfg)
	if err != nil {
		return nil, err
	}
	g := &liveGame{m: m, seats: seats, used: time.Now(), conns: make(map[*wsConn]int)}
	s.presenceChanged(g) // which seats are taken, before anyone asks
	g.elem = s.lru.PushFront(g)
	s.live[cfg.ID] = g
	for s.lru.Len() > s.cfg.MaxLive {
		s.evictOneLocked()
	}
	return m, nil
}

// dropLive closes m, a match of this server that could not be brought
// up to date, and forgets it if it is the live copy of its game; the
// game stays saved, and the next request (or sweep) loads it afresh.
func (s *Server) dropLive(m *match.Match) {
	s.forgetLive(m)
	go m.Close()
}

// forgetLive forgets m if it is the live copy of its game.
func (s *Server) forgetLive(m *match.Match) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.live[m.ID()]; g != nil && g.m == m {
		s.lru.Remove(g.elem)
		delete(s.live, m.ID())
	}
}

// evictOneLocked closes the least recently used live game, preferring
// one that nobody watches and the computer is not thinking about among
// the last few. It stays saved.
func (s *Server) evictOneLocked() {
	victim := s.lru.Back()
	e := victim
	for range 32 {
		if e == nil {
			break
		}
		if e.Value.(*liveGame).m.Idle() {
			victim = e
			break
		}
		e = e.Prev()
	}
	g := victim.Value.(*liveGame)
	s.lru.Remove(victim)
	delete(s.live, g.m.ID())
	go g.m.Close() // it may be thinking: Close waits for the search to end
}

// gameFor is game for a client's request r: a client that has named too
// many games that do not exist lately is refused (rate_limited) before
// the lookup, and each game it names that does not exist counts.
func (s *Server) gameFor(ctx context.Context, r *http.Request, id string) (*liveGame, error) {
	client := s.limits.Client(r)
	if err := s.limits.AllowGame(client); err != nil {
		return nil, err
	}
	g, err := s.game(ctx, id)
	if errors.Is(err, api.ErrNotFound) && s.limits.UnknownGame(client) {
		// The client, never the ids it tried: an id is the key to a game.
		s.log.Warn("too many requests for games that do not exist", "client", client, "limit_per_minute", s.limits.Config().Unknown.PerMinute)
	}
	return g, err
}

// game returns the live game id, rebuilding it from the store if it is
// not live.
func (s *Server) game(ctx context.Context, id string) (*liveGame, error) {
	if !validID(id) {
		return nil, api.Fail(api.ErrNotFound, "no such game")
	}
	if g, err := s.used(id); g != nil || err != nil {
		return g, err
	}
	// Read outside the lock: a slow store must not hold up other games.
	saved, err := s.store.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, api.Fail(api.ErrNotFound, "no such game")
	}
	if err != nil {
		return nil, fmt.Errorf("loading game %s: %w", id, err)
	}
	cfg, err := fromStored(saved)
	if err != nil {
		return nil, fmt.Errorf("loading game %s: %w", id, err)
	}
	g, err := s.load(cfg, saved.Seats)
	if err == nil && cfg.ClockState != nil && cfg.ClockState.Start.IsZero() && saved.Seats[0] != nil && saved.Seats[1] != nil {
		// Both seats were taken but the clock's start was not saved
		// (the store failed after the join): it starts now.
		if err := g.m.StartClock(); err != nil {
			s.log.Error("starting a clock", "id", id, "err", err)
		}
	}
	return g, err
}

// used returns live game id, marked as just used; nil if it is not
// live.
func (s *Server) used(id string) (*liveGame, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if g := s.live[id]; g != nil {
		s.touchLocked(g)
		return g, nil
	}
	return nil, nil
}

// load makes the saved game of cfg and seats live, unless another
// request loaded it meanwhile.
func (s *Server) load(cfg match.Config, seats [2][]byte) (*liveGame, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if g := s.live[cfg.ID]; g != nil {
		s.touchLocked(g)
		return g, nil
	}
	if _, err := s.startLocked(cfg, seats); err != nil {
		return nil, fmt.Errorf("loading game %s: %w", cfg.ID, err)
	}
	g := s.live[cfg.ID]
	s.presence.read(g) // others may be connected through other servers
	return g, nil
}

// errClosed refuses a request about a game once the server is closed.
var errClosed = api.Fail(match.ErrClosed, "the server is shutting down")

// touchLocked marks g as just used.
func (s *Server) touchLocked(g *liveGame) {
	g.used = time.Now()
	s.lru.MoveToFront(g.elem)
}

// commit saves one change of a live game; it is every match's
// Config.Commit, called under the match's lock, so a game's changes are
// saved in the order they are made.
func (s *Server) commit(c match.Change) error {
	ctx, cancel := context.WithTimeout(s.ctx, saveTimeout)
	defer cancel()
	w := store.Waiting(c.Waiting)
	var err error
	start := time.Now()
	rated := false
	if endsRated(c) {
		rated, err = s.endRated(ctx, c)
	}
	switch {
	case rated, err != nil:
	case c.Kind == match.Moved:
		err = s.store.AppendClocked(ctx, c.ID, c.Index, notation.FormatMove(c.Move), w, clockOfChange(c))
	case c.Kind == match.ClockSet:
		err = s.store.SetClock(ctx, c.ID, clockOfChange(c))
	case c.Kind == match.Undone:
		err = s.store.Truncate(ctx, c.ID, c.Index, w)
	case c.Kind == match.LevelSet:
		err = s.store.SetLevel(ctx, c.ID, c.Level.String(), w)
	case c.Kind == match.StatusSet:
		// A status that ends the game (a resignation, an agreed draw, a
		// claim, a flag) is saved only if no move was saved since: the
		// game's last move, saved through another server, may have
		// ended it already, leaving the status as it was.
		if c.Flag || endsByStatus(c) {
			err = s.store.SetStatusAt(ctx, c.ID, statusText(c.From), statusText(c.Status), c.Index)
		} else {
			err = s.store.SetStatus(ctx, c.ID, statusText(c.From), statusText(c.Status))
		}
	}
	s.metrics.Committed(start)
	if errors.Is(err, store.ErrConflict) {
		// Another server changed the game first: catch up with it.
		go s.resync(c.ID)
		return api.Fail(match.ErrStale, "the game changed meanwhile: here is where it stands")
	}
	if err != nil {
		s.log.Error("saving game", "id", c.ID, "err", err)
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			return unavailable("the store did not answer in time") // saveTimeout
		}
		return fmt.Errorf("saving game %s: %w", c.ID, err)
	}
	s.log.Debug("game changed", "id", c.ID, "change", c.Kind, "index", c.Index)
	if c.Over {
		// When it ended, for retention. The change is saved: if this
		// fails, the game is kept as an unfinished one, no more.
		if err := s.store.Finish(ctx, c.ID, resultOf(c)); err != nil {
			s.log.Error("marking a game finished", "id", c.ID, "err", err)
		}
	}
	return nil
}

// endsByStatus reports whether c is the status that first says how its
// game ended (not a later change of an ended game's status, such as a
// rematch offer).
func endsByStatus(c match.Change) bool {
	return c.Kind == match.StatusSet && c.Over && c.From.Outcome.Kind == "" && c.Status.Outcome.Kind != ""
}

// resultOf is how the change c, which ends its game (c.Over), ended it,
// as the store keeps it for players' profiles.
func resultOf(c match.Change) store.Result {
	return resultFrom(c.Status.Outcome, c.Winner)
}

// resultFrom is the result of a game over: aborted by a player (outcome),
// or won by winner (0 or 1; -1 a draw).
func resultFrom(outcome match.Outcome, winner int) store.Result {
	switch {
	case outcome.Kind == match.OutcomeAbort:
		return store.Aborted
	case winner == 0:
		return store.Won0
	case winner == 1:
		return store.Won1
	}
	return store.Drawn
}

// resync re-reads live game id from the store and brings the match to
// it: another server changed it.
func (s *Server) resync(id string) {
	g := s.liveGame(id)
	if g == nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, saveTimeout)
	defer cancel()
	taken := g.taken()
	unread := false // the store did not answer: nothing is known of the game
	err := g.m.Sync(func() (match.Saved, error) {
		saved, err := s.store.Get(ctx, id)
		if err != nil {
			unread = true
			return match.Saved{}, err
		}
		for p, h := range saved.Seats {
			if h != nil {
				g.setSeat(p, h)
			}
		}
		cfg, err := fromStored(saved)
		return match.Saved{Moves: cfg.Moves, Level: cfg.Level, Status: cfg.Status, Clock: cfg.ClockState, ClockAfter: cfg.ClockAfter, ClockUsed: cfg.ClockUsed, Ratings: cfg.Ratings}, err
	})
	if err != nil && !errors.Is(err, match.ErrClosed) && s.ctx.Err() == nil {
		s.log.Error("re-reading game", "id", id, "err", err)
		if !unread {
			// The store holds a game this copy cannot follow: it must not
			// answer for it any longer. The next request reads the game
			// anew, and says what is wrong with it if anything is.
			s.dropLive(g.m)
		}
	}
	if g.taken() != taken { // a friend joined through another server
		s.presenceChanged(g)
	}
}

// janitor closes games left idle for longer than idle, now and then,
// until the server closes.
func (s *Server) janitor(idle time.Duration) {
	t := time.NewTicker(max(idle/4, time.Second))
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case now := <-t.C:
			s.evict(now.Add(-idle))
		}
	}
}

// evict closes the live games last asked for before cutoff that nobody
// is watching and the computer is not thinking about, and returns how
// many. They stay in the store, and come back when asked for.
func (s *Server) evict(cutoff time.Time) int {
	idle := s.takeIdle(cutoff)
	for _, m := range idle {
		m.Close()
	}
	return len(idle)
}

// takeIdle takes out of the live games those evict closes, and returns
// their matches.
func (s *Server) takeIdle(cutoff time.Time) []*match.Match {
	s.mu.Lock()
	defer s.mu.Unlock()
	var idle []*match.Match
	for e := s.lru.Back(); e != nil; {
		g := e.Value.(*liveGame)
		prev := e.Prev()
		// A game whose clock runs stays: its timer flags it on time.
		if g.used.Before(cutoff) && g.m.Idle() && g.m.Deadline().IsZero() {
			idle = append(idle, g.m)
			s.lru.Remove(e)
			delete(s.live, g.m.ID())
		}
		e = prev
	}
	return idle
}

// toStored turns a match's settings and moves into a saved game.
func toStored(c match.Config) store.Game {
	g := store.Game{
		ID:       c.ID,
		Mode:     string(c.Mode),
		Level:    c.Level.String(),
		Human:    int(c.Human),
		Seed:     c.Seed,
		Variants: c.Rules.Names(),
		First:    int(c.Rules.First),
		Start:    notation.FormatPosition(*c.Start),
		Moves:    wire.MoveList(c.Moves),
		Status:   statusText(c.Status),
		Clock:    clockText(c.Clock, c.ClockState, time.Time{}),
		Created:  c.Created,
		Updated:  time.Now(),
	}
	if c.Rated && c.Clock != nil {
		g.Rated = speedOf(*c.Clock).String()
	}
	return g
}

// fromStored is toStored's inverse, with the API's parser of settings.
// The saved start always names its player to move, which is the saved
// first player (toStored saves both from the same Config). A saved game that does not parse is the server's fault, not the
// client's: its error is no refusal.
func fromStored(g store.Game) (match.Config, error) {
	human := g.Human
	q := api.Settings{Mode: g.Mode, Level: g.Level, Human: &human, Variants: g.Variants, Position: g.Start}
	c, err := q.Config()
	if err == nil {
		c.Moves, err = api.ParseMoves(g.Moves)
	}
	if err != nil {
		return c, errors.New(err.Error())
	}
	c.ID, c.Seed, c.Created, c.Rated = g.ID, g.Seed, g.Created, g.Rated != ""
	if rc := g.RatingChange; rc != nil {
		c.Ratings = &match.Ratings{Speed: rc.Speed}
		for p := range 2 {
			c.Ratings.Before[p], c.Ratings.After[p] = rc.Before[p].Rating, rc.After[p].Rating
		}
	}
	moveClocks := g.MoveClocks
	if g.Clock.State != "" && len(moveClocks) < len(g.Moves) {
		// The moves at the end saved without their clock (a store
		// keeps none for them).
		moveClocks = append(slices.Clip(moveClocks), make([]string, len(g.Moves)-len(moveClocks))...)
	}
	lc, err := clockOf(g.Clock, moveClocks, g.Updated)
	if err != nil {
		return c, err
	}
	c.Clock, c.ClockState, c.ClockAfter, c.ClockUsed = lc.tc, lc.clock, lc.after, lc.used
	if g.Status != "" {
		if err := json.Unmarshal([]byte(g.Status), &c.Status); err != nil {
			return c, fmt.Errorf("status: %w", err)
		}
	}
	return c, nil
}

// statusText is how a status is saved: "" for none, else JSON.
func statusText(st match.Status) string {
	if reflect.DeepEqual(st, match.Status{}) {
		return ""
	}
	data, err := json.Marshal(st)
	if err != nil {
		panic(err) // plain data always marshals
	}
	return string(data)
}

// newSeed returns a seed for a new game's computer player.
func newSeed() uint64 { return mrand.Uint64() }
