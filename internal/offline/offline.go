// Package offline plays games in the browser, with no server: the engine
// that cmd/engine-wasm compiles to WebAssembly and the page runs in a Web
// Worker when the server cannot be reached (docs/OFFLINE.md). It answers
// the requests of docs/API.md for games against the computer and for two
// players on one device, with the same JSON as the server (package wire),
// and sends each game's updates as the server's WebSocket would.
//
//	e := offline.New(func(u offline.Update) { … }) // turns, thinking
//	a := e.Do(offline.Request{Op: "create", Create: &offline.Options{Mode: "ai"}})
//	// a.Body is the new game's state, a.Saved what to keep of it
//
// The browser keeps the games, not the engine: every answer and update
// carries the game as Saved (its settings and moves), and a request may
// carry it back, so that a game is rebuilt by replaying its moves after a
// reload. The engine holds no rules of its own: it runs internal/match.
package offline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"sync"
	"time"

	"oanquan/ai"
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

// Options are a new game's settings, as in POST /api/games.
type Options struct {
	Mode     string   `json:"mode"`
	Level    string   `json:"level"`
	Human    int      `json:"human"`
	First    int      `json:"first"`
	Variants []string `json:"variants"`
}

// Request is one call of the page's, as it would make it to the server.
type Request struct {
	// Op is create, get, move, undo, level, hints, record, review,
	// reviewRecord, adopt, close or search.
	Op     string         `json:"op"`
	ID     string         `json:"id"`
	Game   *Saved         `json:"game"`   // the game as kept: rebuilt from it if this engine does not hold it
	Move   string         `json:"move"`   // move
	Ply    *int           `json:"ply"`    // move: refused unless the game is at this ply; review, reviewRecord: the move to review
	Record string         `json:"record"` // reviewRecord: a game record (docs/RECORD.md)
	Level  string         `json:"level"`  // level
	Create *Options       `json:"create"` // create
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
	Move  string `json:"move"`
	Score int    `json:"score"`
	Depth int    `json:"depth"`
	Nodes int64  `json:"nodes"`
	MS    int64  `json:"ms"` // how long it took
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
	a, err := e.do(q)
	if err != nil {
		return refusal(err)
	}
	return a
}

func (e *Engine) do(q Request) (Answer, error) {
	switch q.Op {
	case "create":
		if q.Create == nil {
			q.Create = &Options{}
		}
		g, err := e.create(*q.Create)
		if err != nil {
			return Answer{}, err
		}
		return e.answer(g, 201, nil)
	case "adopt":
		g, err := e.adopt(q.State)
		if err != nil {
			return Answer{}, err
		}
		return e.answer(g, 200, nil)
	case "close":
		e.close(q.ID)
		return Answer{Status: 204}, nil
	case "search":
		r, err := search(q.Search)
		if err != nil {
			return Answer{}, err
		}
		return Answer{Status: 200, Body: r}, nil
	case "reviewRecord":
		rec, err := notation.ParseRecord(q.Record)
		if err != nil {
			return Answer{}, refuse(match.ErrInvalid, "record: %v", err)
		}
		if _, err := rec.Game(); err != nil {
			return Answer{}, refuse(match.ErrInvalid, "record: %v", err)
		}
		return review(rec.Rules, rec.Start, rec.Moves, q.Ply)
	}
	g, err := e.game(q.ID, q.Game)
	if err != nil {
		return Answer{}, err
	}
	switch q.Op {
	case "get":
		return e.answer(g, 200, nil)
	case "move":
		mv, err := notation.ParseMove(q.Move)
		if err != nil {
			return Answer{}, refuse(match.ErrInvalid, "move: %v", err)
		}
		t, err := g.m.Play(mv, q.Ply)
		if err != nil {
			return Answer{}, err
		}
		return e.answer(g, 200, wire.TurnOf(&t))
	case "undo":
		if _, err := g.m.Undo(); err != nil {
			return Answer{}, err
		}
		return e.answer(g, 200, nil)
	case "level":
		l, err := ai.ParseLevel(q.Level)
		if err != nil {
			return Answer{}, refuse(match.ErrInvalid, "level: unknown %q, want easy, medium or hard", q.Level)
		}
		if _, err := g.m.SetLevel(l); err != nil {
			return Answer{}, err
		}
		return e.answer(g, 200, nil)
	case "hints":
		hs, err := g.m.Hints(context.Background())
		if err != nil {
			return Answer{}, err
		}
		out := wire.Hints{Hints: make([]wire.Hint, len(hs))}
		for i, h := range hs {
			out.Hints[i] = wire.Hint{Move: notation.FormatMove(h.Move), Score: h.Score}
		}
		return Answer{Status: 200, Body: out}, nil
	case "review":
		st := g.m.State()
		return review(st.Rules, st.Start, st.Moves, q.Ply)
	case "record":
		st := g.m.State()
		text, err := wire.Record(&st, g.created)
		if err != nil {
			return Answer{}, err
		}
		return Answer{Status: 200, Body: text}, nil
	}
	return Answer{}, refuse(match.ErrInvalid, "unknown request %q", q.Op)
}

