package server

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/lobby"
	"oanquan/internal/rating"
	"oanquan/internal/store"
	"oanquan/internal/store/memory"
	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/postgres"
	"oanquan/internal/store/sqlite"
)

// readCounts counts a store's reads of accounts: one by one (AccountByID,
// Ratings) and many at once (Posters), of the open seeks, and of one
// account's blocks.
type readCounts struct{ account, ratings, posters, open, blockedWith atomic.Int64 }

func (n *readCounts) reset() {
	n.account.Store(0)
	n.ratings.Store(0)
	n.posters.Store(0)
	n.open.Store(0)
	n.blockedWith.Store(0)
}

// countedSQLite is a SQLite store that counts its reads (readCounts).
type countedSQLite struct {
	*sqlite.DB
	n *readCounts
}

func (c countedSQLite) AccountByID(ctx context.Context, id string) (store.Account, error) {
	c.n.account.Add(1)
	return c.DB.AccountByID(ctx, id)
}

func (c countedSQLite) Ratings(ctx context.Context, id string) (map[string]rating.Rating, error) {
	c.n.ratings.Add(1)
	return c.DB.Ratings(ctx, id)
}

func (c countedSQLite) Posters(ctx context.Context, ids []string) (map[string]store.Poster, error) {
	c.n.posters.Add(1)
	return c.DB.Posters(ctx, ids)
}

func (c countedSQLite) BlockedWith(ctx context.Context, account string) (map[string]bool, error) {
	c.n.blockedWith.Add(1)
	return c.DB.BlockedWith(ctx, account)
}

func (c countedSQLite) OpenSeeks(ctx context.Context, now time.Time) ([]store.Seek, error) {
	c.n.open.Add(1)
	return c.DB.OpenSeeks(ctx, now)
}

// countedPostgres is a PostgreSQL store that counts its reads.
type countedPostgres struct {
	*postgres.DB
	n *readCounts
}

func (c countedPostgres) AccountByID(ctx context.Context, id string) (store.Account, error) {
	c.n.account.Add(1)
	return c.DB.AccountByID(ctx, id)
}

func (c countedPostgres) Ratings(ctx context.Context, id string) (map[string]rating.Rating, error) {
	c.n.ratings.Add(1)
	return c.DB.Ratings(ctx, id)
}

func (c countedPostgres) Posters(ctx context.Context, ids []string) (map[string]store.Poster, error) {
	c.n.posters.Add(1)
	return c.DB.Posters(ctx, ids)
}

func (c countedPostgres) BlockedWith(ctx context.Context, account string) (map[string]bool, error) {
	c.n.blockedWith.Add(1)
	return c.DB.BlockedWith(ctx, account)
}

func (c countedPostgres) OpenSeeks(ctx context.Context, now time.Time) ([]store.Seek, error) {
	c.n.open.Add(1)
	return c.DB.OpenSeeks(ctx, now)
}

// countedStores opens a SQLite file and a fresh PostgreSQL, each
// counting its reads.
func countedStores(t *testing.T) map[string]func(t *testing.T) (Store, *readCounts) {
	return map[string]func(t *testing.T) (Store, *readCounts){
		"sqlite": func(t *testing.T) (Store, *readCounts) {
			st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"), nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			n := &readCounts{}
			return countedSQLite{st, n}, n
		},
		"postgres": func(t *testing.T) (Store, *readCounts) {
			n := &readCounts{}
			return countedPostgres{openPostgresURL(t, pgtest.Start(t)).(*postgres.DB), n}, n
		},
	}
}

