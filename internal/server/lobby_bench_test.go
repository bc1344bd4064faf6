package server

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// BenchmarkLobbyFanout measures how long a seek posted takes to reach
// 1,000 lobby sockets over loopback (each op: post one seek, wait until
// every socket has a list holding it), on a SQLite file. The time is
// reported per op, and as ms-to-all.
func BenchmarkLobbyFanout(b *testing.B) {
	const n = 1000
	lim := noLimits
	lim.Sockets = 2 * n
	lim.Seeks = Rate{PerMinute: math.Inf(1)}
	s := newServer(b, Config{Store: openSQLiteFile(b), Limits: lim, MaxSockets: 2 * n})
	ts := httptest.NewServer(s)
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := make(chan string, 4*n) // each socket sends each seek id it first finds in a list
	for range n {
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/lobby/ws", nil)
		if err != nil {
			b.Fatal(err)
		}
		defer c.CloseNow()
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
						seen <- v.ID
					}
				}
			}
		}()
	}
	waitSockets(b, s, n)
	client := &http.Client{Timeout: guard}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		resp, err := client.Post(ts.URL+"/api/seeks", "application/json", strings.NewReader(`{"clock":{"initial":180,"increment":2}}`))
		if err != nil {
			b.Fatal(err)
		}
		var k struct{ ID, Secret string }
		json.NewDecoder(resp.Body).Decode(&k)
		resp.Body.Close()
		for heard := 0; heard < n; {
			select {
			case id := <-seen:
				if id == k.ID {
					heard++
				}
			case <-time.After(guard):
				b.Fatalf("%d sockets of %d heard of the seek", heard, n)
			}
		}
		b.StopTimer()
		s.store.(interface {
			DeleteSeek(context.Context, string) error
		}).DeleteSeek(context.Background(), k.ID) // room under the address's 5 open
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms-to-all")
}
