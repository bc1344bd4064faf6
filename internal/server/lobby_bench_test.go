package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"oanquan/internal/lobby"

	"oanquan/internal/store/pgtest"
	"oanquan/internal/store/postgres"
)

// BenchmarkLobbyFanout measures how long a seek posted takes to reach
// 1,000 anonymous lobby sockets over loopback (each op: post one seek,
// wait until every socket has a list holding it), on a SQLite file. The
// time is reported per op, and as ms-to-all (the median), with cpu-ms.
func BenchmarkLobbyFanout(b *testing.B) {
	f := newFanout(b, openSQLiteFile(b), 1000, false)
	b.ResetTimer()
	f.run(b)
}

// BenchmarkLobbyFanoutSignedIn measures a change of the lobby (a seek
// posted) reaching 1,000 lobby sockets over loopback, on PostgreSQL:
// "anonymous" sockets, for scale; then 1,000 sockets each signed in to an
// account of its own (ten of them in blocks), the blocks read "each" per
// socket (BlockedWith, as the lobby did before) or "once" for all the
// sockets (BlockedAmong, as it does now), on the same server and sockets.
// Reported: the median ms-to-all, and the median CPU time of this
// process (the server and the 1,000 clients) per change, cpu-ms.
//
//	go test ./internal/server -run '^$' -bench LobbyFanoutSignedIn -benchtime 30x
func BenchmarkLobbyFanoutSignedIn(b *testing.B) {
	const n = 1000
	anon := newFanout(b, postgresStore(b), n, false)
	b.Run("anonymous", anon.run)
	signed := newFanout(b, postgresStore(b), n, true)
	hub := signed.s.lobby
	b.Run("each", func(b *testing.B) {
		hub.SetBlocksReader(func(ctx context.Context, accounts []string) (map[string]map[string]bool, error) {
			out := map[string]map[string]bool{}
			for _, a := range accounts {
				blocked, err := signed.s.blockedWith(ctx, a)
				if err != nil {
					return nil, err
				}
				out[a] = blocked
			}
			return out, nil
		})
		defer hub.SetBlocksReader(nil)
		signed.run(b)
	})
	b.Run("once", signed.run)
}

// postgresStore opens a store on a new PostgreSQL database.
func postgresStore(b *testing.B) Store {
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	st, err := postgres.Open(ctx, pgtest.Start(b), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// fanout is a server with n lobby sockets, each sending seen the ids of
// the seeks it finds in its lists for the first time.
type fanout struct {
	s    *Server
	ts   *httptest.Server
	n    int
	seen chan string
}

// newFanout serves s on st with n lobby sockets (signed in, each to an
// account of its own, ten of which block another, if signedIn); all are
// closed when b ends.
func newFanout(b *testing.B, st Store, n int, signedIn bool) *fanout {
	lim := noLimits
	lim.Sockets = 2 * n
	lim.Seeks = Rate{PerMinute: math.Inf(1)}
	s := newServer(b, Config{Store: st, Limits: lim, MaxSockets: 2 * n, Accounts: Accounts{Hashing: fastHashing}})
	ts := httptest.NewServer(s)
	b.Cleanup(ts.Close)
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	f := &fanout{s: s, ts: ts, n: n, seen: make(chan string, 4*n)}
	for i := range n {
		opts := &websocket.DialOptions{}
		if signedIn {
			jar, _ := cookiejar.New(nil)
			opts.HTTPClient = &http.Client{Jar: jar, Timeout: guard}
			name := fmt.Sprintf("p%04d", i)
			resp, err := opts.HTTPClient.Post(ts.URL+"/api/accounts", "application/json", strings.NewReader(`{"username":"`+name+`","password":"gà trống gáy sáng"}`))
			if err != nil {
				b.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusCreated {
				b.Fatalf("signing up %s: %s", name, resp.Status)
			}
			if i%100 == 1 {
				resp, err := opts.HTTPClient.Post(ts.URL+fmt.Sprintf("/api/me/blocks/p%04d", i-1), "", nil)
				if err != nil {
					b.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusNoContent {
					b.Fatalf("blocking: %s", resp.Status)
				}
			}
		}
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/lobby/ws", opts)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.CloseNow() })
		c.SetReadLimit(1 << 20)
		go func() {
			known := map[string]bool{}
			for {
				_, data, err := c.Read(ctx)
				if err != nil {
					return
				}
				var m lobbyMsg
				if json.Unmarshal(data, &m) != nil || m.Type != "seeks" {
					continue
				}
				for _, v := range m.Seeks {
					if !known[v.ID] {
						known[v.ID] = true
						f.seen <- v.ID
					}
				}
			}
		}()
	}
	waitSockets(b, s, n)
	return f
}

// run posts b.N seeks, one at a time, each once every socket heard of
// the last, and reports the median ms-to-all and cpu-ms.
func (f *fanout) run(b *testing.B) {
	client := &http.Client{Timeout: guard}
	var took, cpu []time.Duration
	for i := 0; i < b.N; i++ {
		start, cpu0 := time.Now(), cpuTime()
		resp, err := client.Post(f.ts.URL+"/api/seeks", "application/json", strings.NewReader(`{"clock":{"initial":180,"increment":2}}`))
		if err != nil {
			b.Fatal(err)
		}
		var k struct{ ID, Secret string }
		json.NewDecoder(resp.Body).Decode(&k)
		resp.Body.Close()
		for heard := 0; heard < f.n; {
			select {
			case id := <-f.seen:
				if id == k.ID {
					heard++
				}
			case <-time.After(guard):
				b.Fatalf("%d sockets of %d heard of the seek", heard, f.n)
			}
		}
		took, cpu = append(took, time.Since(start)), append(cpu, cpuTime()-cpu0)
		b.StopTimer()
		f.s.store.(interface {
			DeleteSeek(context.Context, string) error
		}).DeleteSeek(context.Background(), k.ID) // room under the address's 5 open
		time.Sleep(lobby.RefreshGap) // the next change is not held back by this one's refresh
		b.StartTimer()
	}
	b.ReportMetric(median(took), "ms-to-all")
	b.ReportMetric(median(cpu), "cpu-ms")
}

// median returns the median of ds, in milliseconds.
func median(ds []time.Duration) float64 {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return float64(ds[len(ds)/2]) / float64(time.Millisecond)
}

// cpuTime returns the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