// TestRefreshReadsOnce: with 40 players waiting in the pool and three
// seeks listed (one with a rating range), a refresh of the lobby's
// sockets (one anonymous, one signed in) reads the posters' accounts and
// ratings, and the sockets' players', in one read, none one by one and
// nothing of the tickets, which no list shows; the lists are as before:
// the posters named, the range kept. (Before: an account and a rating
// read for each of the 43 open seeks and the range's reader: 87 reads
// a refresh.) On a SQLite file and on PostgreSQL.
func TestRefreshReadsOnce(t *testing.T) {
	for name, open := range countedStores(t) {
		t.Run(name, func(t *testing.T) {
			st, n := open(t)
			s, ts := accountServerOn(t, st, noLimits)
			ctx := context.Background()
			ks := st.(store.Seeks)
			now := time.Now()
			var ids []string
			for i := range 43 {
				a := store.Account{ID: newID(), Username: fmt.Sprintf("Player%d", i), Key: fmt.Sprintf("player%d", i), Hash: "x", Created: now}
				se := store.Session{Key: []byte(newSecret()), Account: a.ID, Created: now, Used: now, Expires: now.Add(time.Hour)}
				if err := st.(store.Accounts).CreateAccount(ctx, a, se); err != nil {
					t.Fatal(err)
				}
				k := store.Seek{ID: newID(), Account: a.ID, Key: hashSecret(newSecret()), Address: fmt.Sprintf("192.0.2.%d", i), Initial: 180, Increment: 2,
					Speed: "blitz", Pool: i >= 3, Rating: 1500, Created: now, Expires: now.Add(seekTTL)}
				switch i {
				case 1:
					k.Min, k.Max = 1000, 2000
				case 2:
					k.Min, k.Max = 1600, 2000 // out of a new player's reach
				}
				if err := ks.CreateSeek(ctx, k); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, k.ID)
			}
			anon, signed := newBrowser(t, ts), newBrowser(t, ts)
			signed.signUp("Lan", "gà trống gáy sáng")
			la, ls := dialLobby(t, anon), dialLobby(t, signed)
			want := func(l *lobbyClient) {
				t.Helper()
				m := l.until("the list", func(m lobbyMsg) bool { return m.Type == "seeks" && listed(m.Seeks, ids[0]) })
				if len(m.Seeks) != 2 || !listed(m.Seeks, ids[1]) || m.Seeks[0].Poster == "anonymous" || m.Seeks[0].Rating == nil {
					t.Fatalf("the list: %+v, want seeks %s and %s, their posters named and rated", m.Seeks, ids[0], ids[1])
				}
			}
			want(la)
			want(ls)
			time.Sleep(200 * time.Millisecond) // the refreshes the sockets asked for are done
			n.reset()
			s.lobby.Changed()
			want(la)
			want(ls)
			time.Sleep(200 * time.Millisecond)
			if a, r := n.account.Load(), n.ratings.Load(); a != 0 || r != 0 {
				t.Errorf("refreshing read %d accounts and %d ratings one by one, want none", a, r)
			}
			if p, o := n.posters.Load(), n.open.Load(); o == 0 || p != o {
				t.Errorf("%d refreshes read the posters %d times, want once each", o, p)
			}
		})
	}
}

