package api

import (
	"errors"
	"strconv"

	"oanquan/ai"
	"oanquan/internal/match"
	"oanquan/internal/wire"
	"oanquan/notation"
	"oanquan/rules"
)

// The operations of docs/API.md. Each checks its request in the order
// the API documents (the caller's rights, then the body), and returns
// its answer or the refusal that Describe turns into one.

// Created is the answer to the creation of a game: its state and the
// secret that acts for the creator's seats.
type Created struct {
	wire.Game
	Secret string `json:"secret"`
	Seat   int    `json:"seat"`  // the creator's seat (the first of Seats)
	Seats  []int  `json:"seats"` // every seat the secret acts for
}

// Joined answers a join.
type Joined struct {
	Game   wire.Game `json:"game"`
	Seat   int       `json:"seat"`
	Secret string    `json:"secret,omitempty"` // only when the seat is new
}

// ok answers 200 with body.
func ok(body any) (Response, error) { return Response{Status: 200, Body: body}, nil }

// state answers 200 with the game's state st.
func state(st match.State, err error) (Response, error) {
	if err != nil {
		return Response{}, err
	}
	return ok(wire.GameOf(&st))
}

func create(c *Call) (Response, error) {
	if err := c.Host.Allow("new game"); err != nil {
		return Response{}, err
	}
	var q Settings
	if err := decode(c.Body, &q, true); err != nil {
		return Response{}, err
	}
	cfg, err := q.Config()
	if err != nil {
		return Response{}, err
	}
	seats := []rules.Player{cfg.Human} // against the computer, and online: the other seat is the friend's
	if pol, _ := match.PolicyOf(cfg.Mode); pol.BothSeats {
		seats = []rules.Player{rules.Player0, rules.Player1}
	}
	m, secret, err := c.Host.Create(c.Ctx, cfg, seats)
	if err != nil {
		return Response{}, err
	}
	st := m.State()
	out := Created{Game: wire.GameOf(&st), Secret: secret, Seat: int(seats[0])}
	for _, p := range seats {
		out.Seats = append(out.Seats, int(p))
	}
	return Response{Status: 201, Body: out, Header: map[string]string{"Location": "/api/games/" + st.ID}}, nil
}

func get(c *Call) (Response, error) {
	g, err := c.Host.Game(c.Ctx, c.ID)
	if err != nil {
		return Response{}, err
	}
	return state(g.Match().State(), nil)
}

// actor returns the game c acts in, if the caller holds one of its seats.
func actor(c *Call) (Game, error) {
	g, err := c.Host.Game(c.Ctx, c.ID)
	if err != nil {
		return nil, err
	}
	return g, g.Authorize()
}

// allowedGame returns the game c is about, once the caller's rate
// limit of kind allows the request.
func allowedGame(c *Call, kind string) (Game, error) {
	if err := c.Host.Allow(kind); err != nil {
		return nil, err
	}
	return c.Host.Game(c.Ctx, c.ID)
}

// mover returns the seat a move is played for: online, the caller's;
// otherwise nil (any seat of the caller's acts for the game).
func mover(c *Call, g Game) (*rules.Player, error) {
	if !g.Match().Policy().Online {
		return nil, g.Authorize()
	}
	p, err := g.Player(c.Ctx)
	return &p, err
}

type moveRequest struct {
	Move *string `json:"move"`
	Ply  *int    `json:"ply"`
}

func move(c *Call) (Response, error) {
	g, err := c.Host.Game(c.Ctx, c.ID)
	if err != nil {
		return Response{}, err
	}
	seat, err := mover(c, g)
	if err != nil {
		return Response{}, err
	}
	var q moveRequest
	if err := decode(c.Body, &q, false); err != nil {
		return Response{}, err
	}
	if q.Move == nil {
		return Response{}, Fail(ErrBadRequest, `missing "move": want a move such as "7R"`)
	}
	mv, err := notation.ParseMove(*q.Move)
	if err != nil {
		return Response{}, inputError("move", err)
	}
	var turn match.Turn
	if seat != nil {
		turn, err = g.Match().PlayFor(*seat, mv, q.Ply)
	} else {
		turn, err = g.Match().Play(mv, q.Ply)
	}
	if errors.Is(err, match.ErrStale) && q.Ply != nil {
		return replayed(g, err, *q.Ply, mv, seat)
	}
	if err != nil {
		return Response{}, err
	}
	return ok(wire.TurnOf(&turn))
}

// replayed answers a move refused as stale: sent again after its answer
// was lost? Then it was played once, and this is its answer. Anything
// else: the game as it stands. (Played through another server, it may
// not be here yet: the game is brought up to date first.)
func replayed(g Game, stale error, ply int, mv rules.Move, seat *rules.Player) (Response, error) {
	g.Resync()
	if t, played := g.Match().PlayedAt(ply, mv, seat); played {
		return ok(wire.TurnOf(&t))
	}
	st := g.Match().State()
	return Response{}, &Stale{stale, wire.GameOf(&st)}
}

