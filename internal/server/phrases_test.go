package server

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"oanquan/internal/wire"
)

// send writes a message on w.
func (w *wsClient) send(msg string) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		w.t.Fatal(err)
	}
}

// skipTo reads w's messages up to one of type typ, passing over the
// game's presence and states.
func (w *wsClient) skipTo(typ string) wire.Message {
	w.t.Helper()
	for {
		m := w.next()
		switch m.Type {
		case typ:
			return m
		case "presence", "state":
		default:
			w.t.Fatalf("message %+v, want a %s", m, typ)
		}
	}
}

// settle pings w and reads up to the pong: every message w sent before
// has been read by the server, and nothing but presence and states came
// meanwhile.
func (w *wsClient) settle() {
	w.t.Helper()
	w.send(`{"type":"ping"}`)
	w.skipTo("pong")
}

// wantPhrase reads the phrase message of seat's phrase on each of ws.
func wantPhrase(t *testing.T, seat int, phrase string, ws ...*wsClient) {
	t.Helper()
	for i, w := range ws {
		m := w.skipTo("phrase")
		if m.Seat == nil || *m.Seat != seat || m.Phrase != phrase || m.Reason != "" {
			t.Errorf("socket %d: %+v, want seat %d's %s", i, m, seat, phrase)
		}
	}
}

// wantRefused reads the refusal of phrase for reason on w.
func wantRefused(t *testing.T, w *wsClient, phrase, reason string) {
	t.Helper()
	m := w.skipTo("phrase_refused")
	if m.Phrase != phrase || m.Reason != reason || m.Seat != nil {
		t.Errorf("refusal %+v, want %q refused: %s", m, phrase, reason)
	}
}

// phraseGame makes an online game on s and connects its two players and
// a watcher to ts, each settled.
func phraseGame(t *testing.T, s *Server, ts *httptest.Server) (id string, a, b player, wa, wb, ww *wsClient) {
	t.Helper()
	id, a, b = onlineGame(t, s, `{"mode":"online"}`)
	wa, wb, ww = dial(t, ts, id), dial(t, ts, id), dial(t, ts, id)
	hello(t, wa, a)
	hello(t, wb, b)
	ww.send(`{"type":"hello"}`)
	for _, w := range []*wsClient{wa, wb, ww} {
		w.settle()
	}
	return
}

// TestPhrases: a player's preset phrase reaches every socket of the
// game, its own and a watcher's; a second within the gap, an unknown
// one, a watcher's and one in a game against the computer are refused to
// the sender alone, with the reason; the 21st of a seat is refused; the
// game does not change.
func TestPhrases(t *testing.T) {
	s := newServer(t, Config{})
	s.phraseGap = time.Hour
	ts := newTestServer(t, s)
	id, a, b, wa, wb, ww := phraseGame(t, s, ts)
	before := get(t, s, id)

	wa.send(`{"type":"phrase","phrase":"hello"}`)
	wantPhrase(t, a.seat, "hello", wa, wb, ww)
	wb.send(`{"type":"phrase","phrase":"good_luck"}`)
	wantPhrase(t, b.seat, "good_luck", wa, wb, ww)

	wa.send(`{"type":"phrase","phrase":"thanks"}`) // within the gap
	wantRefused(t, wa, "thanks", "rate_limited")
	wb.send(`{"type":"phrase","phrase":"you are bad at this game, and slow"}`)
	wantRefused(t, wb, "you are bad at this game", "unknown")
	wb.send(`{"type":"phrase","phrase":"Hello"}`)
	wantRefused(t, wb, "Hello", "unknown")
	ww.send(`{"type":"phrase","phrase":"well_played"}`)
	wantRefused(t, ww, "well_played", "not_a_player")
	for _, w := range []*wsClient{wa, wb, ww} {
		w.settle() // nothing else came: the refusals went to their senders only
	}
	unchanged(t, s, before)

	// Against the computer, nobody to say it to.
	g := create(t, s, map[string]any{"mode": "ai"})
	wc := dial(t, ts, g.ID)
	secret, _ := secrets.Load(g.ID)
	hello(t, wc, player{secret: secret.(string)})
	wc.settle()
	wc.send(`{"type":"phrase","phrase":"hello"}`)
	wantRefused(t, wc, "hello", "not_a_player")

	// Twenty a seat in a game, then no more.
	s2 := newServer(t, Config{})
	s2.phraseGap = 0
	ts2 := newTestServer(t, s2)
	_, a2, _, wa2, wb2, _ := phraseGame(t, s2, ts2)
	for range phraseMost {
		wa2.send(`{"type":"phrase","phrase":"good_game"}`)
		wantPhrase(t, a2.seat, "good_game", wa2, wb2)
	}
	wa2.send(`{"type":"phrase","phrase":"good_game"}`)
	wantRefused(t, wa2, "good_game", "rate_limited")
	wb2.send(`{"type":"phrase","phrase":"thanks"}`) // the other seat has its own count
	wantPhrase(t, 1-a2.seat, "thanks", wa2, wb2)
}

