package server

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/store"
	"oanquan/internal/wire"
	"oanquan/rules"
)

// Quick pairing (issue 21): a player joins the pool of a time control
// (POST /api/pairing) with a ticket, a seek of the pool's (store.Seek
// with Pool) that the lobby does not list. It is paired at once with the
// waiting ticket of the nearest rating within reach, or waits: its
// poster's lobby socket holds it, and this server tries to pair it again
// every pairEvery as its reach widens (pairReach). Two tickets are
// paired in one transaction of the store (Seeks.PairSeeks), so that a
// ticket is paired once, whichever servers try at once.

// pairEvery is how often the waiting tickets held here are tried again.
const pairEvery = time.Second

// pairReach is how far from its rating a ticket that has waited for
// wait may be paired: 100 points, and 50 more every 5 s.
func pairReach(wait time.Duration) float64 {
	return 100 + 50*math.Floor(max(wait, 0).Seconds()/5)
}

// pairable reports whether tickets a and b may be paired at now: the same
// time control, rated alike, not the same player (by account or poster
// key), and their ratings
// within the reach of the one that has waited longer.
func pairable(a, b store.Seek, now time.Time) bool {
	if a.ID == b.ID || !a.Pool || !b.Pool || a.Game != "" || b.Game != "" ||
		a.Initial != b.Initial || a.Increment != b.Increment || a.Days != b.Days || a.Rated != b.Rated ||
		string(a.Key) == string(b.Key) || samePoster(a, b.Account, b.Poster) {
		return false
	}
	older := a.Created
	if b.Created.Before(older) {
		older = b.Created
	}
	reach := pairReach(now.Sub(older))
	return math.Abs(a.Rating-b.Rating) <= reach
}

// JoinPool puts the caller's ticket in the pool of q's time control and
// pairs it at once if it can.
func (h host) JoinPool(ctx context.Context, q api.SeekRequest) (api.Ticket, error) {
	// A caller who sends the secret of its ticket waiting in this pool
	// gets it back: a second click never makes a second ticket, which
	// could be paired with the first.
	if b := bearer(h.r); b != "" {
		open, err := h.s.store.OpenSeeks(ctx, time.Now())
		if err != nil {
			return api.Ticket{}, err
		}
		for _, k := range open {
			if k.Pool && h.posted(k) && k.Initial == q.Clock.Initial && k.Increment == q.Clock.Increment && k.Days == q.Clock.Days && k.Rated == q.Rated {
				return api.Ticket{ID: k.ID, Secret: b, Speed: k.Speed}, nil
			}
		}
	}
	k, secret, err := h.newSeek(ctx, q, true)
	if err != nil {
		return api.Ticket{}, err
	}
	t := api.Ticket{ID: k.ID, Secret: secret, Speed: k.Speed}
	id, seat, made, err := h.s.pair(ctx, k)
	if err != nil || id == "" || !made {
		// Not paired; or paired by another request, on this server or
		// another, which may not have made the game yet: the ticket
		// says it once held (lobby socket), or GET /api/seeks/{id}.
		return t, err
	}
	g, err := h.s.gameFor(ctx, h.r, id)
	if err != nil {
		return t, err
	}
	st := g.m.State()
	game := wire.GameOf(&st)
	t.Game, t.Seat = &game, &seat
	return t, nil
}

// pair pairs ticket k with the waiting ticket nearest in rating that it
// may be paired with, if any: it makes their game and returns its id and
// k's seat ("" for no pairing), and made true. If another request
// paired k meanwhile, it returns that game's id and k's seat with made
// false: that request may still be making the game.
func (s *Server) pair(ctx context.Context, k store.Seek) (id string, seat int, made bool, err error) {
	ks := s.store
	now := time.Now()
	open, err := ks.OpenSeeks(ctx, now)
	if err != nil {
		return "", 0, false, err
	}
	blocked, err := s.blockedWith(ctx, k.Account)
	if err != nil {
		return "", 0, false, err
	}
	return s.pairFrom(ctx, ks, k, open, blocked, now, nil)
}

