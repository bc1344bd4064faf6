package store

import (
	"context"
	"errors"
	"time"
)

// The kinds of refusal, returned wrapped; test with errors.Is.
var (
	// ErrNotFound: no game has that id.
	ErrNotFound = errors.New("game not found")
	// ErrExists: Create with an id already taken.
	ErrExists = errors.New("game id taken")
	// ErrConflict: the change does not fit the saved game as it stands
	// (a move at an index already played or beyond the end, an undo past
	// the end, a seat already claimed). Another writer got there first:
	// re-read the game.
	ErrConflict = errors.New("conflict with the saved game")
)

// Waiting says whether the computer is to move in a saved game after a
// change: a server that starts reads the games waiting for the computer
// (Store.Waiting) and has it move in them, without anyone asking.
type Waiting bool

// The two values of Waiting, for readable calls.
const (
	Idle           Waiting = false // nobody is waiting for the computer: a human's turn, or the game is over
	ComputerToMove Waiting = true
)

// Game is a saved game: enough to rebuild it by replaying Moves from Start
// under the named Variants. Strings are in the notation of
// shared/NOTATION.md, so that a saved game reads the same in any store.
type Game struct {
	ID       string
	Mode     string   // "ai", "local" or "online"
	Level    string   // "easy", "medium" or "hard"
	Human    int      // the human's seat in ai mode: 0 or 1
	Seed     uint64   // the computer player's seed
	Variants []string // names of the rule variants on, as rules.Rules.Names
	First    int      // the player who moved first
	Start    string   // the start position
	Moves    []string // the moves played, in order: "7R", "2L", …
	// Seats holds, for each seat, the hash of the secret that acts for
	// it, or nil while nobody holds the seat (the computer's seat, or an
	// online game's seat not yet claimed). The secret itself is never
	// stored.
	Seats   [2][]byte
	Waiting Waiting // the computer is to move
	// Status is what a game between players online holds beside its
	// moves (how they ended it, an offer waiting, the rematch), as the
	// server writes it: opaque to the store. "" for none.
	Status string
	// Clock is a clocked game's time control and clock, saved with each
	// move (AppendClocked); the zero Clock: none.
	Clock Clock
	// MoveClocks holds, for each move, the clock saved with it
	// (Clock.Move; "" for none); nil when no move has one.
	MoveClocks []string
	// Accounts holds, for each seat, the id of the account that plays it
	// ("" for none: a player with no account, or the computer), and
	// Players their usernames as Get reads them ("" too once an account
	// is deleted: its games stay, anonymised). Create saves Accounts;
	// Players is only read.
	Accounts [2]string
	Players  [2]string
	// Rated is the speed a rated game is rated in ("blitz", …); "" for a
	// casual game.
	Rated string
	// RatingChange is what the game did to its players' ratings, once
	// it ended rated (Accounts.EndRated); nil before, and for a casual
	// game.
	RatingChange *RatingChange
	// Result is how the game ended, as Finish or Accounts.EndRated
	// recorded it; NoResult while it goes on. Only read: Create saves
	// none.
	Result  Result
	Created time.Time
	Updated time.Time // the last change; stores set it
}

// Clock is a clocked game's clock as saved: State as the server writes
// it (opaque to the store; "" for none), and Deadline, when its side to
// move runs out of time (zero: nothing runs), by which Overdue finds the
// games whose server has gone.
type Clock struct {
	State    string
	Deadline time.Time
	// Move is the clock after the move AppendClocked saves, kept with
	// that move (Game.MoveClocks), as the server writes it; "": none.
	Move string
	// IfStatus, with State, is the game's Status as the server that
	// saves a move has it: AppendClocked refuses the move (ErrConflict)
	// if the saved Status differs — another server ended the game on
	// time meanwhile.
	IfStatus string
}

// Clone returns a copy of g that shares no memory with it.
func (g Game) Clone() Game {
	g.Variants = append([]string(nil), g.Variants...)
	g.Moves = append([]string(nil), g.Moves...)
	if g.MoveClocks != nil {
		g.MoveClocks = append([]string(nil), g.MoveClocks...)
	}
	if g.RatingChange != nil {
		rc := *g.RatingChange
		g.RatingChange = &rc
	}
	for i := range g.Seats {
		if g.Seats[i] != nil {
			g.Seats[i] = append([]byte(nil), g.Seats[i]...)
		}
	}
	return g
}

