package offline

import (
	"bytes"
	"context"
	"io"
	"strings"
	"time"

	mrand "math/rand/v2"

	"oanquan/ai"
	"oanquan/internal/api"
	"oanquan/internal/match"
	"oanquan/rules"
)

// The API calls, served by package api with the engine as their host.

// serve answers an API call as the server would, by the server's own
// table of routes (api.Routes). What needs the server (online games,
// joining, the WebSocket, …) is refused with api.ErrNotOffline.
func (e *Engine) serve(q Request) Answer {
	path, rawQuery, _ := strings.Cut(q.Path, "?")
	route, id, err := api.Find(q.Method, path)
	if err != nil {
		return refusal(err)
	}
	if route.Op == nil || route.Online {
		return refusal(api.Fail(api.ErrNotOffline, "%s %s needs the server", api.Short(q.Method), route.Pattern))
	}
	h := &host{e: e, kept: q.Game}
	resp, err := route.Op(&api.Call{Ctx: context.Background(), Host: h, ID: id, Query: api.ParseQuery(rawQuery), Body: body(q.Body)})
	if err != nil {
		return refusal(err)
	}
	a := Answer{Status: resp.Status, Body: resp.Body}
	if h.used != nil {
		st := h.used.m.State()
		s := h.used.saved(&st)
		a.Saved = &s
	}
	return a
}

// body is the reader of a request's JSON body; nil for none (absent or
// null).
func body(raw []byte) io.Reader {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return bytes.NewReader(raw)
}

// host is the engine as one request's api.Host: the caller holds every
// seat, and the game in the request is rebuilt from kept if the engine
// does not hold it.
type host struct {
	e    *Engine
	kept *Saved
	used *game // the game the request made or asked for, to keep
}

// Allow lets everything through: the browser's own engine has no limits.
func (h *host) Allow(string) error { return nil }

// Create starts a new game in the browser. It has no secret: "-".
func (h *host) Create(_ context.Context, cfg match.Config, _ []rules.Player) (*match.Match, string, error) {
	if pol, _ := match.PolicyOf(cfg.Mode); pol.Online {
		return nil, "", errOnline
	}
	cfg.ID = newID()
	cfg.MoveTime = MoveTime
	g, err := h.e.start(cfg, mrand.Uint32(), time.Now())
	if err != nil {
		return nil, "", err
	}
	h.used = g
	return g.m, "-", nil
}

// Game returns the game id, rebuilt from the one kept if need be.
func (h *host) Game(_ context.Context, id string) (api.Game, error) {
	g, err := h.e.game(id, h.kept)
	if err != nil {
		return nil, err
	}
	h.used = g
	return localGame{g}, nil
}

// Review reviews a move in this engine, for ai.ReviewMoveTime.
func (h *host) Review(ctx context.Context, q api.ReviewQuery) (ai.MoveReview, error) {
	return ai.ReviewMove(ctx, q.Rules, q.History, q.Move, ai.ReviewLimits{Endgames: h.e.tables.Load()})
}

// tableEngine is package ai's engine with the engine's endgame table, if
// it has one by then, given to every search.
type tableEngine struct{ e *Engine }

// Search searches with the table.
func (g tableEngine) Search(ctx context.Context, pos rules.Position, lim ai.Limits) (ai.Result, error) {
	lim.Endgames = g.e.tables.Load()
	return ai.Search(ctx, pos, lim)
}

// Hints searches with the table.
func (g tableEngine) Hints(ctx context.Context, pos rules.Position, lim ai.Limits) ([]ai.Hint, error) {
	lim.Endgames = g.e.tables.Load()
	return ai.Hints(ctx, pos, lim)
}

// localGame is a game of the engine's: the caller holds both seats.
type localGame struct{ g *game }

func (l localGame) Match() *match.Match  { return l.g.m }
func (l localGame) Held() []rules.Player { return []rules.Player{rules.Player0, rules.Player1} }
func (l localGame) Authorize() error     { return nil }
func (l localGame) Resync()              {}

// Player, Claim and Rematch are of online games, which are the server's.
func (l localGame) Player(context.Context) (rules.Player, error) { return 0, errOnline }
func (l localGame) Claim(context.Context) (rules.Player, string, error) {
	return 0, "", errOnline
}
func (l localGame) Rematch(context.Context) (match.State, error) { return match.State{}, errOnline }