// TestTwoServersPhrases: the players of an online game are connected to
// two servers sharing one PostgreSQL database; each one's phrase reaches
// the other's socket and the watcher's, across the servers, and a seat's
// limit holds over both servers (a second socket of the same player on
// the other server is refused within the gap).
func TestTwoServersPhrases(t *testing.T) {
	a, _, ta, tb := serverPair(t)
	id, pa, pb := onlineGame(t, a, `{"mode":"online"}`)
	wa, wb, ww := dial(t, ta, id), dial(t, tb, id), dial(t, tb, id)
	hello(t, wa, pa)
	hello(t, wb, pb)
	ww.send(`{"type":"hello"}`)
	for _, w := range []*wsClient{wa, wb, ww} {
		w.settle()
	}
	start := time.Now()
	wb.send(`{"type":"phrase","phrase":"thanks"}`)
	wantPhrase(t, pb.seat, "thanks", wa)
	t.Logf("a phrase said on one server reached the other's socket in %v", time.Since(start))
	wantPhrase(t, pb.seat, "thanks", wb, ww)

	wa.send(`{"type":"phrase","phrase":"hello"}`)
	wantPhrase(t, pa.seat, "hello", wa, wb, ww)
	// The same player on the other server: counted together.
	wa2 := dial(t, tb, id)
	hello(t, wa2, pa)
	wa2.settle()
	wa2.send(`{"type":"phrase","phrase":"good_game"}`)
	wantRefused(t, wa2, "good_game", "rate_limited")
	for _, w := range []*wsClient{wa, wb, ww} {
		w.settle()
	}
}

// FuzzGameSocketMessages sends arbitrary messages on a player's
// WebSocket: the socket lives on (a ping is still answered), the game
// does not change, and what comes back is a phrase of one of the five,
// a refusal with one of the reasons, or the game's presence and state.
func FuzzGameSocketMessages(f *testing.F) {
	for _, seed := range []string{`{"type":"phrase","phrase":"hello"}`, `{"type":"phrase","phrase":"gg"}`,
		`{"type":"phrase"}`, `{"type":"phrase","phrase":null}`, `{"type":"phrase","phrase":7}`, `{"type":"phrase","phrase":"\u0000"}`,
		`{"type":"hello","secret":"x"}`, `{"type":"ping"}`, `not json`, `{"type":"phrase","phrase":"` + "\xff\xfe" + `"}`} {
		f.Add(seed)
	}
	s := New(Config{Engine: first{}, Limits: Limits{Creates: Rate{PerMinute: 1e9, Burst: 1e6}, Hints: Rate{PerMinute: 1e9, Burst: 1e6}}})
	f.Cleanup(s.Close)
	s.phraseGap = 0
	ts := httptest.NewServer(s)
	f.Cleanup(ts.Close)
	f.Fuzz(func(t *testing.T, msg string) {
		if len(msg) > wsReadLimit || strings.Contains(msg, `"type":"hello"`) {
			return // a message too long closes the socket; a hello may change its seat
		}
		id, a, _ := onlineGame(t, s, `{"mode":"online"}`)
		w := dial(t, ts, id)
		hello(t, w, a)
		w.settle()
		before := get(t, s, id) // with the socket's presence
		w.send(msg)
		w.send(`{"type":"ping"}`)
		for {
			m := w.next()
			switch {
			case m.Type == "pong":
				unchanged(t, s, before)
				return
			case m.Type == "presence" || m.Type == "state":
			case m.Type == "phrase" && slices.Contains(wire.Phrases, m.Phrase) && m.Seat != nil && *m.Seat == a.seat:
			case m.Type == "phrase_refused" && slices.Contains([]string{"unknown", "rate_limited"}, m.Reason) && len([]rune(m.Phrase)) <= 24:
			default:
				t.Fatalf("after %q: message %+v", msg, m)
			}
		}
	})
}