// pairFrom pairs ticket k with the ticket of open nearest in rating that
// it may be paired with at now, leaving out those blocked (by account)
// and those of taken, as pair does. Taken, if not nil, gains the tickets
// found paired: k and its partner, or a partner paired meanwhile.
func (s *Server) pairFrom(ctx context.Context, ks store.Seeks, k store.Seek, open []store.Seek, blocked map[string]bool, now time.Time,
	taken map[string]bool) (id string, seat int, made bool, err error) {
	var cands []store.Seek
	for _, o := range open {
		if pairable(k, o, now) && !blocked[o.Account] && !taken[o.ID] {
			cands = append(cands, o)
		}
	}
	slices.SortStableFunc(cands, func(a, b store.Seek) int { // nearest first; open is oldest first
		da, db := math.Abs(a.Rating-k.Rating), math.Abs(b.Rating-k.Rating)
		switch {
		case da < db:
			return -1
		case da > db:
			return 1
		}
		return 0
	})
	for _, o := range cands {
		seat, id := rand.IntN(2), newID()
		err := ks.PairSeeks(ctx, k.ID, o.ID, id, seat, now, now.Add(seekKeep))
		if errors.Is(err, store.ErrConflict) {
			// o was paired meanwhile, or k was: if k, say so.
			if saved, err := ks.Seek(ctx, k.ID); err == nil && saved.Game != "" {
				mark(taken, k.ID)
				return saved.Game, saved.Seat, false, nil
			}
			mark(taken, o.ID)
			continue
		}
		if err != nil {
			return "", 0, false, err
		}
		mark(taken, k.ID, o.ID)
		if err := s.pairGame(ctx, id, k, o, seat); err != nil {
			return "", 0, false, err
		}
		return id, seat, true, nil
	}
	return "", 0, false, nil
}

// mark adds ids to set, if set is not nil.
func mark(set map[string]bool, ids ...string) {
	if set == nil {
		return
	}
	for _, id := range ids {
		set[id] = true
	}
}

// pairGame makes the game of tickets a and b, just paired: a's poster in
// seat seatA.
func (s *Server) pairGame(ctx context.Context, id string, a, b store.Seek, seatA int) error {
	settings := api.Settings{Mode: "online", Clock: &api.ClockSetting{Initial: a.Initial, Increment: a.Increment, Days: a.Days},
		Rated: a.Rated && a.Account != "" && b.Account != ""}
	cfg, err := settings.Config()
	if err != nil {
		return err
	}
	cfg.Human = rules.Player(seatA)
	cfg.Seed, cfg.Created = newSeed(), time.Now()
	var seats [2][]byte
	var accounts [2]string
	seats[seatA], seats[1-seatA] = a.Key, b.Key
	accounts[seatA], accounts[1-seatA] = a.Account, b.Account
	if _, err := s.newMatchID(ctx, id, cfg, seats, accounts); err != nil {
		ks := s.store
		for _, t := range []string{a.ID, b.ID} {
			if derr := ks.DeleteSeek(context.WithoutCancel(ctx), t); derr != nil {
				s.log.Error("deleting a ticket whose game failed", "seek", t, "err", derr)
			}
		}
		s.lobbyChanged("")
		return err
	}
	s.log.Info("paired", "id", id, "seeks", a.ID+" "+b.ID, "rated", cfg.Rated)
	s.gameMade(ctx, id, seekSeat{a.ID, seatA}, seekSeat{b.ID, 1 - seatA})
	return nil
}

// pairHeld tries again to pair the waiting tickets held by this
// server's lobby sockets, of open (the open seeks): from that one read
// of the seeks, and the blocks of all their players in one more, not a
// read of each a ticket.
func (l *lobbyHub) pairHeld(open []store.Seek) {
	ks := l.s.store
	l.mu.Lock()
	var held []store.Seek
	for _, k := range open {
		if k.Pool && len(l.holders[k.ID]) > 0 {
			held = append(held, k)
		}
	}
	l.mu.Unlock()
	if len(held) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(l.s.ctx, storeTimeout)
	defer cancel()
	var blocks map[string]map[string]bool // by account: blocked either way
	var accounts []string
	for _, k := range held {
		if k.Account != "" {
			accounts = append(accounts, k.Account)
		}
	}
	if len(accounts) > 0 {
		var err error
		if blocks, err = ks.BlockedAmong(ctx, accounts); err != nil {
			l.s.log.Warn("pairing: reading blocks", "err", err)
			return
		}
	}
	now := time.Now()
	taken := map[string]bool{} // paired in this round, or found paired
	for _, k := range held {
		if taken[k.ID] {
			continue
		}
		pctx, pcancel := context.WithTimeout(l.s.ctx, storeTimeout)
		_, _, _, err := l.s.pairFrom(pctx, ks, k, open, blocks[k.Account], now, taken)
		pcancel()
		if err != nil {
			l.s.log.Warn("pairing", "seek", k.ID, "err", err)
			return
		}
	}
}
