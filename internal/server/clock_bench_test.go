package server

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"oanquan/internal/match"
	"oanquan/internal/store/sqlite"
	"oanquan/internal/wire"
)

// BenchmarkClockMoves is the cost of a clock on a move through the
// server: 1,000 online games live, with a 3+2 clock or none, on SQLite
// and on PostgreSQL, moves played one after another in each game in
// turn (each game's timer set again at each of its moves).
func BenchmarkClockMoves(b *testing.B) {
	for _, where := range []string{"sqlite", "postgres"} {
		for _, tc := range []*match.TimeControl{nil, {Initial: 180 * time.Second, Increment: 2 * time.Second}} {
			name := where + "/none"
			if tc != nil {
				name = where + "/3+2"
			}
			b.Run(name, func(b *testing.B) { benchClockMoves(b, where, tc) })
		}
	}
}

// benchGame is one game of BenchmarkClockMoves: its id, seats' secrets
// and state.
type benchGame struct {
	id      string
	secrets [2]string
	st      wire.Game
}

func benchClockMoves(b *testing.B, where string, tc *match.TimeControl) {
	var st Store
	if where == "sqlite" {
		sq, err := sqlite.Open(context.Background(), b.TempDir()+"/games.db", nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { sq.Close() })
		st = sq
	} else {
		st, _ = postgresPair(b)
	}
	s := newServer(b, Config{Store: st, MaxLive: 2000})
	newGame := func() *benchGame {
		g := &benchGame{secrets: [2]string{newSecret(), newSecret()}}
		m, err := s.newMatch(context.Background(), "", match.Config{Mode: match.Online, Clock: tc, Created: time.Now()},
			[2][]byte{hashSecret(g.secrets[0]), hashSecret(g.secrets[1])}, [2]string{})
		if err != nil {
			b.Fatal(err)
		}
		g.id = m.ID()
		state := m.State()
		g.st = wire.GameOf(&state)
		return g
	}
	games := make([]*benchGame, 1000)
	for i := range games {
		games[i] = newGame()
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		g := games[i%len(games)]
		if g.st.Over {
			g = newGame()
			games[i%len(games)] = g
		}
		req := httptest.NewRequest("POST", "/api/games/"+g.id+"/moves", strings.NewReader(`{"move":"`+g.st.Legal[0]+`"}`))
		req.Header.Set("Authorization", "Bearer "+g.secrets[g.st.ToMove])
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		var turn wire.Turn
		if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &turn) != nil {
			b.Fatalf("move: %d %s", w.Code, w.Body)
		}
		g.st = turn.State
		i++
	}
}