// review answers the review of move ply of a game, as the server does,
// searching each position for ai.ReviewMoveTime in this engine.
func review(r rules.Rules, start rules.Position, moves []rules.Move, ply *int) (Answer, error) {
	if ply == nil {
		return Answer{}, refuse(match.ErrInvalid, `missing "ply": want a move's index, from 0`)
	}
	rv, err := wire.ReviewAt(r, start, moves, *ply, func(history []rules.Position, m rules.Move) (ai.MoveReview, error) {
		return ai.ReviewMove(context.Background(), r, history, m, ai.ReviewLimits{})
	})
	if err != nil {
		return Answer{}, refuse(match.ErrInvalid, "%v", err)
	}
	return Answer{Status: 200, Body: rv}, nil
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

// create starts a new game.
func (e *Engine) create(o Options) (*game, error) {
	cfg, err := config(Saved{Mode: o.Mode, Level: o.Level, Human: o.Human, First: o.First, Variants: o.Variants})
	if err != nil {
		return nil, err
	}
	cfg.ID = newID()
	return e.start(cfg, mrand.Uint32(), time.Now())
}

// game returns the game id, rebuilt from saved if the engine does not
// hold it.
func (e *Engine) game(id string, saved *Saved) (*game, error) {
	e.mu.Lock()
	g := e.games[id]
	e.mu.Unlock()
	if g != nil {
		return g, nil
	}
	if saved == nil || saved.ID != id {
		return nil, &match.Error{Kind: errNotFound, Msg: fmt.Sprintf("no game %q in this browser", id)}
	}
	cfg, err := config(*saved)
	if err != nil {
		return nil, err
	}
	cfg.ID = id
	created, _ := time.Parse(time.RFC3339, saved.Created)
	return e.start(cfg, saved.Seed, created)
}

// adopt carries on a game of the server's from its last state: the same
// id, settings and moves. Its start is the usual one when replaying its
// moves from there gives its position, else (a game set up from a
// position) its position, with no moves to undo.
func (e *Engine) adopt(st *wire.Game) (*game, error) {
	if st == nil || (st.Mode != "ai" && st.Mode != "local") || st.ID == "" {
		return nil, refuse(match.ErrInvalid, "only a game against the computer or of two players on one device can be carried on here")
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

// search runs one search of the computer's.
func search(q *SearchRequest) (SearchResult, error) {
	if q == nil {
		q = &SearchRequest{}
	}
	var r rules.Rules
	pos := r.Start()
	if q.Position != "" {
		p, err := notation.ParsePosition(q.Position)
		if err != nil {
			return SearchResult{}, refuse(match.ErrInvalid, "position: %v", err)
		}
		pos = p
	}
	lim := ai.Limits{Level: ai.Hard, MoveTime: time.Duration(q.MoveTime) * time.Millisecond, Rules: r}
	if lim.MoveTime == 0 {
		lim.MoveTime = MoveTime
	}
	if q.Level != "" {
		l, err := ai.ParseLevel(q.Level)
		if err != nil {
			return SearchResult{}, refuse(match.ErrInvalid, "level: unknown %q", q.Level)
		}
		lim.Level = l
	}
	start := time.Now()
	res, err := ai.Search(context.Background(), pos, lim)
	if err != nil {
		return SearchResult{}, err
	}
	return SearchResult{Move: notation.FormatMove(res.Move), Score: res.Score, Depth: res.Depth, Nodes: res.Nodes, MS: time.Since(start).Milliseconds()}, nil
}

// config checks a kept game's settings and moves, filling in defaults.
func config(s Saved) (match.Config, error) {
	cfg := match.Config{Mode: match.AI, Level: ai.Easy, MoveTime: MoveTime}
	switch s.Mode {
	case "", "ai":
	case "local":
		cfg.Mode = match.Local
	default:
		return cfg, refuse(match.ErrInvalid, "mode: unknown %q, want ai or local", s.Mode)
	}
	if s.Level != "" {
		l, err := ai.ParseLevel(s.Level)
		if err != nil {
			return cfg, refuse(match.ErrInvalid, "level: unknown %q, want easy, medium or hard", s.Level)
		}
		cfg.Level = l
	}
	if s.Human != 0 && s.Human != 1 || s.First != 0 && s.First != 1 {
		return cfg, refuse(match.ErrInvalid, "human %d, first %d: want 0 or 1", s.Human, s.First)
	}
	cfg.Human, cfg.Rules.First = rules.Player(s.Human), rules.Player(s.First)
	for _, v := range s.Variants {
		if err := cfg.Rules.Enable(v); err != nil {
			return cfg, refuse(match.ErrInvalid, "variants: %v", err)
		}
	}
	if s.Start != "" {
		p, err := notation.ParsePosition(s.Start)
		if err != nil {
			return cfg, refuse(match.ErrInvalid, "start: %v", err)
		}
		cfg.Start, cfg.Rules.First = &p, p.ToMove
	}
	for _, text := range s.Moves {
		mv, err := notation.ParseMove(text)
		if err != nil {
			return cfg, refuse(match.ErrInvalid, "moves: %v", err)
		}
		cfg.Moves = append(cfg.Moves, mv)
	}
	return cfg, nil
}

// start makes a live game of cfg and forwards its updates.
func (e *Engine) start(cfg match.Config, seed uint32, created time.Time) (*game, error) {
	cfg.Seed = uint64(seed)
	cfg.Created = created
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
	e.mu.Lock()
	closing := []*game{e.games[cfg.ID]}
	e.games[cfg.ID] = g
	e.order = append(slices.DeleteFunc(e.order, func(id string) bool { return id == cfg.ID }), cfg.ID)
	for len(e.order) > maxLive {
		closing = append(closing, e.games[e.order[0]])
		delete(e.games, e.order[0])
		e.order = e.order[1:]
	}
	e.mu.Unlock()
	for _, old := range closing {
		if old != nil {
			old.m.Close()
		}
	}
	go e.forward(g, sub)
	return g, nil
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
	e.mu.Lock()
	g := e.games[id]
	delete(e.games, id)
	e.order = slices.DeleteFunc(e.order, func(x string) bool { return x == id })
	e.mu.Unlock()
	if g != nil {
		g.m.Close()
	}
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

// errNotFound is the refusal of a game this browser does not hold.
var errNotFound = errors.New("not found")

func refuse(kind error, format string, args ...any) error {
	return &match.Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// refusals maps each kind of refusal to its status and code, as the
// server's table does (internal/server/errors.go, docs/API.md).
var refusals = []struct {
	kind   error
	status int
	code   string
}{
	{match.ErrInvalid, 400, "bad_request"},
	{errNotFound, 404, "not_found"},
	{match.ErrNotYourTurn, 409, "not_your_turn"},
	{match.ErrIllegalMove, 422, "illegal_move"},
	{match.ErrGameOver, 409, "game_over"},
	{match.ErrStale, 409, "conflict"},
	{match.ErrNothingToUndo, 409, "conflict"},
	{match.ErrConflict, 409, "conflict"},
	{match.ErrClosed, 503, "unavailable"},
}

// refusal is the answer to a refused request.
func refusal(err error) Answer {
	var b errorBody
	b.Error.Code, b.Error.Message = "internal", "the engine failed: "+err.Error()
	status := 500
	for _, r := range refusals {
		if errors.Is(err, r.kind) {
			status, b.Error.Code, b.Error.Message = r.status, r.code, err.Error()
			break
		}
	}
	return Answer{Status: status, Body: b}
}
