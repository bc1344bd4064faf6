package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// The players of oanquan loadgen: the API requests they send, the
// two-player games, the games against Hard, and --fill.

// The parts of the API's answers that the players read (docs/API.md).
type (
	gameState struct {
		ID     string   `json:"id"`
		Ply    int      `json:"ply"`
		ToMove int      `json:"toMove"`
		Legal  []string `json:"legal"`
		Over   bool     `json:"over"`
	}
	createdGame struct {
		gameState
		Secret string `json:"secret"`
		Seat   int    `json:"seat"`
	}
	joinedGame struct {
		Seat   int    `json:"seat"`
		Secret string `json:"secret"`
	}
	turnAnswer struct {
		Ply   int       `json:"ply"`
		By    string    `json:"by"`
		State gameState `json:"state"`
	}
	wsMessage struct {
		Type string      `json:"type"`
		Turn *turnAnswer `json:"turn"`
	}
	healthAnswer struct {
		Live   int `json:"live"`
		Queued int `json:"queued"`
	}
)

// loadError is a request that failed: its kind, as counted (the status
// as text, "409", or "transport", "bad_answer", "ws", "reply_timeout"),
// and what was said about it.
type loadError struct{ kind, detail string }

// maxDetail bounds the text kept of an error answer.
const maxDetail = 300

// request sends one API request and decodes a 2xx answer into out. It
// returns nil if it got one.
func (l *loadgen) request(ctx context.Context, method, path, secret string, body, out any) *loadError {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			panic(err) // loadgen's own types always marshal
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, l.cfg.base.String()+path, rd)
	if err != nil {
		return &loadError{"transport", err.Error()}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return &loadError{"transport", err.Error()}
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		detail, _ := io.ReadAll(io.LimitReader(resp.Body, maxDetail))
		io.Copy(io.Discard, resp.Body) // so that the connection is kept
		return &loadError{strconv.Itoa(resp.StatusCode), method + " " + path + ": " + string(detail)}
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return &loadError{"bad_answer", err.Error()}
	}
	io.Copy(io.Discard, resp.Body)
	return nil
}

// create makes a new game with the settings of body.
func (l *loadgen) create(ctx context.Context, body any) (createdGame, bool) {
	var g createdGame
	if err := l.request(ctx, "POST", "/api/games", "", body, &g); err != nil {
		l.fail(ctx, err)
		return g, false
	}
	if l.inWindow(time.Now()) {
		l.started.Add(1)
	}
	return g, true
}

// move plays mv in game g at ply; the answer's time is when it was read.
func (l *loadgen) move(ctx context.Context, g createdGame, mv string, ply int) (turnAnswer, time.Time, bool) {
	var t turnAnswer
	err := l.request(ctx, "POST", "/api/games/"+g.ID+"/moves", g.Secret, map[string]any{"move": mv, "ply": ply}, &t)
	now := time.Now()
	if err != nil {
		l.fail(ctx, err)
	}
	return t, now, err == nil
}

// health asks the server how it is: whether it answers, and its live
// games.
func (l *loadgen) health(ctx context.Context) (healthAnswer, error) {
	var h healthAnswer
	if err := l.request(ctx, "GET", "/api/health", "", nil, &h); err != nil {
		return h, fmt.Errorf("GET /api/health: %s", err.detail)
	}
	return h, nil
}

var (
	localGame = map[string]any{"mode": "local"}
	hardGame  = map[string]any{"mode": "ai", "level": "hard", "human": 0}
)

// playLocal plays one two-player game with random legal moves, each when
// p says, to its end or the first error. A move's latency is from when it
// was due to its answer: a server that falls behind a pace is not let
// off the moves it delayed.
func (l *loadgen) playLocal(ctx context.Context, rng *rand.Rand, p *pacer) {
	g, secrets, ok := l.createTwo(ctx)
	st := g.gameState
	for ok && !st.Over && len(st.Legal) > 0 {
		due, waited := p.wait(ctx)
		if !waited {
			return
		}
		g.Secret = secrets[st.ToMove]
		var t turnAnswer
		var at time.Time
		if t, at, ok = l.move(ctx, g, st.Legal[rng.IntN(len(st.Legal))], st.Ply); ok {
			if l.inWindow(at) {
				l.moves.record(at.Sub(due))
			}
			st = t.State
		}
	}
}

// createTwo makes a two-player game, local or (with --clock) online and
// joined, and returns it with the secret of each seat.
func (l *loadgen) createTwo(ctx context.Context) (createdGame, [2]string, bool) {
	if l.cfg.clock == nil {
		g, ok := l.create(ctx, localGame)
		return g, [2]string{g.Secret, g.Secret}, ok
	}
	body := map[string]any{"mode": "online"}
	if l.cfg.clock != "none" {
		body["clock"] = l.cfg.clock
	}
	g, ok := l.create(ctx, body)
	if !ok {
		return g, [2]string{}, false
	}
	var j joinedGame
	if err := l.request(ctx, "POST", "/api/games/"+g.ID+"/join", "", nil, &j); err != nil {
		l.fail(ctx, err)
		return g, [2]string{}, false
	}
	var secrets [2]string
	secrets[g.Seat], secrets[j.Seat] = g.Secret, j.Secret
	return g, secrets, true
}

