package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"math/rand/v2"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/limits"
	"oanquan/internal/lobby"
	"oanquan/internal/rating"
	"oanquan/internal/store"
	"oanquan/internal/wire"
	"oanquan/timecontrol"
)

// The lobby (issue 21, docs/API.md "Lobby"): seeks that anyone may
// accept, kept in the store (store.Seeks) so that every server sharing
// it shows the same lobby. A seek's poster holds a secret, given when it
// posts: it cancels the seek, and acts for the poster's seat in the game
// the seek makes. Accepting is one conditional write in the store, so
// that of many accepting at once exactly one gets the game.

// The lobby's bounds.
const (
	// seekTTL is how long an open seek stays, at most.
	seekTTL = lobby.SeekTTL
	// maxOpenSeeks is how many open seeks one address (an IPv6 /64) may
	// have at once; maxOpenSeeksWide how many one IPv6 /48 may have,
	// over all its /64s.
	maxOpenSeeks     = 5
	maxOpenSeeksWide = 20
)

// caller returns the caller's account ("" for none), refusing a caller
// with no session when need.
func (h host) caller(ctx context.Context, need bool) (string, error) {
	_, a, err := h.session(ctx)
	switch {
	case err == nil:
		return a.ID, nil
	case need:
		return "", err
	case errors.Is(err, api.ErrSignedOut):
		return "", nil
	}
	return "", err
}

// posted reports whether the caller sends the secret of seek k.
func (h host) posted(k store.Seek) bool {
	b := bearer(h.r)
	return b != "" && subtle.ConstantTimeCompare(hashSecret(b), k.Key) == 1
}

// ratingIn returns account's rating in speed as it stands now: a new
// player's for none (or no account).
func (s *Server) ratingIn(ctx context.Context, account, speed string) (rating.Rating, error) {
	if account == "" {
		return rating.New(), nil
	}
	rs, err := s.store.Ratings(ctx, account)
	if err != nil {
		return rating.Rating{}, err
	}
	r, ok := rs[speed]
	if !ok {
		return rating.New(), nil
	}
	return rating.System{}.AsOf(r, time.Now()), nil
}

// seekView returns k as the lobby shows it.
func (s *Server) seekView(ctx context.Context, k store.Seek) (api.SeekView, error) {
	ps, err := s.lobby.Posters(ctx, []store.Seek{k})
	if err != nil {
		return api.SeekView{}, err
	}
	return lobby.View(k, ps), nil
}

// PostSeek saves a new seek of the caller's.
func (h host) PostSeek(ctx context.Context, q api.SeekRequest) (api.SeekPosted, error) {
	k, secret, err := h.newSeek(ctx, q, false)
	if err != nil {
		return api.SeekPosted{}, err
	}
	v, err := h.s.seekView(ctx, k)
	if err != nil {
		return api.SeekPosted{}, err
	}
	return api.SeekPosted{SeekView: v, Secret: secret}, nil
}

// newSeek saves a new seek of the caller's (pool: a ticket of quick
// pairing), within the address's limits, and returns it and its secret.
func (h host) newSeek(ctx context.Context, q api.SeekRequest, pool bool) (store.Seek, string, error) {
	ks := h.s.store
	acct, err := h.caller(ctx, q.Rated)
	if err != nil {
		return store.Seek{}, "", err
	}
	now := time.Now()
	addr := h.s.limits.Client(h.r)
	// Counted first so that a full address spends none of its rate;
	// counted again, with the save, at the end.
	n, err := ks.CountSeeks(ctx, addr, now)
	if err != nil {
		return store.Seek{}, "", err
	}
	if n >= maxOpenSeeks {
		return store.Seek{}, "", tooManyOpen(n)
	}
	// Over every server sharing the store, as the open ones are.
	if err := h.s.limits.AllowShared(ctx, h.r, "seek", h.s.limits.Config().Seeks); err != nil {
		return store.Seek{}, "", err
	}
	secret := newSecret()
	tc := timecontrol.Seconds(q.Clock.Initial, q.Clock.Increment, q.Clock.Days)
	k := store.Seek{Account: acct, Key: hashSecret(secret), Address: addr, Wide: limits.Wide(addr), Initial: q.Clock.Initial, Increment: q.Clock.Increment,
		Days: q.Clock.Days, Rated: q.Rated, Speed: speedOf(tc).String(), Created: now, Expires: now.Add(seekTTL), Pool: pool,
		Poster: h.s.ensurePosterKey(h.w, h.r)}
	if q.Range != nil {
		k.Min, k.Max = q.Range[0], q.Range[1]
	}
	if pool {
		r, err := h.s.ratingIn(ctx, acct, k.Speed)
		if err != nil {
			return store.Seek{}, "", err
		}
		k.Rating = r.Rating
	}
	for tries := 0; ; tries++ {
		k.ID = newID()
		n, err := ks.CreateSeekWithin(ctx, k, store.Bounds{Address: maxOpenSeeks, Wide: maxOpenSeeksWide, All: h.s.limits.Config().OpenSeeks})
		if err == nil {
			break
		}
		switch {
		case errors.Is(err, store.ErrSeekLimit): // others posted at once
			return store.Seek{}, "", tooManyOpen(n)
		case errors.Is(err, store.ErrWideLimit):
			return store.Seek{}, "", tooManyOpenWide(n)
		case errors.Is(err, store.ErrLobbyFull):
			h.s.log.Warn("the lobby is full", "open", n)
			return store.Seek{}, "", lobbyFull(n)
		case !errors.Is(err, store.ErrExists) || tries == 5:
			return store.Seek{}, "", err
		}
	}
	h.s.log.Info("seek posted", "seek", k.ID, "speed", k.Speed, "rated", k.Rated, "pool", pool)
	h.s.lobbyChanged(k.ID)
	return k, secret, nil
}

