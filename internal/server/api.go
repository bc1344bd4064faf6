package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"oanquan/ai"
	"oanquan/internal/api"
	"oanquan/internal/match"
	"oanquan/internal/store"
	"oanquan/rules"
)

// The operations of docs/API.md are package api's; the server is their
// host (where games live, who asks) and their transport.

// serve answers a route of package api's with its operation.
func (s *Server) serve(op func(*api.Call) (api.Response, error)) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		resp, err := op(&api.Call{
			Ctx:   r.Context(),
			Host:  host{s, r, w},
			ID:    r.PathValue("id"),
			Query: api.Values(r.URL.Query()),
			Body:  body(w, r),
		})
		if err != nil {
			return err
		}
		for k, v := range resp.Header {
			w.Header().Set(k, v)
		}
		if text, ok := resp.Body.(string); ok { // a game record
			w.WriteHeader(resp.Status)
			w.Write([]byte(text))
			return nil
		}
		writeJSON(w, resp.Status, resp.Body)
		return nil
	}
}

// host is the server as the api.Host of request r: its live games and
// store, the caller known by r's secret and address.
type host struct {
	s *Server
	r *http.Request
	w http.ResponseWriter // where an operation on accounts sets the session's cookie
}

// Allow applies the client's rate limit of the kind of request.
func (h host) Allow(kind string) error {
	cfg := h.s.limits.Config()
	rate := cfg.Creates // "new game", "join"
	switch kind {
	case "hint":
		rate = cfg.Hints
	case "review":
		rate = cfg.Reviews
	case "sign-in":
		return h.s.limits.AllowShared(h.r.Context(), h.r, kind, cfg.SignIns)
	case "sign-up":
		return h.s.limits.AllowShared(h.r.Context(), h.r, kind, cfg.SignUps)
	}
	return h.s.limits.Allow(h.r, kind, rate)
}

// Create saves a new game, whose seats a new secret acts for, and makes
// it live.
func (h host) Create(ctx context.Context, cfg match.Config, seats []rules.Player) (*match.Match, string, error) {
	cfg.Seed, cfg.Created = newSeed(), time.Now()
	accountID, err := h.creator(ctx, cfg)
	if err != nil {
		return nil, "", err
	}
	secret := newSecret()
	hashes, accounts := seatsOf(seats, secret, accountID)
	m, err := h.s.newMatch(ctx, "", cfg, hashes, accounts)
	if err != nil {
		return nil, "", err
	}
	h.s.log.Info("game created", "id", m.ID(), "mode", cfg.Mode, "level", cfg.Level.String())
	return m, secret, nil
}

// creator returns the account of the caller who creates an online game
// of cfg ("" for none): a rated game's creator must be signed in.
func (h host) creator(ctx context.Context, cfg match.Config) (string, error) {
	if cfg.Mode != match.Online {
		return "", nil
	}
	_, a, err := h.session(ctx)
	switch {
	case err == nil:
		return a.ID, nil
	case cfg.Rated:
		return "", err
	case errors.Is(err, api.ErrSignedOut):
		return "", nil
	}
	return "", err
}

// Game returns the live game id, loaded from the store if need be.
func (h host) Game(ctx context.Context, id string) (api.Game, error) {
	g, err := h.s.gameFor(ctx, h.r, id)
	if err != nil {
		return nil, err
	}
	return seated{h.s, g, h.r}, nil
}

// Review reviews a move on the pool, in the background, answering from
// the cache of moves reviewed lately when it can.
func (h host) Review(ctx context.Context, q api.ReviewQuery) (ai.MoveReview, error) {
	key := newReviewKey(q.Rules, q.Start, q.Moves, q.Ply)
	if mr, ok := h.s.reviews.get(key); ok {
		return mr, nil
	}
	mr, err := h.s.pool.Review(ctx, q.Rules, q.History, q.Move, ai.ReviewLimits{MoveTime: h.s.cfg.ReviewTime, Endgames: h.s.endgames.table()})
	if err == nil {
		h.s.reviews.put(key, mr)
	}
	return mr, err
}

