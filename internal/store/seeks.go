package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The refusals of Seeks.CreateSeekWithin.
var (
	// ErrSeekLimit: the address has the most open seeks it may.
	ErrSeekLimit = errors.New("too many open seeks")
	// ErrWideLimit: the address's wider network (Seek.Wide) has the
	// most open seeks it may.
	ErrWideLimit = errors.New("too many open seeks from one network")
	// ErrLobbyFull: the store holds the most open seeks it may, from
	// all addresses.
	ErrLobbyFull = errors.New("the lobby is full")
)

// Bounds are the most open seeks (and tickets) Seeks.CreateSeekWithin
// lets there be: of one address, of one wider network, and of all
// addresses. A zero Wide or All is no bound.
type Bounds struct {
	Address, Wide, All int
}

// Seek is an open offer of a game in the lobby (issue 21): its poster
// waits for anyone to accept it. Of many who accept one seek at once,
// exactly one gets the game (Seeks.AcceptSeek is one conditional write).
type Seek struct {
	ID      string // chosen by the server, random: unguessable
	Account string // the poster's account; "" for an anonymous poster
	Key     []byte // the SHA-256 of the poster's secret, which also acts for the poster's seat of the game
	Address string // the poster's address, as the server's limits key it
	// Wide is the poster's wider network, as the server's limits key it
	// (an IPv6 address's /48, which holds many /64s): its open seeks are
	// counted too. "" counts in no network.
	Wide string
	// Poster is the SHA-256 of its poster's lobby key (a random id its
	// browser keeps), nil for none: who may not accept it, or be paired
	// with it, when no account tells.
	Poster []byte
	// The clock: seconds and an increment, or days a move.
	Initial, Increment, Days int
	Rated                    bool
	Min, Max                 int    // the rating range of who may accept; 0, 0: anyone
	Speed                    string // rating.Speed's name
	// Pool marks a ticket of quick pairing (not listed in the lobby):
	// Rating is the poster's rating in Speed when it joined.
	Pool    bool
	Rating  float64
	Created time.Time
	Expires time.Time // an open seek expired is no longer listed, nor accepted
	// Set once accepted: the game made, the poster's seat in it, and the
	// acceptor's account ("" for none).
	Game     string
	Seat     int
	Acceptor string
	// The hold, a lease renewed while a lobby socket of its poster's is
	// open on some server (Seeks.HoldSeeks): the server that last
	// renewed it, and until when; zero Held: never held.
	Holder string
	Held   time.Time
}

// Seeks keeps the lobby's seeks. The SQLite, Postgres and Memory stores
// implement it with the same contract (storetest.Seeks). Methods that
// change something are durable when they return without error. On
// PostgreSQL every change of a seek is announced to the other servers
// (Notifier: a Notice with Lobby set).
type Seeks interface {
	// CreateSeek saves a new open seek (k.Game ""); ErrExists if its id
	// is taken.
	CreateSeek(ctx context.Context, k Seek) error
	// CreateSeekWithin saves k as CreateSeek does unless, at k.Created,
	// k.Address has b.Address open seeks already (ErrSeekLimit), k.Wide
	// has b.Wide (ErrWideLimit), or the store holds b.All (ErrLobbyFull);
	// it returns the count that refused (else the address's). The
	// SeekCounts and the save are one step: of an address's or a network's
	// seeks posted at once, through any servers, no more than its bound
	// are open. (The bound of all may be passed by seeks of other
	// networks posted at the same moment through other servers: by no
	// more than the number posted at once.)
	CreateSeekWithin(ctx context.Context, k Seek, b Bounds) (int, error)
	// Seek returns seek id, open or accepted; ErrNotFound for none.
	Seek(ctx context.Context, id string) (Seek, error)
	// OpenSeeks returns the seeks not accepted and not expired at now,
	// oldest first.
	OpenSeeks(ctx context.Context, now time.Time) ([]Seek, error)
	// AcceptSeek marks seek id accepted, for game with the poster in seat
	// and acceptor's account, keeping it until keep (for its poster to
	// learn of the game), if it is open at now: one conditional write, so
	// that of many accepting at once exactly one succeeds. ErrNotFound
	// for no such seek; ErrConflict if it was accepted or has expired.
	AcceptSeek(ctx context.Context, id, game string, seat int, acceptor string, now, keep time.Time) error
	// PairSeeks pairs two open seeks a and b, in one transaction: both
	// are marked accepted for game, a's poster in seat seatA and b's in
	// the other, each naming the other's account as acceptor, kept until
	// keep; or neither is (ErrConflict if either is not open at now).
	PairSeeks(ctx context.Context, a, b, game string, seatA int, now, keep time.Time) error
	// DeleteSeek deletes seek id, open or accepted; none is no error.
	DeleteSeek(ctx context.Context, id string) error
	// WithdrawSeek deletes seek id if it is still open (not accepted),
	// as one conditional write: ErrConflict if it was accepted,
	// ErrNotFound for none.
	WithdrawSeek(ctx context.Context, id string) error
	// ExpireSeeks deletes the seeks whose Expires is before now and
	// returns how many.
	ExpireSeeks(ctx context.Context, now time.Time) (int, error)
	// CountSeeks returns how many open seeks at now the address posted.
	CountSeeks(ctx context.Context, address string, now time.Time) (int, error)
	// HoldSeeks sets the hold of the open seeks ids (unknown or
	// accepted ones are skipped) to until, by holder (a server's name),
	// where it would lapse sooner: a renewal never shortens the hold
	// another server gave. It announces nothing: the lobby does not
	// change.
	HoldSeeks(ctx context.Context, ids []string, holder string, until time.Time) error
	// SweepSeeks deletes the open seeks held once whose hold lapsed
	// before now (their posters left, on whatever server), and returns
	// how many. A seek never held is left to ExpireSeeks.
	SweepSeeks(ctx context.Context, now time.Time) (int, error)
}

// SeekCounts are the open seeks CreateSeekWithin counts: of the address, of
// its network, of all.
type SeekCounts struct{ Address, Wide, All int }

// Check refuses k when a count is at its bound, returning that count.
func (c SeekCounts) Check(k Seek, b Bounds) (int, error) {
	switch {
	case c.Address >= b.Address:
		return c.Address, fmt.Errorf("address %q: %w", k.Address, ErrSeekLimit)
	case b.Wide > 0 && k.Wide != "" && c.Wide >= b.Wide:
		return c.Wide, fmt.Errorf("network %q: %w", k.Wide, ErrWideLimit)
	case b.All > 0 && c.All >= b.All:
		return c.All, ErrLobbyFull
	}
	return c.Address, nil
}

// LobbyNotifier tells the other servers sharing a store that something
// of the lobby changed beside a seek's row: the game an accepted seek
// names now exists (Postgres; the other stores serve one server).
type LobbyNotifier interface {
	NotifyLobby(ctx context.Context, id string) error
}
