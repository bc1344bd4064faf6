package store

import (
	"context"
	"time"
)

// Presence is who is connected to a game through one server, or through
// several added up: for each seat, whether its player has a page open on
// the game, and how many others watch it; and for each seat whose player
// is not there, whether their last connection dropped (rather than
// being closed by their page). The zero Presence: nobody.
type Presence struct {
	Seats    [2]bool
	Watchers int
	Dropped  [2]bool
}

// Add returns the presence of p and q together: a seat is there if it
// is there in either, and dropped if it is there in neither and dropped
// in one.
func (p Presence) Add(q Presence) Presence {
	r := Presence{Watchers: p.Watchers + q.Watchers}
	for i := range r.Seats {
		r.Seats[i] = p.Seats[i] || q.Seats[i]
		r.Dropped[i] = !r.Seats[i] && (p.Dropped[i] || q.Dropped[i])
	}
	return r
}

// PresenceRows is how many rows a board keeps for a post of p: one for
// the seats and watchers connected, one for the seats dropped, each if
// not empty.
func PresenceRows(p Presence) int {
	n := 0
	if p.Seats != [2]bool{} || p.Watchers != 0 {
		n++
	}
	if p.Dropped != [2]bool{} {
		n++
	}
	return n
}

// PresenceBoard is implemented by stores that several servers share
// (Postgres), for the servers to tell each other who is connected to
// them: each posts, for every game, the presence of the WebSockets it
// holds, and reads the others'. Every change of a post reaches the other
// servers as a Notice with Presence set (the store is a Notifier too).
//
// A post lasts until its time to live runs out: a server renews its posts
// now and then, so that those of a server that died stop counting. Names
// of servers are theirs to choose (the same one again when a server
// restarts, so that it can take its old posts down; a name must not end
// in " dropped", which names a server's row of seats dropped); a store
// used by one server has no need of a board.
type PresenceBoard interface {
	// PostPresence replaces server's post on game with p, for ttl from
	// now; the zero p takes the post down.
	PostPresence(ctx context.Context, game, server string, p Presence, ttl time.Duration) error
	// Presence returns the posts on game of the servers other than
	// server, added up; posts whose time has run out do not count.
	Presence(ctx context.Context, game, server string) (Presence, error)
	// RenewPresence gives every post of server ttl from now and returns
	// how many rows it renewed (PresenceRows of each post): fewer than the
	// server made says that some
	// were lost (their time ran out while the server could not renew
	// them, or the database restarted), and should be posted again. It
	// also takes down the posts of any server whose time has run out, and
	// returns their games, whose presence has changed (the other servers
	// hear of it; this one, from the games returned).
	RenewPresence(ctx context.Context, server string, ttl time.Duration) (renewed int, expired []string, err error)
	// DropPresence takes down every post of server: it stops, or starts
	// again and holds no WebSocket yet.
	DropPresence(ctx context.Context, server string) error
}
