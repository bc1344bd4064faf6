package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net/http"
	"time"

	"oanquan/internal/match"
	"oanquan/internal/store"
	"oanquan/internal/wire"
	"oanquan/rules"
)

// The endpoints of games between two players online (docs/API.md,
// "Playing a friend online"): joining, and the players' offers.

// seatChoice is a seat in a request: 0, 1 or "random".
type seatChoice struct {
	set    bool
	random bool
	seat   int
}

// UnmarshalJSON takes 0, 1 or "random".
func (c *seatChoice) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		if s != "random" {
			return fail(errBadRequest, "first: want 0, 1 or \"random\", not %s", short(s))
		}
		c.set, c.random = true, true
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil || n != 0 && n != 1 {
		return fail(errBadRequest, "first: want 0, 1 or \"random\"")
	}
	c.set, c.seat = true, n
	return nil
}

// pick returns the seat chosen, drawing one if it is "random".
func (c seatChoice) pick() *int {
	if !c.set {
		return nil
	}
	n := c.seat
	if c.random {
		n = mrand.IntN(2)
	}
	return &n
}

// join gives the free seat of an online game to the caller: a new secret
// for it. A caller who holds a seat already gets it back (no new secret).
// Of several callers racing for the seat, one gets it; the others, 409.
func (s *Server) join(w http.ResponseWriter, r *http.Request) error {
	if err := s.limits.allow(r, "join", s.limits.cfg.Creates); err != nil {
		return err
	}
	g, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	var q struct{}
	if err := decode(w, r, &q, true); err != nil {
		return err
	}
	st := g.m.State()
	if st.Mode != match.Online {
		return fail(errConflictSeat, "this game has no seat to join: it is not a game between players online")
	}
	if held := g.seatsOf(r); len(held) > 0 {
		writeJSON(w, http.StatusOK, joinedJSON{Game: wire.GameOf(&st), Seat: int(held[0])})
		return nil
	}
	free := -1
	for p, h := range g.hashes() {
		if h == nil {
			free = p
			break
		}
	}
	if free < 0 {
		return fail(errConflictSeat, "both seats of this game are taken: you may watch it")
	}
	secret := newSecret()
	hash := hashSecret(secret)
	if err := s.store.ClaimSeat(r.Context(), g.m.ID(), free, hash); err != nil {
		if errors.Is(err, store.ErrConflict) {
			s.reloadSeats(g)
			return fail(errConflictSeat, "both seats of this game are taken: you may watch it")
		}
		return err
	}
	g.setSeat(free, hash)
	s.log.Info("seat joined", "id", g.m.ID(), "seat", free)
	s.presenceChanged(g) // tells the watchers and the creator
	st = g.m.State()
	writeJSON(w, http.StatusOK, joinedJSON{Game: wire.GameOf(&st), Seat: free, Secret: secret})
	return nil
}

// joinedJSON answers a join.
type joinedJSON struct {
	Game   wire.Game `json:"game"`
	Seat   int       `json:"seat"`
	Secret string    `json:"secret,omitempty"` // only when the seat is new
}

// errConflictSeat refuses a join: no seat is free.
var errConflictSeat = errors.New("seat taken")

// reloadSeats reads g's seats again from the store: another server may
// have given one.
func (s *Server) reloadSeats(g *liveGame) {
	ctx, cancel := context.WithTimeout(s.ctx, saveTimeout)
	defer cancel()
	saved, err := s.store.Get(ctx, g.m.ID())
	if err != nil {
		return
	}
	for p, h := range saved.Seats {
		if h != nil {
			g.setSeat(p, h)
		}
	}
	s.presenceChanged(g)
}

// player returns the seat r acts for in an online game g.
func (s *Server) player(r *http.Request, g *liveGame) (rules.Player, error) {
	held := g.seatsOf(r)
	if len(held) == 0 {
		// Another server may have given the seat since this one read it.
		s.reloadSeats(g)
		if held = g.seatsOf(r); len(held) == 0 {
			return 0, g.authorize(r)
		}
	}
	return held[0], nil
}

// playerRequest reads a request of an online game's player: the game, the
// seat the request's secret acts for, and the body into q (which may be
// empty when emptyOK).
func (s *Server) playerRequest(w http.ResponseWriter, r *http.Request, q any, emptyOK bool) (*liveGame, rules.Player, error) {
	g, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return nil, 0, err
	}
	p, err := s.player(r, g)
	if err != nil {
		return nil, 0, err
	}
	return g, p, decode(w, r, q, emptyOK)
}

// onlineAction handles POST /api/games/{id}/resign and /abort.
func (s *Server) onlineAction(act func(m *match.Match, p rules.Player) (match.State, error)) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		var q struct{}
		g, p, err := s.playerRequest(w, r, &q, true)
		if err != nil {
			return err
		}
		st, err := act(g.m, p)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, wire.GameOf(&st))
		return nil
	}
}

type offerRequest struct {
	Action *string `json:"action"`
}

// offer handles POST /api/games/{id}/draw, /takeback and /rematch:
// {"action": "offer" | "accept" | "decline"}.
func (s *Server) offer(kind string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		var q offerRequest
		g, p, err := s.playerRequest(w, r, &q, false)
		if err != nil {
			return err
		}
		if q.Action == nil {
			return fail(errBadRequest, `missing "action": want offer, accept or decline`)
		}
		var st match.State
		var accepted bool
		switch *q.Action {
		case "offer":
			st, accepted, err = g.m.Offer(kind, p)
		case "accept", "decline":
			st, accepted, err = g.m.Answer(kind, p, *q.Action == "accept")
		default:
			return fail(errBadRequest, "action: unknown %s, want offer, accept or decline", short(*q.Action))
		}
		if err != nil {
			return err
		}
		if accepted && kind == match.OfferRematch {
			if st, err = s.rematch(r.Context(), g); err != nil {
				return err
			}
		}
		writeJSON(w, http.StatusOK, wire.GameOf(&st))
		return nil
	}
}

// rematch makes the game that follows g, agreed by both players: the same
// rules, the same seats (the players' secrets act in it too), the other
// player first. Both players' pages and the watchers follow its id.
func (s *Server) rematch(ctx context.Context, g *liveGame) (match.State, error) {
	cfg := g.m.Config()
	next := match.Config{
		Mode:    match.Online,
		Rules:   cfg.Rules,
		Seed:    newSeed(),
		Created: time.Now(),
	}
	next.Rules.First = cfg.Rules.First.Other()
	start := next.Rules.Start() // a game set up from a position starts anew from the usual one
	next.Start = &start
	seats := g.hashes()
	m, err := s.newMatchSeats(ctx, next, seats)
	if err != nil {
		return match.State{}, fmt.Errorf("making the rematch: %w", err)
	}
	s.log.Info("rematch", "id", g.m.ID(), "next", m.ID())
	return g.m.SetNext(m.ID())
}
