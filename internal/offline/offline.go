// Package offline plays games in the browser, with no server: the engine
// that cmd/engine-wasm compiles to WebAssembly and the page runs in a Web
// Worker when the server cannot be reached (docs/OFFLINE.md). It answers
// the calls of docs/API.md as the server would, for games against the
// computer and for two players on one device: the same routes, the same
// operations and the same JSON, from package api, with the engine as
// their host. What needs the server (games online, joining, the
// WebSocket) is refused with 501 "not_offline". It sends each game's
// updates as the server's WebSocket would.
//
//	e := offline.New(func(u offline.Update) { … }) // turns, thinking
//	a := e.Do(offline.Request{Method: "POST", Path: "/api/games", Body: []byte(`{"mode":"ai"}`)})
//	// a.Status is 201, a.Body the new game (as the server's answer), a.Saved what to keep of it
//	a = e.Do(offline.Request{Method: "POST", Path: "/api/games/" + a.Saved.ID + "/moves",
//		Body: []byte(`{"move":"7R"}`), Game: a.Saved})
//
// The browser keeps the games, not the engine: every answer about a game
// and every update carries the game as Saved (its settings and moves),
// and a request may carry it back, so that a game is rebuilt by
// replaying its moves after a reload. The engine holds no rules of its
// own: it runs internal/match.
package offline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	mrand "math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"oanquan/ai"
	"oanquan/ai/endgames"
	"oanquan/internal/api"
	"oanquan/internal/match"
	"oanquan/internal/wire"
	"oanquan/notation"
	"oanquan/rules"
)

// MoveTime is the computer's time per move, as on the server
// (server.DefaultMoveTime): Easy and Medium take far less.
const MoveTime = 300 * time.Millisecond

// IDPrefix starts the id of every game made in the browser.
const IDPrefix = "local-"

// Saved is what the browser keeps of a game to rebuild it.
type Saved struct {
	ID       string   `json:"id"`
	Mode     string   `json:"mode"`  // "ai" or "local"
	Level    string   `json:"level"` // "easy", "medium" or "hard"
	Human    int      `json:"human"`
	First    int      `json:"first"`
	Variants []string `json:"variants"`
	Start    string   `json:"start,omitempty"` // the start position in notation, if not the usual one
	Moves    []string `json:"moves"`
	Seed     uint32   `json:"seed"`              // the computer's (a JavaScript number holds it exactly)
	Created  string   `json:"created,omitempty"` // RFC 3339
}

// Request is one call of the page's: an API call as it would make it to
// the server (Method, Path, Body), with the game as the page keeps it,
// or one of the engine's own (Op).
type Request struct {
	Method string          `json:"method"` // an API call: GET, POST, PUT
	Path   string          `json:"path"`   // its path and query: /api/games/local-1a2b/review?ply=3
	Body   json.RawMessage `json:"body"`   // its JSON body; absent or null: none
	Game   *Saved          `json:"game"`   // the game as kept: rebuilt from it if this engine does not hold it

	// Op is one of the engine's own requests, with no Method: adopt,
	// close, search or endgames (which table the engine reads:
	// {"pebbles": N}, 0 for none).
	Op     string         `json:"op"`
	ID     string         `json:"id"`     // close
	State  *wire.Game     `json:"state"`  // adopt: a game of the server's, as it last said, to carry on here
	Search *SearchRequest `json:"search"` // search
}

// SearchRequest asks for one search of the computer's, for measuring
// the engine in the browser (docs/OFFLINE.md): not a game's.
type SearchRequest struct {
	Position string `json:"position"` // notation; "": the start
	Level    string `json:"level"`    // "": hard
	MoveTime int    `json:"moveTime"` // milliseconds; 0: MoveTime
}

// SearchResult is the answer to a SearchRequest.
type SearchResult struct {
	Move    string `json:"move"`
	Score   int    `json:"score"`
	Proven  bool   `json:"proven"`            // Score is exact (ai.Result)
	Verdict string `json:"verdict,omitempty"` // what a proven Score means: "wins by 4 with best play"
	Depth   int    `json:"depth"`
	Nodes   int64  `json:"nodes"`
	MS      int64  `json:"ms"` // how long it took
}

// Answer is what the server would have answered: a status, and the JSON
// (or, for record, the text) of its body.
type Answer struct {
	Status int    `json:"status"`
	Body   any    `json:"body"`
	Saved  *Saved `json:"saved,omitempty"` // the game to keep, after a change
}

// Update is a message about one game, as the server's WebSocket sends it,
// with the game to keep after a turn.
type Update struct {
	ID      string       `json:"id"`
	Message wire.Message `json:"message"`
	Saved   *Saved       `json:"saved,omitempty"`
}

// errorBody is the body of a refusal, as docs/API.md has it.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Engine holds the games being played in this browser. Create one with
// New; it is safe for concurrent use.
type Engine struct {
	send func(Update)
	// tables is the endgame table the searches read, or nil: set once it
	// has been fetched (SetEndgames).
	tables atomic.Pointer[endgames.Table]

	mu    sync.Mutex
	games map[string]*game
	order []string // the ids of games, the least recently started first
}