// seated is a live game as the caller of request r sees it: the seats
// its secret holds.
type seated struct {
	s *Server
	g *liveGame
	r *http.Request
}

func (c seated) Match() *match.Match                              { return c.g.m }
func (c seated) Held() []rules.Player                             { return c.g.seatsOf(c.r) }
func (c seated) Authorize() error                                 { return c.g.authorize(c.r) }
func (c seated) Player(context.Context) (rules.Player, error)     { return c.s.player(c.r, c.g) }
func (c seated) Resync()                                          { c.s.resync(c.g.m.ID()) }
func (c seated) Rematch(ctx context.Context) (match.State, error) { return c.s.rematch(ctx, c.g) }

// Claim gives the free seat of an online game to the caller: a new
// secret for it. Of several callers racing for the seat (through this
// server or another), one gets it; the others, api.ErrSeatTaken.
func (c seated) Claim(ctx context.Context) (rules.Player, string, error) {
	s, g := c.s, c.g
	free := -1
	for p, h := range g.hashes() {
		if h == nil {
			free = p
			break
		}
	}
	if free < 0 {
		return 0, "", errSeatsTaken
	}
	accountID, err := c.seatAccount(ctx)
	if err != nil {
		return 0, "", err
	}
	secret := newSecret()
	hash := hashSecret(secret)
	if err := s.store.ClaimSeat(ctx, g.m.ID(), free, hash); err != nil {
		if errors.Is(err, store.ErrConflict) {
			s.reloadSeats(g)
			return 0, "", errSeatsTaken
		}
		return 0, "", err
	}
	g.setSeat(free, hash)
	if accountID != "" {
		// The seat is taken: if its account is not recorded, the game
		// stays playable, and ends unrated (endRated).
		if err := s.store.SeatAccount(ctx, g.m.ID(), free, accountID); err != nil {
			s.log.Error("recording a seat's account", "id", g.m.ID(), "seat", free, "err", err)
		}
	}
	s.log.Info("seat joined", "id", g.m.ID(), "seat", free)
	s.presenceChanged(g) // tells the watchers and the creator
	if t := g.taken(); t[0] && t[1] {
		// Both seats are taken: a clock's first-move limit starts. If
		// this fails the seat is given all the same, and the limit
		// starts when the game is next loaded.
		if err := g.m.StartClock(); err != nil {
			s.log.Error("starting a clock", "id", g.m.ID(), "err", err)
		}
	}
	return rules.Player(free), secret, nil
}

// errSeatsTaken refuses a join when no seat is free.
var errSeatsTaken = api.Fail(api.ErrSeatTaken, "both seats of this game are taken: you may watch it")

// rematch makes the game that follows g, agreed by both players: the same
// rules, the same seats (the players' secrets act in it too), the other
// player first. Both players' pages and the watchers follow its id.
func (s *Server) rematch(ctx context.Context, g *liveGame) (match.State, error) {
	cfg := g.m.Config()
	next := match.Config{ // a rematch is casual: rated games are paired anew
		Mode:    match.Online,
		Rules:   cfg.Rules,
		Seed:    newSeed(),
		Created: time.Now(),
		Clock:   cfg.Clock, // rematches keep the clock
	}
	next.Rules.First = cfg.Rules.First.Other()
	start := next.Rules.Start() // a game set up from a position starts anew from the usual one
	next.Start = &start
	// The same players: their accounts too, if the saved game has them.
	var accounts [2]string
	if saved, err := s.store.Get(ctx, g.m.ID()); err == nil {
		accounts = saved.Accounts
	}
	m, err := s.newMatch(ctx, "", next, g.hashes(), accounts)
	if err != nil {
		return match.State{}, fmt.Errorf("making the rematch: %w", err)
	}
	s.log.Info("rematch", "id", g.m.ID(), "next", m.ID())
	return g.m.SetNext(m.ID())
}
