package server

import (
	"context"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"oanquan/internal/api"
	"oanquan/internal/store"
)

// Limits are the per-client rate limits: token buckets, one per client
// address and kind of request. A request over its limit is answered 429
// (code rate_limited) with Retry-After.
type Limits struct {
	Creates Rate // new games (and joins)
	Hints   Rate // hints, which search
	Reviews Rate // positions of a game review, which search (in the background)
	// Unknown bounds the requests naming a game that does not exist (a
	// mistyped link, or someone guessing ids to take an invitation's free
	// seat): beyond it, every request naming a game is refused, found or
	// not, until the bucket fills again.
	Unknown Rate
	// SignIns bounds the sign-ins (and sign-in attempts) of a client
	// address; SignUps the accounts it makes. SignInFailures bounds the
	// wrong passwords given for one username, from any address: beyond
	// it every sign-in with that name is refused until the bucket fills
	// again, whether the name has an account or not (so that the refusal
	// tells nothing). A zero Rate of these three is their default
	// (DefaultLimits); an infinite PerMinute, no limit.
	SignIns, SignUps, SignInFailures Rate
	// Seeks bounds the seeks a client address posts in the lobby
	// (beside the few it may have open at once, maxOpenSeeks). A zero
	// Rate is the default; an infinite PerMinute, no limit.
	Seeks Rate
	// OpenSeeks is how many seeks and quick-pairing tickets may be open
	// at once in the store, from all addresses (over every server
	// sharing it): beyond, a new one is refused 503 unavailable with
	// Retry-After, so that many addresses together cannot flood the
	// lobby. 0: DefaultLimits'.
	OpenSeeks int
	// Profiles bounds the reads of players' profiles, histories and
	// games, blocks and leaderboards a client address makes (each a
	// query or more of the store); Records the downloads of a player's
	// records (each all of a player's games). A zero Rate is the
	// default; an infinite PerMinute, no limit.
	Profiles, Records Rate
	// Sockets is how many WebSockets one client may have open at once;
	// beyond it the next is refused (429) before the upgrade. 0: no
	// limit.
	Sockets int
	// ClientIPHeader, if set, names the header that holds the client's
	// address as a proxy in front of the server saw it, such as
	// X-Forwarded-For (its last address is taken) or X-Real-IP. Set it
	// only behind a proxy that sets it: clients can write any header.
	ClientIPHeader string
}

// Rate is a token bucket: PerMinute requests a minute on average, Burst
// at once. A zero PerMinute means no limit.
type Rate struct {
	PerMinute float64
	Burst     int
}

// DefaultLimits are the limits of the zero Limits: room for a class of
// children behind one school address.
var DefaultLimits = Limits{
	Creates: Rate{PerMinute: 60, Burst: 20},
	Hints:   Rate{PerMinute: 120, Burst: 20},
	// A review asks for its game's positions one after the other, each
	// searched for ai.ReviewMoveTime: 240 a minute lets one go at full
	// speed, the burst covers a long game's first half.
	Reviews: Rate{PerMinute: 240, Burst: 60},
	// Links to games deleted (docs/OPERATING.md, retention) or mistyped
	// are few; guessing a 96-bit id takes far more than a minute's 30.
	Unknown: Rate{PerMinute: 30, Burst: 30},
	// A page holds one WebSocket, on the game it shows: a class of
	// children, each with a few tabs open.
	Sockets: 100,
	// A class of children signing in after the bell, some mistyping.
	SignIns: Rate{PerMinute: 10, Burst: 5},
	// Three accounts an hour: a family or a classroom's few, not a farm.
	SignUps: Rate{PerMinute: 3.0 / 60, Burst: 3},
	// Five wrong passwords for one name, then one every three minutes
	// (five in fifteen): a player who forgot waits, a guesser gets
	// some 480 tries a day, against passwords that are not common ones.
	SignInFailures: Rate{PerMinute: 1.0 / 3, Burst: 5},
	// Thirty seeks an hour, ten at once: a player who posts, cancels
	// and posts again, not a flood of the lobby.
	Seeks: Rate{PerMinute: 30.0 / 60, Burst: 10},
	// Far more than a busy lobby shows, far fewer than a flood.
	OpenSeeks: 2000,
	// A class of children behind one address looking at each other's
	// profiles (a profile is three reads, a leaderboard one).
	Profiles: Rate{PerMinute: 300, Burst: 120},
	// Ten downloads an hour, five at once: a player's own games, and a
	// friend's or two.
	Records: Rate{PerMinute: 10.0 / 60, Burst: 5},
}