// tooManyOpen refuses a seek of an address with n seeks open, the most
// it may have.
func tooManyOpen(n int) error {
	return &limits.RetryError{Limit: "open seeks", Retry: time.Minute,
		Err: api.Fail(api.ErrRate, "your address has %d seeks open, the most it may: wait for one to be accepted or cancel one", n)}
}

// tooManyOpenWide refuses a seek of an address whose network (an IPv6
// /48) has n seeks open, the most it may.
func tooManyOpenWide(n int) error {
	return &limits.RetryError{Limit: "open seeks", Retry: time.Minute,
		Err: api.Fail(api.ErrRate, "your network has %d seeks open, the most it may: wait for one to be accepted or cancel one", n)}
}

// lobbyFull refuses a seek when the store holds n open seeks and
// tickets, the most it may.
func lobbyFull(n int) error {
	return &limits.RetryError{Limit: "lobby", Retry: time.Minute,
		Err: api.Fail(api.ErrUnavailable, "the lobby is full (%d seeks open): try again in a minute", n)}
}

// OpenSeeks returns the open seeks the caller may accept. Each list
// costs the store a read of every open seek and of its poster: it is
// limited per address as the reads of profiles are.
func (h host) OpenSeeks(ctx context.Context) ([]api.SeekView, error) {
	ks := h.s.store
	if err := h.allowProfile(); err != nil {
		return nil, err
	}
	acct, err := h.caller(ctx, false)
	if err != nil {
		return nil, err
	}
	open, err := ks.OpenSeeks(ctx, time.Now())
	if err != nil {
		return nil, err
	}
	key := h.s.posterKey(h.r)
	return h.s.acceptable(ctx, open, acct, func(k store.Seek) bool { return h.posted(k) || lobby.SamePoster(k, "", key) })
}

// acceptable returns the seeks of open that account (with mine telling
// the caller's own anonymous seeks) may accept, as the lobby shows them:
// the posters and the caller read in one read.
func (s *Server) acceptable(ctx context.Context, open []store.Seek, account string, mine func(store.Seek) bool) ([]api.SeekView, error) {
	out := []api.SeekView{}
	blocked, err := s.blockedWith(ctx, account)
	if err != nil {
		return nil, err
	}
	var shown []store.Seek
	for _, k := range open {
		if k.Pool || (account != "" && k.Account == account) || mine(k) || (k.Rated && account == "") || blocked[k.Account] {
			continue
		}
		shown = append(shown, k)
	}
	ps, err := s.lobby.Posters(ctx, shown, account)
	if err != nil {
		return nil, err
	}
	for _, k := range shown {
		if !lobby.InRange(lobby.RatingAmong(ps, account, k.Speed), k) {
			continue
		}
		out = append(out, lobby.View(k, ps))
	}
	return out, nil
}

// Seek returns seek id; to its poster, the game it made once accepted.
func (h host) Seek(ctx context.Context, id string) (api.SeekView, error) {
	ks := h.s.store
	k, err := h.seekFor(ctx, ks, id)
	if err != nil {
		return api.SeekView{}, err
	}
	mine := h.posted(k)
	if k.Game != "" && !mine {
		return api.SeekView{}, api.Fail(api.ErrNotFound, "no such seek: it was taken")
	}
	if !mine && k.Account != "" {
		// As the list: a blocked pair see nothing of each other's
		// seeks, told as if gone.
		acct, err := h.caller(ctx, false)
		if err != nil {
			return api.SeekView{}, err
		}
		switch blocked, err := h.s.blockedWith(ctx, acct); {
		case err != nil:
			return api.SeekView{}, err
		case blocked[k.Account]:
			return api.SeekView{}, api.Fail(api.ErrNotFound, "no such seek: it was cancelled, taken or expired")
		}
	}
	v, err := h.s.seekView(ctx, k)
	if err != nil || !mine || k.Game == "" {
		return v, err
	}
	// The server that accepted it makes the game just after: until
	// then, the poster hears of no game (and asks again).
	switch _, err := h.s.store.Get(ctx, k.Game); {
	case errors.Is(err, store.ErrNotFound):
		return v, nil
	case err != nil:
		return v, err
	}
	seat := k.Seat
	v.Game, v.Seat = k.Game, &seat
	return v, nil
}

