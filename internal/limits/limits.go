// Package limits is the server's rate limits per client address: token
// buckets by kind of request (Limiter), the counts of WebSockets open by
// address and in all (Sockets), the client an address stands for (an
// IPv6 client by its /64), and the refusals that say when to come back
// (RetryError, answered 429 or 503 with Retry-After). The limits of
// accounts, seeks, reports and records are kept in the store's buckets
// (store.Buckets), over every server sharing it.
//
// It knows no games, no lobby and no HTTP routes: the server asks it,
// and answers its refusals. Its locks (Limiter's, Sockets') are leaves:
// nothing is taken under them.
package limits

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
	// (Default); an infinite PerMinute, no limit.
	SignIns, SignUps, SignInFailures Rate
	// Seeks bounds the seeks a client address posts in the lobby
	// (beside the few it may have open at once, maxOpenSeeks). A zero
	// Rate is the default; an infinite PerMinute, no limit.
	Seeks Rate
	// OpenSeeks is how many seeks and quick-pairing tickets may be open
	// at once in the store, from all addresses (over every server
	// sharing it): beyond, a new one is refused 503 unavailable with
	// Retry-After, so that many addresses together cannot flood the
	// lobby. 0: Default'.
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

// Default are the limits of the zero Limits: room for a class of
// children behind one school address.
var Default = Limits{
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

// OrDefault returns l with Default's values for those it leaves zero.
func (l Limits) OrDefault() Limits {
	if l.Creates == (Rate{}) && l.Hints == (Rate{}) && l.Reviews == (Rate{}) && l.Unknown == (Rate{}) && l.Sockets == 0 {
		l.Creates, l.Hints, l.Reviews, l.Unknown, l.Sockets = Default.Creates, Default.Hints, Default.Reviews, Default.Unknown, Default.Sockets
	}
	for _, r := range []struct{ rt, def *Rate }{{&l.SignIns, &Default.SignIns}, {&l.SignUps, &Default.SignUps}, {&l.SignInFailures, &Default.SignInFailures}, {&l.Seeks, &Default.Seeks}, {&l.Profiles, &Default.Profiles}, {&l.Records, &Default.Records}} {
		if *r.rt == (Rate{}) {
			*r.rt = *r.def
		}
	}
	if l.OpenSeeks == 0 {
		l.OpenSeeks = Default.OpenSeeks
	}
	return l
}

// Limiter holds the buckets of every client seen lately, and the
// store's (store.Buckets) for the limits shared by every server. Make
// one with New; it is safe for concurrent use.
type Limiter struct {
	cfg     Limits
	buckets store.Buckets // nil: the shared limits are this server's
	mu      sync.Mutex
	// local are the buckets by kind and address; a bucket unused for a
	// while is forgotten (Sweep), so that the map does not grow for ever.
	local map[string]*bucket
}

type bucket struct {
	lim    *rate.Limiter
	used   time.Time
	warned time.Time // when the emptying of the bucket was last logged (warn)
}

// New returns a limiter of cfg, whose shared limits are kept in
// buckets (nil: in the limiter).
func New(cfg Limits, buckets store.Buckets) *Limiter {
	return &Limiter{cfg: cfg, buckets: buckets, local: make(map[string]*bucket)}
}

// Config returns the limits l applies.
func (l *Limiter) Config() Limits { return l.cfg }

// Allow takes a token of kind ("create", "hints") for r's client, or
// returns a refusal saying when to come back.
func (l *Limiter) Allow(r *http.Request, kind string, rt Rate) error {
	if rt.PerMinute <= 0 {
		return nil
	}
	if delay := l.take(kind+" "+l.Client(r), rt); delay > 0 {
		return &RetryError{Limit: kind, Retry: delay, Err: api.Fail(api.ErrRate, "too many %s requests from your address: try again in %d s", kind, RetrySeconds(delay))}
	}
	return nil
}

// take takes a token from the bucket key, whose rate is rt, and returns
// 0, or how long to wait for one (then taking none).
func (l *Limiter) take(key string, rt Rate) time.Duration {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bucketLocked(key, rt, now).takeAt(now)
}

// bucketLocked returns the bucket key, whose rate is rt, made if need be
// and marked as used at now.
func (l *Limiter) bucketLocked(key string, rt Rate, now time.Time) *bucket {
	b := l.local[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(rate.Limit(rt.PerMinute/60), max(rt.Burst, 1))}
		l.local[key] = b
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
func (l *Limiter) unknownLimited() bool {
	rt := l.cfg.Unknown
	return rt.PerMinute > 0 && !math.IsInf(rt.PerMinute, 1)
}

// AllowGame refuses, before any lookup, a client that has named too many
// games that do not exist lately: whether an id exists is then hidden
// from it too.
func (l *Limiter) AllowGame(client string) error {
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
		return &RetryError{Limit: "unknown game", Retry: delay, Err: api.Fail(api.ErrRate, "too many requests for games that do not exist from your address: try again in %d s", RetrySeconds(delay))}
	}
	return nil
}

// UnknownGame counts a request for a game that does not exist from
// client, into debt if need be: guesses sent at once all pass AllowGame
// before any is counted, and all of them count, so that the client waits
// for every one of them and guesses no faster than the limit over time.
// It reports whether to log that the client has run out (once a minute
// at most, so that a flood of guesses is not a flood of logs).
func (l *Limiter) UnknownGame(client string) (warn bool) {
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

// Owes refuses, with the time to wait, while the bucket key (of rate
// rt) has no token left: the debts Charge made. what says what was
// counted, for the message.
func (l *Limiter) Owes(key string, rt Rate, limit, what string) error {
	if rt.PerMinute <= 0 || math.IsInf(rt.PerMinute, 1) {
		return nil
	}
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	tokens := l.bucketLocked(key, rt, now).lim.TokensAt(now)
	if tokens < 1 {
		delay := time.Duration((1 - tokens) / (rt.PerMinute / 60) * float64(time.Second))
		return &RetryError{Limit: limit, Retry: delay, Err: api.Fail(api.ErrRate, "%s: try again in %d s", what, RetrySeconds(delay))}
	}
	return nil
}

// Charge takes a token from the bucket key (of rate rt), into debt if
// need be: attempts made at once all pass Owes before any is charged,
// and all of them count.
func (l *Limiter) Charge(key string, rt Rate) {
	if rt.PerMinute <= 0 || math.IsInf(rt.PerMinute, 1) {
		return
	}
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bucketLocked(key, rt, now).lim.ReserveN(now, 1)
}

// Sweep forgets the buckets unused since cutoff that have filled again
// (forgetting one that has not would forgive its debt: the wrong
// passwords of a name are counted over fifteen minutes).
func (l *Limiter) Sweep(cutoff time.Time) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, b := range l.local {
		if b.used.Before(cutoff) && (b.lim.Limit() == rate.Inf || b.lim.TokensAt(now) >= float64(b.lim.Burst())) {
			delete(l.local, k)
		}
	}
}

// Client returns r's client as its limits know it: its address, or for
// an IPv6 address its /64 network (one subscriber's, which may hold
// any number of addresses).
func (l *Limiter) Client(r *http.Request) string {
	if h := l.cfg.ClientIPHeader; h != "" {
		// The last address of the header's last line is the one the
		// proxy saw: a proxy may add its own line rather than append to
		// a line the client sent.
		if v := r.Header.Values(h); len(v) > 0 && v[len(v)-1] != "" {
			parts := strings.Split(v[len(v)-1], ",")
			return ClientOf(strings.TrimSpace(parts[len(parts)-1]))
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return ClientOf(r.RemoteAddr)
	}
	return ClientOf(host)
}

// ClientOf returns the client an address stands for: an IPv4 address
// (also one written as IPv6, ::ffff:a.b.c.d) as it is, an IPv6 address
// as its /64 network, anything else as it is.
func ClientOf(addr string) string {
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

// Wide returns the wider network of a client (as Client returns it)
// whose open seeks are counted too: an IPv6 /64's /48, which one
// holder may have (and with it 65,536 /64s); an IPv4 address as it is.
func Wide(client string) string {
	p, err := netip.ParsePrefix(client)
	if err != nil || !p.Addr().Is6() {
		return client
	}
	w, _ := p.Addr().Prefix(48)
	return w.String()
}

// RetryError is a refusal with the time to wait (Retry-After).
type RetryError struct {
	Limit string // the limit refused by, for the metrics; "": none (the store)
	Retry time.Duration
	Err   error // a refusal: api.ErrRate, api.ErrUnavailable
}

func (e *RetryError) Error() string { return e.Err.Error() }
func (e *RetryError) Unwrap() error { return e.Err }

// RetrySeconds is d as a Retry-After: whole seconds, rounded up.
func RetrySeconds(d time.Duration) int { return int(math.Ceil(d.Seconds())) }

// The limits of accounts (sign-ins and sign-ups per address, wrong
// passwords per username), of the seeks and reports an address posts
// and of its downloads of records are kept in the store's buckets
// (store.Buckets, Limiter's …Shared methods): they hold over every
// server sharing it, as issue 21 asks of them, rather than on each (two
// servers would let a guesser try twice the passwords).

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
	return &RetryError{Limit: limit, Retry: delay, Err: api.Fail(api.ErrRate, "%s: try again in %d s", msg, RetrySeconds(delay))}
}

// AllowShared takes a token of kind ("sign-in", "sign-up", "seek",
// "report", "records") for r's client, of rate rt, in the store's
// buckets, or refuses saying when to come back.
func (l *Limiter) AllowShared(ctx context.Context, r *http.Request, kind string, rt Rate) error {
	br, limited := sharedRate(rt)
	if l.buckets == nil || !limited {
		return l.Allow(r, kind, rt)
	}
	taken, tokens, err := l.buckets.TakeToken(ctx, kind+" "+l.Client(r), br, time.Now(), false)
	if err != nil || taken {
		return err
	}
	return owing(tokens, br, kind, "too many "+kind+" requests from your address")
}

// OwesShared refuses while the store's bucket key (of rate rt) has no
// token left: the debts ChargeShared made.
func (l *Limiter) OwesShared(ctx context.Context, key string, rt Rate, limit, what string) error {
	br, limited := sharedRate(rt)
	if l.buckets == nil || !limited {
		return l.Owes(key, rt, limit, what)
	}
	tokens, err := l.buckets.Tokens(ctx, key, br, time.Now())
	if err != nil || tokens >= 1 {
		return err
	}
	return owing(tokens, br, limit, what)
}

// ChargeShared takes a token from the store's bucket key (of rate rt),
// into debt if need be.
func (l *Limiter) ChargeShared(ctx context.Context, key string, rt Rate) error {
	br, limited := sharedRate(rt)
	if l.buckets == nil || !limited {
		l.Charge(key, rt)
		return nil
	}
	_, _, err := l.buckets.TakeToken(ctx, key, br, time.Now(), true)
	return err
}
