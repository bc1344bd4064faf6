package store

import (
	"context"
	"errors"
	"time"
)

// ErrSeekLimit: Seeks.CreateSeekWithin refused, the address having the
// most open seeks it may.
var ErrSeekLimit = errors.New("too many open seeks")

// Seek is an open offer of a game in the lobby (issue 21): its poster
// waits for anyone to accept it. Of many who accept one seek at once,
// exactly one gets the game (Seeks.AcceptSeek is one conditional write).
type Seek struct {
	ID      string // chosen by the server, random: unguessable
	Account string // the poster's account; "" for an anonymous poster
	Key     []byte // the SHA-256 of the poster's secret, which also acts for the poster's seat of the game
	Address string // the poster's address, as the server's limits key it
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
// implement it with the same contract (seeks_test.go). Methods that
// change something are durable when they return without error. On
// PostgreSQL every change of a seek is announced to the other servers
// (Notifier: a Notice with Lobby set).
type Seeks interface {
	// CreateSeek saves a new open seek (k.Game ""); ErrExists if its id
	// is taken.
	CreateSeek(ctx context.Context, k Seek) error
	// CreateSeekWithin saves k as CreateSeek does unless k.Address has
	// most open seeks at k.Created already: then it returns
	// ErrSeekLimit, and that count. The count and the save are one step:
	// of an address's seeks posted at once, through any servers, no more
	// than most are open.
	CreateSeekWithin(ctx context.Context, k Seek, most int) (int, error)
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

var (
	_ Seeks = (*Memory)(nil)
	_ Seeks = (*SQLite)(nil)
	_ Seeks = (*Postgres)(nil)
)
