package lobby

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/ids"
	"oanquan/internal/match"
	"oanquan/internal/store"
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
		string(a.Key) == string(b.Key) || SamePoster(a, b.Account, b.Poster) {
		return false
	}
	older := a.Created
	if b.Created.Before(older) {
		older = b.Created
	}
	reach := pairReach(now.Sub(older))
	return math.Abs(a.Rating-b.Rating) <= reach
}

// Paired is what pairing a ticket came to: the game it is paired in
// ("" for none) and its poster's seat, and the game's match if this
// request made it (nil if another request paired it meanwhile: that
// request may still be making the game).
type Paired struct {
	Game  string
	Seat  int
	Match *match.Match
}

// Pair pairs ticket k with the waiting ticket nearest in rating that it
// may be paired with, if any, and makes their game: from one read of
// the open seeks, made after k was saved (so that of two tickets posted
// at once, at least one finds the other).
func (l *Lobby) Pair(ctx context.Context, k store.Seek) (Paired, error) {
	now := time.Now()
	open, err := l.store.OpenSeeks(ctx, now)
	if err != nil {
		return Paired{}, err
	}
	var blocked map[string]bool
	if k.Account != "" {
		if blocked, err = l.store.BlockedWith(ctx, k.Account); err != nil {
			return Paired{}, err
		}
	}
	return l.pairFrom(ctx, k, open, blocked, now, nil)
}

// pairFrom pairs ticket k with the ticket of open nearest in rating that
// it may be paired with at now, leaving out those blocked (by account)
// and those of taken, as pair does. Taken, if not nil, gains the tickets
// found paired: k and its partner, or a partner paired meanwhile.
func (l *Lobby) pairFrom(ctx context.Context, k store.Seek, open []store.Seek, blocked map[string]bool, now time.Time, taken map[string]bool) (Paired, error) {
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
		seat, id := rand.IntN(2), ids.New()
		err := l.store.PairSeeks(ctx, k.ID, o.ID, id, seat, now, now.Add(SeekKeep))
		if errors.Is(err, store.ErrConflict) {
			// o was paired meanwhile, or k was: if k, say so.
			if saved, err := l.store.Seek(ctx, k.ID); err == nil && saved.Game != "" {
				mark(taken, k.ID)
				return Paired{Game: saved.Game, Seat: saved.Seat}, nil
			}
			mark(taken, o.ID)
			continue
		}
		if err != nil {
			return Paired{}, err
		}
		mark(taken, k.ID, o.ID)
		p := Pairing{Game: id, First: k, Seeks: []SeekSeat{{k.ID, seat}, {o.ID, 1 - seat}}}
		p.Seats[seat], p.Seats[1-seat] = k.Key, o.Key
		p.Accounts[seat], p.Accounts[1-seat] = k.Account, o.Account
		m, err := l.PairedGame(ctx, p)
		if err != nil {
			return Paired{}, err
		}
		return Paired{Game: id, Seat: seat, Match: m}, nil
	}
	return Paired{}, nil
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

// Pairing is what the store has just paired into Game: a seek accepted
// (its poster and the acceptor) or two tickets of quick pairing (next, a
// tournament's pairing). The game takes First's time control; Seats and
// Accounts are by seat (the secrets' hashes, the accounts, "" for
// none); Seeks are the seeks paired, each with its poster's seat, First
// the first.
type Pairing struct {
	Game     string
	First    store.Seek
	Seats    [2][]byte
	Accounts [2]string
	Seeks    []SeekSeat
}

// SeekSeat is a seek (or ticket) of a game made, and its poster's seat.
type SeekSeat struct {
	Seek string
	Seat int
}

// PairedGame makes the game of p and returns it: the one place a
// pairing becomes a game. It is rated if First is and both seats have
// accounts; First's poster is its Human. The seeks' sockets are told
// (GameMade). If the game cannot be made, the seeks go, and their
// posters learn they are gone.
func (l *Lobby) PairedGame(ctx context.Context, p Pairing) (*match.Match, error) {
	k := p.First
	settings := api.Settings{Mode: "online", Clock: &api.ClockSetting{Initial: k.Initial, Increment: k.Increment, Days: k.Days},
		Rated: k.Rated && p.Accounts[0] != "" && p.Accounts[1] != ""}
	cfg, err := settings.Config()
	if err == nil {
		cfg.Human = rules.Player(p.Seeks[0].Seat)
		cfg.Seed, cfg.Created = rand.Uint64(), time.Now()
		var m *match.Match
		if m, err = l.games.NewMatch(ctx, p.Game, cfg, p.Seats, p.Accounts); err == nil {
			l.logPaired(p, cfg.Rated)
			l.GameMade(ctx, p.Game, p.Seeks...)
			return m, nil
		}
	}
	// The seeks name a game that was not made: they go.
	what := "deleting a seek whose game failed"
	if k.Pool {
		what = "deleting a ticket whose game failed"
	}
	for _, t := range p.Seeks {
		if derr := l.store.DeleteSeek(context.WithoutCancel(ctx), t.Seek); derr != nil {
			l.log.Error(what, "seek", t.Seek, "err", derr)
		}
	}
	l.Changed()
	return nil, err
}

// logPaired logs the game of p made.
func (l *Lobby) logPaired(p Pairing, rated bool) {
	if !p.First.Pool {
		l.log.Info("seek accepted", "seek", p.First.ID, "id", p.Game, "rated", rated)
		return
	}
	ids := make([]string, len(p.Seeks))
	for i, t := range p.Seeks {
		ids[i] = t.Seek
	}
	l.log.Info("paired", "id", p.Game, "seeks", strings.Join(ids, " "), "rated", rated)
}

// GameMade tells the sockets holding the seeks (or tickets) of game,
// now made, that they are paired: this server's at once, each socket
// its seat, whatever the lobby's lists are doing; every other server's
// through the store's notice of each seek (Heard). Other servers heard
// of the seeks' acceptance from the store before the game existed; they
// hear of it again.
func (l *Lobby) GameMade(ctx context.Context, game string, seats ...SeekSeat) {
	for _, k := range seats {
		l.tellPaired(k.Seek, game, k.Seat)
	}
	if n, ok := l.store.(store.LobbyNotifier); ok {
		for _, k := range seats {
			if err := n.NotifyLobby(context.WithoutCancel(ctx), k.Seek); err != nil {
				l.log.Warn("announcing a seek's game", "seek", k.Seek, "err", err)
			}
		}
	}
	l.Changed()
}

// PairHeld tries again to pair the waiting tickets held by this
// server's lobby sockets, of open (the open seeks): from that one read
// of the seeks, and the blocks of all their players in one more, not a
// read of each a ticket.
func (l *Lobby) PairHeld(open []store.Seek) {
	ks := l.store
	held := l.heldTickets(open)
	if len(held) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
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
			l.log.Warn("pairing: reading blocks", "err", err)
			return
		}
	}
	now := time.Now()
	taken := map[string]bool{} // paired in this round, or found paired
	for _, k := range held {
		if taken[k.ID] {
			continue
		}
		pctx, pcancel := context.WithTimeout(l.ctx, storeTimeout)
		_, err := l.pairFrom(pctx, k, open, blocks[k.Account], now, taken)
		pcancel()
		if err != nil {
			l.log.Warn("pairing", "seek", k.ID, "err", err)
			return
		}
	}
}

// heldTickets returns the tickets of open that sockets here hold.
func (l *Lobby) heldTickets(open []store.Seek) []store.Seek {
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
