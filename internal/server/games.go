package server

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"strings"
	"sync"
	"time"

	"oanquan/ai"
	"oanquan/internal/match"
	"oanquan/internal/store"
	"oanquan/notation"
	"oanquan/rules"
)

// saveTimeout bounds one save of a game to the store.
const saveTimeout = 5 * time.Second

// newID returns a random game id: ten lower-case letters and digits.
func newID() string {
	var b [6]byte
	rand.Read(b[:])
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
}

// validID reports whether id could be a game id, so that nonsense never
// reaches the store.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// newMatch saves a new game made from cfg and makes it live.
func (s *Server) newMatch(ctx context.Context, cfg match.Config) (*match.Match, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fail(match.ErrClosed, "the server is shutting down")
	}
	for {
		cfg.ID = newID()
		if s.live[cfg.ID] != nil {
			continue
		}
		_, err := s.store.Get(ctx, cfg.ID)
		if errors.Is(err, store.ErrNotFound) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("checking a new id: %w", err)
		}
	}
	if cfg.Start == nil {
		start := cfg.Rules.Start()
		cfg.Start = &start
	}
	// Saved before it starts, so that no save of its own (of the
	// computer's first move) can come before this one.
	if err := s.store.Put(ctx, toStored(cfg)); err != nil {
		return nil, fmt.Errorf("saving new game %s: %w", cfg.ID, err)
	}
	m, err := s.startLocked(cfg)
	if err != nil {
		s.store.Delete(ctx, cfg.ID)
		return nil, err
	}
	return m, nil
}

// liveGame is a game in memory.
type liveGame struct {
	m    *match.Match
	used time.Time // when a request last asked for it
}

// startLocked creates the match and makes it live.
func (s *Server) startLocked(cfg match.Config) (*match.Match, error) {
	cfg.Engine = s.cfg.Engine
	cfg.MoveTime = s.cfg.MoveTime
	cfg.HintTime = s.cfg.HintTime
	var saving sync.Mutex
	cfg.OnChange = func(m *match.Match) { s.save(m, &saving) }
	m, err := match.New(cfg)
	if err != nil {
		return nil, err
	}
	s.live[cfg.ID] = &liveGame{m: m, used: time.Now()}
	return m, nil
}

// game returns the live game id, rebuilding it from the store if it is
// not live.
func (s *Server) game(ctx context.Context, id string) (*match.Match, error) {
	if !validID(id) {
		return nil, fail(errNotFound, "no game %q", id)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fail(match.ErrClosed, "the server is shutting down")
	}
	if g := s.live[id]; g != nil {
		g.used = time.Now()
		return g.m, nil
	}
	saved, err := s.store.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fail(errNotFound, "no game %q", id)
	}
	if err != nil {
		return nil, fmt.Errorf("loading game %s: %w", id, err)
	}
	cfg, err := fromStored(saved)
	if err != nil {
		return nil, fmt.Errorf("loading game %s: %w", id, err)
	}
	m, err := s.startLocked(cfg)
	if err != nil {
		return nil, fmt.Errorf("loading game %s: %w", id, err)
	}
	return m, nil
}

// save writes m to the store; it is every match's OnChange. Saves of one
// match run one at a time (under its saving lock), each of the state as it
// is when it runs, so the last save is of the latest state whatever order
// changes come in.
func (s *Server) save(m *match.Match, saving *sync.Mutex) {
	saving.Lock()
	defer saving.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), saveTimeout)
	defer cancel()
	if err := s.store.Put(ctx, toStored(m.Config())); err != nil {
		s.log.Error("saving game", "id", m.ID(), "err", err)
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
	s.mu.Lock()
	var idle []*match.Match
	for id, g := range s.live {
		if g.used.Before(cutoff) && g.m.Idle() {
			idle = append(idle, g.m)
			delete(s.live, id)
		}
	}
	s.mu.Unlock()
	for _, m := range idle {
		m.Close()
	}
	return len(idle)
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
		Moves:    moveList(c.Moves),
		Created:  c.Created,
		Updated:  time.Now(),
	}
	return g
}

// fromStored is toStored's inverse.
func fromStored(g store.Game) (match.Config, error) {
	c := match.Config{ID: g.ID, Mode: match.Mode(g.Mode), Human: rules.Player(g.Human), Seed: g.Seed, Created: g.Created}
	var err error
	if c.Level, err = ai.ParseLevel(g.Level); err != nil {
		return c, err
	}
	for _, v := range g.Variants {
		if err := c.Rules.Enable(v); err != nil {
			return c, err
		}
	}
	c.Rules.First = rules.Player(g.First)
	start, err := notation.ParsePosition(g.Start)
	if err != nil {
		return c, err
	}
	c.Start = &start
	for _, s := range g.Moves {
		m, err := notation.ParseMove(s)
		if err != nil {
			return c, err
		}
		c.Moves = append(c.Moves, m)
	}
	return c, nil
}

// newSeed returns a seed for a new game's computer player.
func newSeed() uint64 { return mrand.Uint64() }