func (l Limits) orDefault() Limits {
	if l.Creates == (Rate{}) && l.Hints == (Rate{}) && l.Reviews == (Rate{}) && l.Unknown == (Rate{}) && l.Sockets == 0 {
		l.Creates, l.Hints, l.Reviews, l.Unknown, l.Sockets = DefaultLimits.Creates, DefaultLimits.Hints, DefaultLimits.Reviews, DefaultLimits.Unknown, DefaultLimits.Sockets
	}
	for _, r := range []struct{ rt, def *Rate }{{&l.SignIns, &DefaultLimits.SignIns}, {&l.SignUps, &DefaultLimits.SignUps}, {&l.SignInFailures, &DefaultLimits.SignInFailures}, {&l.Seeks, &DefaultLimits.Seeks}, {&l.Profiles, &DefaultLimits.Profiles}, {&l.Records, &DefaultLimits.Records}} {
		if *r.rt == (Rate{}) {
			*r.rt = *r.def
		}
	}
	if l.OpenSeeks == 0 {
		l.OpenSeeks = DefaultLimits.OpenSeeks
	}
	return l
}

// limiter holds the buckets of every client seen lately.
type limiter struct {
	cfg Limits
	mu  sync.Mutex
	// buckets by kind and address; a bucket unused for a while is
	// forgotten (sweep), so that the map does not grow for ever.
	buckets map[string]*bucket
}

type bucket struct {
	lim    *rate.Limiter
	used   time.Time
	warned time.Time // when the emptying of the bucket was last logged (warn)
}

func newLimiter(cfg Limits) *limiter {
	return &limiter{cfg: cfg, buckets: make(map[string]*bucket)}
}

// allow takes a token of kind ("create", "hints") for r's client, or
// returns a refusal saying when to come back.
func (l *limiter) allow(r *http.Request, kind string, rt Rate) error {
	if rt.PerMinute <= 0 {
		return nil
	}
	if delay := l.take(kind+" "+l.client(r), rt); delay > 0 {
		return &retryError{limit: kind, retry: delay, err: api.Fail(api.ErrRate, "too many %s requests from your address: try again in %d s", kind, retrySeconds(delay))}
	}
	return nil
}

// take takes a token from the bucket key, whose rate is rt, and returns
// 0, or how long to wait for one (then taking none).
func (l *limiter) take(key string, rt Rate) time.Duration {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bucketLocked(key, rt, now).takeAt(now)
}

// bucketLocked returns the bucket key, whose rate is rt, made if need be
// and marked as used at now.
func (l *limiter) bucketLocked(key string, rt Rate, now time.Time) *bucket {
	b := l.buckets[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(rate.Limit(rt.PerMinute/60), max(rt.Burst, 1))}
		l.buckets[key] = b
	}
	b.used = now
	return b
}

// takeAt takes a token at now and returns 0, or how long to wait for one
// (then taking none).
func (b *bucket) takeAt(now time.Time) time.Duration {
	res := b.lim.ReserveN(now, 1)
	delay := res.DelayFrom(now)
	if delay > 0 {
		res.CancelAt(now)
	}
	return delay
}

// unknownKey is the bucket of a client's requests for games that do not
// exist.
func unknownKey(client string) string { return "unknown game " + client }

// unknownLimited reports whether requests for games that do not exist
// are limited (the serve command's "no limit" is an infinite rate).
func (l *limiter) unknownLimited() bool {
	rt := l.cfg.Unknown
	return rt.PerMinute > 0 && !math.IsInf(rt.PerMinute, 1)
}