// maxLive is how many games an engine keeps live: the page shows one at
// a time, and a game closed is rebuilt from what the page kept when it
// is asked for again.
const maxLive = 4

// game is one live game and what is kept of it.
type game struct {
	m       *match.Match
	seed    uint32
	created time.Time
}

// New returns an engine that calls send with every update of its games
// (turns, the computer thinking, states after an undo or a level
// change). send is called from the engine's own goroutines, one game's
// updates in order.
func New(send func(Update)) *Engine {
	return &Engine{send: send, games: make(map[string]*game)}
}

// Do answers one request. It blocks while hints are searched; a
// computer's move comes later, as an Update.
func (e *Engine) Do(q Request) Answer {
	if q.Op == "" {
		return e.serve(q)
	}
	a, err := e.do(q)
	if err != nil {
		return refusal(err)
	}
	return a
}

// do answers one of the engine's own requests.
func (e *Engine) do(q Request) (Answer, error) {
	switch q.Op {
	case "adopt":
		g, err := e.adopt(q.State)
		if err != nil {
			return Answer{}, err
		}
		return e.answer(g, 200, nil)
	case "close":
		e.close(q.ID)
		return Answer{Status: 204}, nil
	case "endgames":
		n := 0
		if t := e.tables.Load(); t != nil {
			n = t.Pebbles()
		}
		return Answer{Status: 200, Body: map[string]int{"pebbles": n}}, nil
	case "search":
		r, err := search(q.Search, e.tables.Load())
		if err != nil {
			return Answer{}, err
		}
		return Answer{Status: 200, Body: r}, nil
	}
	return Answer{}, api.Fail(api.ErrBadRequest, "unknown request %s", api.Short(q.Op))
}

// answer is the game's state (or body, if not nil) and the game to keep.
func (e *Engine) answer(g *game, status int, body any) (Answer, error) {
	st := g.m.State()
	if body == nil {
		body = wire.GameOf(&st)
	}
	s := g.saved(&st)
	return Answer{Status: status, Body: body, Saved: &s}, nil
}

// game returns the game id, rebuilt from saved if the engine does not
// hold it.
func (e *Engine) game(id string, saved *Saved) (*game, error) {
	if g := e.live(id); g != nil {
		return g, nil
	}
	if saved == nil || saved.ID != id {
		return nil, api.Fail(api.ErrNotFound, "no such game")
	}
	cfg, err := config(*saved)
	if err != nil {
		return nil, err
	}
	cfg.ID = id
	created, _ := time.Parse(time.RFC3339, saved.Created)
	return e.start(cfg, saved.Seed, created)
}

// hostable reports whether a game of mode can be played in the browser:
// any known mode whose seats are not players on other devices.
func hostable(mode string) bool {
	pol, err := match.PolicyOf(match.Mode(mode))
	return mode != "" && err == nil && !pol.Online
}

// adopt carries on a game of the server's from its last state: the same
// id, settings and moves. Its start is the usual one when replaying its
// moves from there gives its position, else (a game set up from a
// position) its position, with no moves to undo.
func (e *Engine) adopt(st *wire.Game) (*game, error) {
	if st == nil || st.ID == "" || !hostable(st.Mode) {
		return nil, api.Fail(api.ErrBadRequest, "only a game against the computer or of two players on one device can be carried on here")
	}
	s := Saved{ID: st.ID, Mode: st.Mode, Level: st.Level, Human: st.Human, First: st.First, Variants: st.Variants, Moves: st.Moves}
	cfg, err := config(s)
	if err == nil {
		var m *match.Match
		if m, err = match.New(match.Config{Mode: match.Local, Rules: cfg.Rules, Moves: cfg.Moves}); err == nil {
			end := m.State()
			m.Close()
			if notation.FormatPosition(end.Position) != st.Position {
				err = errors.New("set up from a position")
			}
		}
	}
	if err != nil {
		s.Moves, s.Start = nil, st.Position
		if p, perr := notation.ParsePosition(st.Position); perr == nil {
			s.First = int(p.ToMove)
		}
		if cfg, err = config(s); err != nil {
			return nil, err
		}
	}
	e.close(st.ID)
	cfg.ID = st.ID
	return e.start(cfg, mrand.Uint32(), time.Now())
}

// SetEndgames gives the engine an endgame table: the computer at Hard,
// the hints and the reviews read it from then on, as on the server. The
// engine in the browser receives it from the page's service worker
// (docs/OFFLINE.md); nil takes it away.
func (e *Engine) SetEndgames(t *endgames.Table) { e.tables.Store(t) }