// seekFor reads seek id, refusing with ErrNotFound an id it has not (or
// an open seek expired), counted against the caller's limit of requests
// naming what does not exist.
func (h host) seekFor(ctx context.Context, ks store.Seeks, id string) (store.Seek, error) {
	client := h.s.limits.Client(h.r)
	if err := h.s.limits.AllowGame(client); err != nil {
		return store.Seek{}, err
	}
	var k store.Seek
	err := store.ErrNotFound
	if validID(id) {
		k, err = ks.Seek(ctx, id)
	}
	if err == nil && k.Game == "" && !k.Expires.After(time.Now()) {
		err = store.ErrNotFound
	}
	if errors.Is(err, store.ErrNotFound) {
		if h.s.limits.UnknownGame(client) {
			h.s.log.Warn("a client names many seeks or games that do not exist", "client", client)
		}
		return store.Seek{}, api.Fail(api.ErrNotFound, "no such seek: it was cancelled, taken or expired")
	}
	return k, err
}

// CancelSeek removes seek id, if the caller posted it.
func (h host) CancelSeek(ctx context.Context, id string) error {
	ks := h.s.store
	k, err := h.seekFor(ctx, ks, id)
	if err != nil {
		return err
	}
	if !h.posted(k) {
		acct, err := h.caller(ctx, false)
		if err != nil {
			return err
		}
		if acct == "" || acct != k.Account {
			return api.Fail(api.ErrSeat, "this seek is not yours: send its secret")
		}
	}
	if k.Game != "" {
		return api.ErrSeekTaken
	}
	// Only while open: a cancel racing an accept loses to it, or wins.
	switch err := ks.WithdrawSeek(ctx, id); {
	case errors.Is(err, store.ErrConflict):
		return api.ErrSeekTaken
	case errors.Is(err, store.ErrNotFound):
		return api.Fail(api.ErrNotFound, "no such seek: it was cancelled, taken or expired")
	case err != nil:
		return err
	}
	h.s.lobbyChanged(id)
	return nil
}

// AcceptSeek makes seek id's game, the caller in the seat the poster
// does not hold, drawn at random.
func (h host) AcceptSeek(ctx context.Context, id string) (api.Joined, error) {
	ks := h.s.store
	if err := h.Allow("join"); err != nil {
		return api.Joined{}, err
	}
	k, err := h.seekFor(ctx, ks, id)
	if err != nil {
		return api.Joined{}, err
	}
	if k.Pool {
		return api.Joined{}, api.Fail(api.ErrNotFound, "no such seek: this is a ticket of quick pairing (POST /api/pairing)")
	}
	if k.Game != "" {
		return api.Joined{}, api.ErrSeekTaken
	}
	acct, err := h.caller(ctx, k.Rated)
	if err != nil {
		return api.Joined{}, err
	}
	if h.posted(k) || lobby.SamePoster(k, acct, h.s.ensurePosterKey(h.w, h.r)) {
		return api.Joined{}, api.ErrOwnSeek
	}
	switch blocked, err := h.s.blockedWith(ctx, acct); {
	case err != nil:
		return api.Joined{}, err
	case blocked[k.Account]: // told as if gone: the blocked learn nothing
		return api.Joined{}, api.Fail(api.ErrNotFound, "no such seek: it was cancelled, taken or expired")
	}
	r, err := h.s.ratingIn(ctx, acct, k.Speed)
	if err != nil {
		return api.Joined{}, err
	}
	if !lobby.InRange(r, k) {
		return api.Joined{}, api.ErrOutOfRange
	}
	poster := rand.IntN(2)
	gameID, secret := newID(), newSecret()
	now := time.Now()
	if err := ks.AcceptSeek(ctx, id, gameID, poster, acct, now, now.Add(lobby.SeekKeep)); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return api.Joined{}, api.ErrSeekTaken
		}
		if errors.Is(err, store.ErrNotFound) {
			return api.Joined{}, api.Fail(api.ErrNotFound, "no such seek: it was cancelled, or expired")
		}
		return api.Joined{}, err
	}
	p := lobby.Pairing{Game: gameID, First: k, Seeks: []lobby.SeekSeat{{Seek: id, Seat: poster}}}
	p.Seats[poster], p.Seats[1-poster] = k.Key, hashSecret(secret)
	p.Accounts[poster], p.Accounts[1-poster] = k.Account, acct
	m, err := h.s.lobby.PairedGame(ctx, p)
	if err != nil {
		return api.Joined{}, err
	}
	st := m.State()
	return api.Joined{Game: wire.GameOf(&st), Seat: 1 - poster, Secret: secret}, nil
}