// allowGame refuses, before any lookup, a client that has named too many
// games that do not exist lately: whether an id exists is then hidden
// from it too.
func (l *limiter) allowGame(client string) error {
	if !l.unknownLimited() {
		return nil
	}
	rt, now := l.cfg.Unknown, time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	// Below zero while the client owes for guesses sent at once.
	tokens := l.bucketLocked(unknownKey(client), rt, now).lim.TokensAt(now)
	if tokens < 1 {
		delay := time.Duration((1 - tokens) / (rt.PerMinute / 60) * float64(time.Second))
		return &retryError{limit: "unknown game", retry: delay, err: api.Fail(api.ErrRate, "too many requests for games that do not exist from your address: try again in %d s", retrySeconds(delay))}
	}
	return nil
}

// unknownGame counts a request for a game that does not exist from
// client, into debt if need be: guesses sent at once all pass allowGame
// before any is counted, and all of them count, so that the client waits
// for every one of them and guesses no faster than the limit over time.
// It reports whether to log that the client has run out (once a minute
// at most, so that a flood of guesses is not a flood of logs).
func (l *limiter) unknownGame(client string) (warn bool) {
	if !l.unknownLimited() {
		return false
	}
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucketLocked(unknownKey(client), l.cfg.Unknown, now)
	b.lim.ReserveN(now, 1) // never cancelled: a debt
	if b.lim.TokensAt(now) >= 1 || now.Sub(b.warned) < time.Minute {
		return false
	}
	b.warned = now
	return true
}

// owes refuses, with the time to wait, while the bucket key (of rate
// rt) has no token left: the debts charge made. what says what was
// counted, for the message.
func (l *limiter) owes(key string, rt Rate, limit, what string) error {
	if rt.PerMinute <= 0 || math.IsInf(rt.PerMinute, 1) {
		return nil
	}
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	tokens := l.bucketLocked(key, rt, now).lim.TokensAt(now)
	if tokens < 1 {
		delay := time.Duration((1 - tokens) / (rt.PerMinute / 60) * float64(time.Second))
		return &retryError{limit: limit, retry: delay, err: api.Fail(api.ErrRate, "%s: try again in %d s", what, retrySeconds(delay))}
	}
	return nil
}

// charge takes a token from the bucket key (of rate rt), into debt if
// need be: attempts made at once all pass owes before any is charged,
// and all of them count.
func (l *limiter) charge(key string, rt Rate) {
	if rt.PerMinute <= 0 || math.IsInf(rt.PerMinute, 1) {
		return
	}
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bucketLocked(key, rt, now).lim.ReserveN(now, 1)
}

// sweep forgets the buckets unused since cutoff that have filled again
// (forgetting one that has not would forgive its debt: the wrong
// passwords of a name are counted over fifteen minutes).
func (l *limiter) sweep(cutoff time.Time) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, b := range l.buckets {
		if b.used.Before(cutoff) && (b.lim.Limit() == rate.Inf || b.lim.TokensAt(now) >= float64(b.lim.Burst())) {
			delete(l.buckets, k)
		}
	}
}

// client returns r's client as its limits know it: its address, or for
// an IPv6 address its /64 network (one subscriber's, which may hold
// any number of addresses).
func (l *limiter) client(r *http.Request) string {
	if h := l.cfg.ClientIPHeader; h != "" {
		// The last address of the header's last line is the one the
		// proxy saw: a proxy may add its own line rather than append to
		// a line the client sent.
		if v := r.Header.Values(h); len(v) > 0 && v[len(v)-1] != "" {
			parts := strings.Split(v[len(v)-1], ",")
			return clientOf(strings.TrimSpace(parts[len(parts)-1]))
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return clientOf(r.RemoteAddr)
	}
	return clientOf(host)
}

// clientOf returns the client an address stands for: an IPv4 address
// (also one written as IPv6, ::ffff:a.b.c.d) as it is, an IPv6 address
// as its /64 network, anything else as it is.
func clientOf(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		ap, perr := netip.ParseAddrPort(addr) // a proxy's header may carry the port
		if perr != nil {
			return addr
		}
		ip = ap.Addr()
	}
	ip = ip.Unmap()
	if ip.Is4() {
		return ip.String()
	}
	p, _ := ip.Prefix(64) // a zone is dropped with the host bits
	return p.String()
}