// parseClockFlag reads --clock: nil for "", "none", or the JSON of the
// clock ("180+2": initial and increment; "3d": days per move).
func parseClockFlag(s string) (any, error) {
	switch {
	case s == "":
		return nil, nil
	case s == "none":
		return "none", nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil {
			return nil, fmt.Errorf(`want "180+2", "3d" or "none"`)
		}
		return map[string]int{"days": n}, nil
	}
	a, b, ok := strings.Cut(s, "+")
	initial, err1 := strconv.Atoi(a)
	inc, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return nil, fmt.Errorf(`want "180+2", "3d" or "none"`)
	}
	return map[string]int{"initial": initial, "increment": inc}, nil
}

// pacer says when one game's next move is due: at once, or at a steady
// pace whatever the answers' times. Not safe for concurrent use.
type pacer struct {
	every time.Duration // 0: at once
	next  time.Time
}

// newPacer paces one of games games moving rate times a second in all
// (0: as fast as answered), starting at a random point of its period so
// that the games do not move in step.
func newPacer(games int, rate float64, rng *rand.Rand) *pacer {
	if rate == 0 {
		return &pacer{}
	}
	every := time.Duration(float64(games) / rate * float64(time.Second))
	return &pacer{every: every, next: time.Now().Add(time.Duration(rng.Int64N(int64(every) + 1)))}
}

// wait waits until the next move is due and returns when that was; false
// if ctx ended first.
func (p *pacer) wait(ctx context.Context) (time.Time, bool) {
	if p.every == 0 {
		return time.Now(), ctx.Err() == nil
	}
	due := p.next
	p.next = due.Add(p.every)
	return due, sleepUntil(ctx, due)
}

// timedTurn is a computer's turn and when it arrived.
type timedTurn struct {
	turnAnswer
	at time.Time
}

// playHard plays one game against Hard, the human's move as soon as the
// computer's reply arrives on the game's WebSocket, and times each reply
// from the human's move answered to the computer's turn received.
func (l *loadgen) playHard(ctx context.Context, rng *rand.Rand) {
	g, ok := l.create(ctx, hardGame)
	if !ok {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	turns, err := l.computerTurns(ctx, g.ID)
	if err != nil {
		l.fail(ctx, &loadError{"ws", err.Error()})
		return
	}
	st := g.gameState
	for !st.Over && len(st.Legal) > 0 {
		t, answered, ok := l.move(ctx, g, st.Legal[rng.IntN(len(st.Legal))], st.Ply)
		if !ok {
			return
		}
		if l.inWindow(answered) {
			l.hardMvs.Add(1)
		}
		st = t.State
		for first := true; !st.Over && st.ToMove != 0; first = false {
			select {
			case ct, open := <-turns:
				if !open {
					l.fail(ctx, &loadError{"ws", "the WebSocket closed"})
					return
				}
				if first && l.inWindow(ct.at) {
					l.replies.record(max(ct.at.Sub(answered), 0))
				}
				st = ct.State
			case <-time.After(replyTimeout):
				l.fail(ctx, &loadError{"reply_timeout", fmt.Sprintf("no reply from the computer in %v", replyTimeout)})
				return
			case <-ctx.Done():
				return
			}
		}
	}
}

// computerTurns connects to game id's WebSocket and sends on the channel
// returned the computer's turns as they arrive, until ctx is done or the
// connection fails; then it closes the channel.
func (l *loadgen) computerTurns(ctx context.Context, id string) (<-chan timedTurn, error) {
	u := *l.cfg.base
	u.Scheme = strings.Replace(u.Scheme, "http", "ws", 1)
	u.Path = "/api/games/" + id + "/ws"
	c, _, err := websocket.Dial(ctx, u.String(), &websocket.DialOptions{HTTPClient: l.client})
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(1 << 20) // a turn carries the whole game's state
	out := make(chan timedTurn, 4)
	go func() {
		defer close(out)
		defer c.CloseNow()
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			at := time.Now()
			var m wsMessage
			if json.Unmarshal(data, &m) != nil || m.Type != "turn" || m.Turn == nil || m.Turn.By != "computer" {
				continue
			}
			select {
			case out <- timedTurn{*m.Turn, at}:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// fill makes n two-player games with fillMoves random moves each, a few
// at once, and returns how many it made.
func (l *loadgen) fill(ctx context.Context, n int) int64 {
	ctx, cancel := context.WithTimeout(ctx, maxFillTime)
	defer cancel()
	var next, made atomic.Int64
	var wg sync.WaitGroup
	for w := range min(n, fillWorkers) {
		rng := rand.New(rand.NewPCG(uint64(w), uint64(n)))
		wg.Go(func() {
			for ctx.Err() == nil && next.Add(1) <= int64(n) {
				g, ok := l.create(ctx, localGame)
				if !ok {
					continue
				}
				made.Add(1)
				st := g.gameState
				for range fillMoves {
					if st.Over || len(st.Legal) == 0 {
						break
					}
					t, _, ok := l.move(ctx, g, st.Legal[rng.IntN(len(st.Legal))], st.Ply)
					if !ok {
						break
					}
					st = t.State
				}
			}
		})
	}
	wg.Wait()
	return made.Load()
}