// burstRefreshes posts a burst of n quick-pairing tickets, ten at a
// time every 10 ms (loadgen's rated run: 2,000 over 30 s), to a server
// whose lobby refreshes at most every gap, with one lobby socket open,
// then a seek that is listed; it returns how many refreshes the burst
// cost, until the socket lists that seek, and how long that took.
func burstRefreshes(t *testing.T, n int, gap time.Duration) (int64, time.Duration) {
	st := memory.New()
	s := newServer(t, Config{Store: st, Limits: noLimits})
	s.lobby.SetGap(gap)
	ts := newTestServer(t, s)
	l := dialLobby(t, newBrowser(t, ts))
	l.until("the first list", func(m lobbyMsg) bool { return m.Type == "seeks" })
	ctx := context.Background()
	seek := func(i int, pool bool) store.Seek {
		now := time.Now()
		k := store.Seek{ID: newID(), Key: hashSecret(newSecret()), Address: fmt.Sprintf("10.%d.%d.1", i/250, i%250), Initial: 180, Increment: 2,
			Speed: "blitz", Pool: pool, Rating: 1500, Created: now, Expires: now.Add(seekTTL)}
		if err := st.CreateSeek(ctx, k); err != nil {
			t.Fatal(err)
		}
		s.lobbyChanged(k.ID)
		return k
	}
	before := s.lobby.Refreshes()
	start := time.Now()
	for i := range n {
		seek(i, true)
		if i%10 == 9 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	last := seek(n, false)
	l.lists(last.ID, true)
	return s.lobby.Refreshes() - before, time.Since(start)
}

// TestRefreshesCoalesce: a burst of 2,000 tickets, each a change of the
// lobby, costs at most a refresh every lobby.RefreshGap (and one more), not a
// refresh a change, and the socket still gets the list after the last
// change. The same burst with no gap (as before) is logged beside: on a
// store as fast as Memory, about a refresh a change.
func TestRefreshesCoalesce(t *testing.T) {
	if testing.Short() {
		t.Skip("a burst of 2,000 tickets over about 2 s, twice")
	}
	n0, d0 := burstRefreshes(t, 2000, 0)
	n, d := burstRefreshes(t, 2000, lobby.RefreshGap)
	t.Logf("2,000 tickets: %d refreshes in %v with no gap (before); %d in %v with %v", n0, d0.Round(time.Millisecond), n, d.Round(time.Millisecond), lobby.RefreshGap)
	if most := int64(d/lobby.RefreshGap) + 2; n > most {
		t.Errorf("2,000 tickets in %v cost %d refreshes, want at most %d (one every %v)", d, n, most, lobby.RefreshGap)
	}
}

// TestPairHeldReadsOnce: a round of pairing the 30 tickets held on a
// server's lobby sockets (none within reach of another but two) reads
// the open seeks once (the round's own) and the blocks of all their
// players in one read, not the seeks and the blocks again for each
// ticket; the two within reach are paired, and told so. (Before: 30
// reads of the open seeks and 30 of blocks a round, every second.) On a
// SQLite file and on PostgreSQL.
func TestPairHeldReadsOnce(t *testing.T) {
	for name, open := range countedStores(t) {
		t.Run(name, func(t *testing.T) {
			st, n := open(t)
			s, ts := accountServerOn(t, st, noLimits)
			ctx := context.Background()
			ks := st.(store.Seeks)
			l := dialLobby(t, newBrowser(t, ts))
			now := time.Now()
			var near []string
			for i := range 30 {
				a := store.Account{ID: newID(), Username: fmt.Sprintf("Player%d", i), Key: fmt.Sprintf("player%d", i), Hash: "x", Created: now}
				se := store.Session{Key: []byte(newSecret()), Account: a.ID, Created: now, Used: now, Expires: now.Add(time.Hour)}
				if err := st.(store.Accounts).CreateAccount(ctx, a, se); err != nil {
					t.Fatal(err)
				}
				r := 1000 + 1000*float64(i) // far apart
				if i == 29 {
					r = 1050 // within reach of the first
				}
				secret := newSecret()
				k := store.Seek{ID: newID(), Account: a.ID, Key: hashSecret(secret), Address: fmt.Sprintf("192.0.2.%d", i), Initial: 180, Increment: 2,
					Speed: "blitz", Pool: true, Rating: r, Created: now, Expires: now.Add(seekTTL)}
				if i == 0 || i == 29 {
					near = append(near, k.ID)
				}
				if err := ks.CreateSeek(ctx, k); err != nil {
					t.Fatal(err)
				}
				l.hold(api.SeekPosted{SeekView: api.SeekView{ID: k.ID}, Secret: secret})
			}
			time.Sleep(200 * time.Millisecond) // the holds' refreshes are done
			all, err := ks.OpenSeeks(ctx, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			n.reset()
			s.lobby.PairHeld(all)
			// The server's own round (every second) may run meanwhile: one
			// read of the open seeks more.
			if o, b := n.open.Load(), n.blockedWith.Load(); o > 1 || b != 0 {
				t.Errorf("a round of pairing 30 held tickets read the open seeks %d times and one account's blocks %d times, want none but the round's own", o, b)
			}
			got := map[string]string{}
			for range 2 {
				m := l.until("paired", func(m lobbyMsg) bool { return m.Type == "paired" })
				got[m.Seek] = m.Game
			}
			if g := got[near[0]]; g == "" || got[near[1]] != g {
				t.Errorf("paired %v, want %v in one game", got, near)
			}
		})
	}
}