// wideOf returns the wider network of a client (as client returns it)
// whose open seeks are counted too: an IPv6 /64's /48, which one
// holder may have (and with it 65,536 /64s); an IPv4 address as it is.
func wideOf(client string) string {
	p, err := netip.ParsePrefix(client)
	if err != nil || !p.Addr().Is6() {
		return client
	}
	w, _ := p.Addr().Prefix(48)
	return w.String()
}

// retryError is a refusal with the time to wait (Retry-After).
type retryError struct {
	limit string // the limit refused by, for the metrics; "": none (the store)
	retry time.Duration
	err   error // a refusal: api.ErrRate, api.ErrUnavailable
}

func (e *retryError) Error() string { return e.err.Error() }
func (e *retryError) Unwrap() error { return e.err }

func retrySeconds(d time.Duration) int { return int(math.Ceil(d.Seconds())) }

// The limits of accounts (sign-ins and sign-ups per address, wrong
// passwords per username), of the seeks and reports an address posts
// and of its downloads of records are kept in the store's buckets when
// it keeps them (store.Buckets): then they hold over every server
// sharing it, as issue 21 asks of them, rather than on each (two servers
// would let a guesser try twice the passwords). A store without
// buckets, this server's.

// sharedRate is rt as the store's buckets take it; ok false for no limit.
func sharedRate(rt Rate) (store.BucketRate, bool) {
	if rt.PerMinute <= 0 || math.IsInf(rt.PerMinute, 1) {
		return store.BucketRate{}, false
	}
	return store.BucketRate{PerSecond: rt.PerMinute / 60, Burst: max(rt.Burst, 1)}, true
}

// owing is the refusal of a bucket of rate br left with tokens (below
// one): limit names it for the metrics, msg says what was counted.
func owing(tokens float64, br store.BucketRate, limit, msg string) error {
	delay := time.Duration((1 - tokens) / br.PerSecond * float64(time.Second))
	return &retryError{limit: limit, retry: delay, err: api.Fail(api.ErrRate, "%s: try again in %d s", msg, retrySeconds(delay))}
}

// allowShared takes a token of kind ("sign-in", "sign-up", "seek",
// "report", "records") for r's client, of rate rt, or refuses saying
// when to come back.
func (s *Server) allowShared(ctx context.Context, r *http.Request, kind string, rt Rate) error {
	b := s.store
	br, limited := sharedRate(rt)
	if !limited {
		return s.limits.allow(r, kind, rt)
	}
	taken, tokens, err := b.TakeToken(ctx, kind+" "+s.limits.client(r), br, time.Now(), false)
	if err != nil || taken {
		return err
	}
	return owing(tokens, br, kind, "too many "+kind+" requests from your address")
}

// owesShared refuses while the bucket key (of rate rt) has no token left:
// the debts chargeShared made.
func (s *Server) owesShared(ctx context.Context, key string, rt Rate, limit, what string) error {
	b := s.store
	br, limited := sharedRate(rt)
	if !limited {
		return s.limits.owes(key, rt, limit, what)
	}
	tokens, err := b.Tokens(ctx, key, br, time.Now())
	if err != nil || tokens >= 1 {
		return err
	}
	return owing(tokens, br, limit, what)
}

// chargeShared takes a token from the bucket key (of rate rt), into debt
// if need be.
func (s *Server) chargeShared(ctx context.Context, key string, rt Rate) error {
	b := s.store
	br, limited := sharedRate(rt)
	if !limited {
		s.limits.charge(key, rt)
		return nil
	}
	_, _, err := b.TakeToken(ctx, key, br, time.Now(), true)
	return err
}