// search runs one search of the computer's, reading the table tb if not
// nil.
func search(q *SearchRequest, tb *endgames.Table) (SearchResult, error) {
	if q == nil {
		q = &SearchRequest{}
	}
	var r rules.Rules
	pos := r.Start()
	if q.Position != "" {
		p, err := notation.ParsePosition(q.Position)
		if err != nil {
			return SearchResult{}, api.Fail(api.ErrBadRequest, "position: %v", err)
		}
		pos = p
	}
	lim := ai.Limits{Level: ai.Hard, MoveTime: time.Duration(q.MoveTime) * time.Millisecond, Rules: r, Endgames: tb}
	if lim.MoveTime == 0 {
		lim.MoveTime = MoveTime
	}
	if q.Level != "" {
		l, err := ai.ParseLevel(q.Level)
		if err != nil {
			return SearchResult{}, api.Fail(api.ErrBadRequest, "level: unknown %q", q.Level)
		}
		lim.Level = l
	}
	start := time.Now()
	res, err := ai.Search(context.Background(), pos, lim)
	if err != nil {
		return SearchResult{}, err
	}
	return SearchResult{Move: notation.FormatMove(res.Move), Score: res.Score, Proven: res.Proven, Verdict: res.Verdict(), Depth: res.Depth, Nodes: res.Nodes, MS: time.Since(start).Milliseconds()}, nil
}

// config checks a kept game's settings and moves, filling in defaults,
// with the API's own parser of settings.
func config(s Saved) (match.Config, error) {
	human := s.Human
	q := api.Settings{Mode: s.Mode, Level: s.Level, Human: &human, First: api.SeatOf(s.First), Variants: s.Variants, Position: s.Start}
	cfg, err := q.Config()
	if err != nil {
		return cfg, err
	}
	if pol, _ := match.PolicyOf(cfg.Mode); pol.Online {
		return cfg, errOnline
	}
	cfg.MoveTime = MoveTime
	cfg.Moves, err = api.ParseMoves(s.Moves)
	return cfg, err
}

// errOnline refuses a game between players online: the server's.
var errOnline = api.Fail(api.ErrNotOffline, "a game between players online needs the server")

// start makes a live game of cfg and forwards its updates.
func (e *Engine) start(cfg match.Config, seed uint32, created time.Time) (*game, error) {
	cfg.Seed = uint64(seed)
	cfg.Created = created
	cfg.Engine = tableEngine{e}
	m, err := match.New(cfg)
	if err != nil {
		return nil, err
	}
	sub, err := m.Subscribe()
	if err != nil {
		return nil, err
	}
	<-sub.C // the state as it starts: the caller answers with it
	g := &game{m: m, seed: seed, created: created}
	for _, old := range e.put(cfg.ID, g) {
		if old != nil {
			old.m.Close()
		}
	}
	go e.forward(g, sub)
	return g, nil
}

// live returns the game id, or nil if it is not live here.
func (e *Engine) live(id string) *game {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.games[id]
}

// put makes g the live game id, and returns the games it puts out: the
// one it replaces and the least recently started beyond maxLive.
func (e *Engine) put(id string, g *game) []*game {
	e.mu.Lock()
	defer e.mu.Unlock()
	closing := []*game{e.games[id]}
	e.games[id] = g
	e.order = append(slices.DeleteFunc(e.order, func(x string) bool { return x == id }), id)
	for len(e.order) > maxLive {
		closing = append(closing, e.games[e.order[0]])
		delete(e.games, e.order[0])
		e.order = e.order[1:]
	}
	return closing
}

// forward sends a game's updates until it is closed.
func (e *Engine) forward(g *game, sub *match.Subscription) {
	for u := range sub.C {
		up := Update{ID: g.m.ID(), Message: wire.MessageOf(u)}
		if u.Kind != match.ThinkingUpdate {
			st := g.m.State()
			s := g.saved(&st)
			up.Saved = &s
		}
		e.send(up)
	}
}

// close ends the game id, if live here: the browser keeps it.
func (e *Engine) close(id string) {
	if g := e.take(id); g != nil {
		g.m.Close()
	}
}

// take takes the game id out of the live games, and returns it (nil if
// it was not live).
func (e *Engine) take(id string) *game {
	e.mu.Lock()
	defer e.mu.Unlock()
	g := e.games[id]
	delete(e.games, id)
	e.order = slices.DeleteFunc(e.order, func(x string) bool { return x == id })
	return g
}

// saved returns what to keep of the game in state st.
func (g *game) saved(st *match.State) Saved {
	s := Saved{
		ID:       st.ID,
		Mode:     string(st.Mode),
		Level:    st.Level.String(),
		Human:    int(st.Human),
		First:    int(st.Rules.First),
		Variants: st.Rules.Names(),
		Moves:    wire.MoveList(st.Moves),
		Seed:     g.seed,
	}
	if st.Start != st.Rules.Start() {
		s.Start = notation.FormatPosition(st.Start)
	}
	if !g.created.IsZero() {
		s.Created = g.created.UTC().Format(time.RFC3339)
	}
	return s
}

// newID returns a new game's id: IDPrefix and 16 random hex digits.
func newID() string {
	var b [8]byte
	rand.Read(b[:])
	return IDPrefix + hex.EncodeToString(b[:])
}

// refusal is the answer to a refused request.
func refusal(err error) Answer {
	status, body := api.Describe(err)
	return Answer{Status: status, Body: body}
}