// Store holds saved games by id. Implementations are safe for concurrent
// use, and neither keep nor share the memory of the values passed to them
// or returned by them. Every method that changes a game sets its Updated
// time and is durable when it returns without error; a method that
// returns an error has changed nothing.
type Store interface {
	// Create saves a new game, with its moves if it has any. It returns
	// an error wrapping ErrExists if g.ID is taken.
	Create(ctx context.Context, g Game) error
	// Get returns the game saved under id, or an error wrapping
	// ErrNotFound.
	Get(ctx context.Context, id string) (Game, error)
	// Append adds move as the game's move number index (0 for the first
	// move from Start): index must be the number of moves saved, or the
	// error wraps ErrConflict. w says whether the computer is to move
	// after it.
	Append(ctx context.Context, id string, index int, move string, w Waiting) error
	// AppendClocked is Append, saving the game's clock c with the move,
	// in the same transaction; the zero c leaves the clock as it is.
	AppendClocked(ctx context.Context, id string, index int, move string, w Waiting, c Clock) error
	// SetClock replaces the game's clock (when a clocked game becomes
	// ready).
	SetClock(ctx context.Context, id string, c Clock) error
	// Overdue returns the ids of the games not finished whose clock's
	// deadline is at now or before and whose lease (Lease) has run out
	// or was never taken: clocked games whose server has gone. At most
	// limit, the earliest deadline first.
	Overdue(ctx context.Context, now time.Time, limit int) ([]string, error)
	// Truncate keeps the first n moves of the game and removes the
	// others (an undo); n beyond the number saved is an ErrConflict.
	Truncate(ctx context.Context, id string, n int, w Waiting) error
	// SetLevel changes the computer's level.
	SetLevel(ctx context.Context, id string, level string, w Waiting) error
	// SetStatus replaces the game's Status with to if it is from, or
	// returns an error wrapping ErrConflict: of two servers changing a
	// status at once, one wins and the other re-reads.
	SetStatus(ctx context.Context, id string, from, to string) error
	// SetStatusAt is SetStatus, refused (ErrConflict) too unless the game
	// has moves moves saved: a clock's flag, which a move saved
	// meanwhile (through another server) voids.
	SetStatusAt(ctx context.Context, id string, from, to string, moves int) error
	// ClaimSeat gives seat (0 or 1) to the holder of the secret whose
	// hash is given, if nobody holds it yet: of many callers racing for
	// one seat, exactly one succeeds, the others get ErrConflict.
	ClaimSeat(ctx context.Context, id string, seat int, hash []byte) error
	// Waiting returns the ids of the games in which the computer is to
	// move, at most limit of them, the least recently changed first.
	Waiting(ctx context.Context, limit int) ([]string, error)
	// Lease makes owner the only server that plays the computer's moves
	// in game id until ttl from now, and reports whether it is: true if
	// nobody held the lease, its holder's time ran out, or owner already
	// held it (the lease is then renewed). A store used by one server
	// may always say true.
	Lease(ctx context.Context, id, owner string, ttl time.Duration) (bool, error)
	// Release ends owner's lease on game id, if owner holds it.
	Release(ctx context.Context, id, owner string) error
	// Finish records that game id has ended, now, and how (r), unless
	// it is recorded already: the first end and the first result other
	// than NoResult stay. Truncate undoes both (an undo takes the end
	// back).
	Finish(ctx context.Context, id string, r Result) error
	// Expire deletes the games that e says are due, at most e.Limit of
	// them, with their moves and leases, and returns their ids. Several
	// servers may expire at once: each game is deleted once, and never
	// one changed after e's times were chosen.
	Expire(ctx context.Context, e Expiry) ([]string, error)
	// Close releases the store's resources. The store is not used after.
	Close() error
}

// Expiry says which games Expire deletes: those last changed before
// Invitations that are online games with a seat nobody took and no move
// (invitations never opened), those not finished and last changed before
// Unfinished (abandoned), and those finished and last changed before
// Finished. A zero time deletes none of its kind.
type Expiry struct {
	Invitations, Unfinished, Finished time.Time
	Limit                             int // at most this many games a call
}

// Due reports whether e says a game is due, given its mode, seats, number
// of moves, last change and end (zero: not finished).
func (e Expiry) Due(mode string, seats [2][]byte, moves int, updated, finished time.Time) bool {
	before := func(t, cutoff time.Time) bool { return !cutoff.IsZero() && t.Before(cutoff) }
	switch {
	case mode == "online" && (seats[0] == nil || seats[1] == nil) && moves == 0 && before(updated, e.Invitations):
		return true
	case finished.IsZero():
		return before(updated, e.Unfinished)
	}
	return before(finished, e.Finished) && before(updated, e.Finished)
}

// Notifier is implemented by stores that several servers share
// (Postgres): it tells a server of the changes other servers made.
type Notifier interface {
	// Changes sends a notice of every change made by the other servers
	// using the store (not this one's own changes), soon after the change
	// is committed, until ctx is done; then it closes the channel. A
	// notice is a hint to re-read, never the data. After its connection
	// to the database was lost and made again, it sends the zero Notice:
	// notices may have been missed, so re-read every game watched.
	Changes(ctx context.Context) <-chan Notice
}

// Notice tells of a change another server made. The zero Notice says
// that notices may have been missed.
type Notice struct {
	Game string // the game changed
	// Presence says that what changed is who is connected to the game
	// through another server (PresenceBoard), not the game itself.
	Presence bool
	// Lobby says that what changed is the lobby's seeks (Seeks): seek
	// Seek, or several ("").
	Lobby bool
	Seek  string
	// Phrase, if not "", says that the player on seat Seat of game Game
	// said the preset phrase Phrase (Phrases), through another server:
	// not a change, and never re-sent after notices were missed.
	Phrase string
	Seat   int
}

// MoveClocks returns the clocks read with a game's moves, nil if no move
// has one.
func MoveClocks(clocks []string) []string {
	for _, c := range clocks {
		if c != "" {
			return clocks
		}
	}
	return nil
}
