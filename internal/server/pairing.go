package server

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/match"
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
	p, err := h.s.pair(ctx, k)
	if err != nil || p.m == nil {
		// Not paired; or paired by another request, on this server or
		// another, which may not have made the game yet: the ticket
		// says it once held (lobby socket), or GET /api/seeks/{id}.
		return t, err
	}
	st := p.m.State()
	game := wire.GameOf(&st)
	t.Game, t.Seat = &game, &p.seat
	return t, nil
}

// paired is what pairing a ticket came to: the game it is paired in
// ("" for none) and its poster's seat, and the game's match if this
// request made it (nil if another request paired it meanwhile: that
// request may still be making the game).
type paired struct {
	game string
	seat int
	m    *match.Match
}

// pair pairs ticket k with the waiting ticket nearest in rating that it
// may be paired with, if any, and makes their game.
func (s *Server) pair(ctx context.Context, k store.Seek) (paired, error) {
	now := time.Now()
	open, err := s.store.OpenSeeks(ctx, now)
	if err != nil {
		return paired{}, err
	}
	blocked, err := s.blockedWith(ctx, k.Account)
	if err != nil {
		return paired{}, err
	}
	return s.pairFrom(ctx, k, open, blocked, now, nil)
}

// pairFrom pairs ticket k with the ticket of open nearest in rating that
// it may be paired with at now, leaving out those blocked (by account)
// and those of taken, as pair does. Taken, if not nil, gains the tickets
// found paired: k and its partner, or a partner paired meanwhile.
func (s *Server) pairFrom(ctx context.Context, k store.Seek, open []store.Seek, blocked map[string]bool, now time.Time, taken map[string]bool) (paired, error) {
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
		err := s.store.PairSeeks(ctx, k.ID, o.ID, id, seat, now, now.Add(seekKeep))
		if errors.Is(err, store.ErrConflict) {
			// o was paired meanwhile, or k was: if k, say so.
			if saved, err := s.store.Seek(ctx, k.ID); err == nil && saved.Game != "" {
				mark(taken, k.ID)
				return paired{game: saved.Game, seat: saved.Seat}, nil
			}
			mark(taken, o.ID)
			continue
		}
		if err != nil {
			return paired{}, err
		}
		mark(taken, k.ID, o.ID)
		p := pairing{game: id, first: k, seeks: []seekSeat{{k.ID, seat}, {o.ID, 1 - seat}}}
		p.seats[seat], p.seats[1-seat] = k.Key, o.Key
		p.accounts[seat], p.accounts[1-seat] = k.Account, o.Account
		m, err := s.pairedGame(ctx, p)
		if err != nil {
			return paired{}, err
		}
		return paired{game: id, seat: seat, m: m}, nil
	}
	return paired{}, nil
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

// pairing is what the store has just paired into game: a seek accepted
// (its poster and the acceptor) or two tickets of quick pairing (next, a
// tournament's pairing). The game takes first's time control; seats
// and accounts are by seat (the secrets' hashes, the accounts, "" for
// none); seeks are the seeks paired, each with its poster's seat, first
// the first.
type pairing struct {
	game     string
	first    store.Seek
	seats    [2][]byte
	accounts [2]string
	seeks    []seekSeat
}

// pairedGame makes the game of p and returns it: the one place a
// pairing becomes a game. It is rated if first is and both seats have
// accounts; first's poster is its Human. The seeks' sockets are told
// (gameMade). If the game cannot be made, the seeks go, and their
// posters learn they are gone.
func (s *Server) pairedGame(ctx context.Context, p pairing) (*match.Match, error) {
	k := p.first
	settings := api.Settings{Mode: "online", Clock: &api.ClockSetting{Initial: k.Initial, Increment: k.Increment, Days: k.Days},
		Rated: k.Rated && p.accounts[0] != "" && p.accounts[1] != ""}
	cfg, err := settings.Config()
	if err == nil {
		cfg.Human = rules.Player(p.seeks[0].seat)
		cfg.Seed, cfg.Created = newSeed(), time.Now()
		var m *match.Match
		if m, err = s.newMatch(ctx, p.game, cfg, p.seats, p.accounts); err == nil {
			s.logPaired(p, cfg.Rated)
			s.gameMade(ctx, p.game, p.seeks...)
			return m, nil
		}
	}
	// The seeks name a game that was not made: they go.
	what := "deleting a seek whose game failed"
	if k.Pool {
		what = "deleting a ticket whose game failed"
	}
	for _, t := range p.seeks {
		if derr := s.store.DeleteSeek(context.WithoutCancel(ctx), t.seek); derr != nil {
			s.log.Error(what, "seek", t.seek, "err", derr)
		}
	}
	s.lobbyChanged("")
	return nil, err
}

// logPaired logs the game of p made.
func (s *Server) logPaired(p pairing, rated bool) {
	if !p.first.Pool {
		s.log.Info("seek accepted", "seek", p.first.ID, "id", p.game, "rated", rated)
		return
	}
	ids := make([]string, len(p.seeks))
	for i, t := range p.seeks {
		ids[i] = t.seek
	}
	s.log.Info("paired", "id", p.game, "seeks", strings.Join(ids, " "), "rated", rated)
}

// pairHeld tries again to pair the waiting tickets held by this
// server's lobby sockets, of open (the open seeks): from that one read
// of the seeks, and the blocks of all their players in one more, not a
// read of each a ticket.
func (l *lobbyHub) pairHeld(open []store.Seek) {
	ks := l.s.store
	held := l.heldTickets(open)
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
		_, err := l.s.pairFrom(pctx, k, open, blocks[k.Account], now, taken)
		pcancel()
		if err != nil {
			l.s.log.Warn("pairing", "seek", k.ID, "err", err)
			return
		}
	}
}

// heldTickets returns the tickets of open that sockets here hold.
func (l *lobbyHub) heldTickets(open []store.Seek) []store.Seek {
	l.mu.Lock()
	defer l.mu.Unlock()
	var held []store.Seek
	for _, k := range open {
		if k.Pool && len(l.holders[k.ID]) > 0 {
			held = append(held, k)
		}
	}
	return held
}