func undo(c *Call) (Response, error) {
	g, err := actor(c)
	if err != nil {
		return Response{}, err
	}
	var q struct{}
	if err := decode(c.Body, &q, true); err != nil {
		return Response{}, err
	}
	return state(g.Match().Undo())
}

type levelRequest struct {
	Level *string `json:"level"`
}

func level(c *Call) (Response, error) {
	g, err := actor(c)
	if err != nil {
		return Response{}, err
	}
	var q levelRequest
	if err := decode(c.Body, &q, false); err != nil {
		return Response{}, err
	}
	if q.Level == nil {
		return Response{}, Fail(ErrBadRequest, `missing "level": want easy, medium or hard`)
	}
	l, err := ParseLevel(*q.Level)
	if err != nil {
		return Response{}, err
	}
	return state(g.Match().SetLevel(l))
}

func hints(c *Call) (Response, error) {
	g, err := actor(c)
	if err != nil {
		return Response{}, err
	}
	if err := c.Host.Allow("hint"); err != nil {
		return Response{}, err
	}
	hs, err := g.Match().Hints(c.Ctx)
	if err != nil {
		return Response{}, err
	}
	out := wire.Hints{Hints: make([]wire.Hint, len(hs))}
	for i, h := range hs {
		out.Hints[i] = wire.Hint{Move: notation.FormatMove(h.Move), Score: h.Score}
	}
	return ok(out)
}

// record answers with the game record of docs/RECORD.md, as text.
func record(c *Call) (Response, error) {
	g, err := c.Host.Game(c.Ctx, c.ID)
	if err != nil {
		return Response{}, err
	}
	st := g.Match().State()
	text, err := wire.Record(&st, g.Match().Config().Created)
	if err != nil {
		return Response{}, err
	}
	return Response{Status: 200, Body: text, Header: map[string]string{
		"Content-Type":        "text/plain; charset=utf-8",
		"Content-Disposition": `inline; filename="oanquan-` + st.ID + `.txt"`,
	}}, nil
}

// review answers GET /api/games/{id}/review?ply=N: the review of move N
// (from 0) of the game. An online game is reviewed only once it is over:
// during it, a review would be a player's hint.
func review(c *Call) (Response, error) {
	g, err := allowedGame(c, "review")
	if err != nil {
		return Response{}, err
	}
	st := g.Match().State()
	if !st.Reviewable() {
		return Response{}, Fail(match.ErrConflict, "an online game is reviewed once it is over")
	}
	text := c.Query.Get("ply")
	ply, err := strconv.Atoi(text)
	if err != nil {
		return Response{}, Fail(ErrBadRequest, "ply: want a move's index, from 0, not %s", Short(text))
	}
	return reviewAt(c, st.Rules, st.Start, st.Moves, ply)
}

// reviewRecord answers POST /api/review with {"record": "…", "ply": N}:
// the review of move N of a pasted game record (docs/RECORD.md).
func reviewRecord(c *Call) (Response, error) {
	if err := c.Host.Allow("review"); err != nil {
		return Response{}, err
	}
	var q struct {
		Record *string `json:"record"`
		Ply    *int    `json:"ply"`
	}
	if err := decode(c.Body, &q, false); err != nil {
		return Response{}, err
	}
	if q.Record == nil {
		return Response{}, Fail(ErrBadRequest, `missing "record": want a game record (docs/RECORD.md)`)
	}
	rec, err := notation.ParseRecord(*q.Record)
	if err != nil {
		return Response{}, Fail(ErrBadRequest, "record: %v", err)
	}
	if _, err := rec.Game(); err != nil {
		return Response{}, Fail(ErrBadRequest, "record: %v", err)
	}
	if q.Ply == nil {
		return Response{}, Fail(ErrBadRequest, `missing "ply": want a move's index, from 0`)
	}
	return reviewAt(c, rec.Rules, rec.Start, rec.Moves, *q.Ply)
}

// reviewAt reviews move ply of the game that plays moves from start
// under r, with the positions around it. A ply that is not a move's
// index is refused (wire.ReviewAt says which are); a search that fails
// (the server shutting down, the client leaving) keeps its own error.
func reviewAt(c *Call, r rules.Rules, start rules.Position, moves []rules.Move, ply int) (Response, error) {
	var searchErr error
	answer, err := wire.ReviewAt(r, start, moves, ply, func(history []rules.Position, m rules.Move) (ai.MoveReview, error) {
		mr, err := c.Host.Review(c.Ctx, ReviewQuery{Rules: r, Start: start, Moves: moves, Ply: ply, History: history, Move: m})
		searchErr = err
		return mr, err
	})
	if searchErr != nil {
		return Response{}, searchErr
	}
	if err != nil {
		return Response{}, Fail(ErrBadRequest, "%v", err)
	}
	return ok(answer)
}
