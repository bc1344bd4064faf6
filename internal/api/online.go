package api

import (
	"oanquan/internal/match"
	"oanquan/internal/wire"
	"oanquan/rules"
)

// The operations of games between two players online (docs/API.md,
// "Playing a friend online"): joining, resigning, aborting and the
// players' offers.

// The kinds of offer, by route.
const (
	kindDraw     = match.OfferDraw
	kindTakeback = match.OfferTakeback
	kindRematch  = match.OfferRematch
)

// join gives the free seat of an online game to the caller: a new secret
// for it. A caller who holds a seat already gets it back (no new secret).
// Of several callers racing for the seat, one gets it; the others, 409.
func join(c *Call) (Response, error) {
	g, err := allowedGame(c, "join")
	if err != nil {
		return Response{}, err
	}
	var q struct{}
	if err := decode(c.Body, &q, true); err != nil {
		return Response{}, err
	}
	st := g.Match().State()
	if !st.Policy().Online {
		return Response{}, Fail(ErrSeatTaken, "this game has no seat to join: it is not a game between players online")
	}
	if held := g.Held(); len(held) > 0 {
		return ok(Joined{Game: wire.GameOf(&st), Seat: int(held[0])})
	}
	seat, secret, err := g.Claim(c.Ctx)
	if err != nil {
		return Response{}, err
	}
	st = g.Match().State()
	return ok(Joined{Game: wire.GameOf(&st), Seat: int(seat), Secret: secret})
}

// player reads a request of an online game's player: the game, the seat
// the caller holds in it, and the body into q (which may be empty when
// emptyOK).
func player(c *Call, q any, emptyOK bool) (Game, rules.Player, error) {
	g, err := c.Host.Game(c.Ctx, c.ID)
	if err != nil {
		return nil, 0, err
	}
	p, err := g.Player(c.Ctx)
	if err != nil {
		return nil, 0, err
	}
	return g, p, decode(c.Body, q, emptyOK)
}

var (
	resign = action((*match.Match).Resign)
	abort  = action((*match.Match).Abort)
)

// action answers POST /api/games/{id}/resign and /abort, with an empty
// body: act, for the caller's seat.
func action(act func(*match.Match, rules.Player) (match.State, error)) func(*Call) (Response, error) {
	return func(c *Call) (Response, error) {
		var q struct{}
		g, p, err := player(c, &q, true)
		if err != nil {
			return Response{}, err
		}
		return state(act(g.Match(), p))
	}
}

// claim answers POST /api/games/{id}/claim {"result": "win" | "draw"}:
// the caller ends a real-time game the other player has left.
func claim(c *Call) (Response, error) {
	var q struct {
		Result *string `json:"result"`
	}
	g, p, err := player(c, &q, false)
	if err != nil {
		return Response{}, err
	}
	if q.Result == nil {
		return Response{}, Fail(ErrBadRequest, `missing "result": want win or draw`)
	}
	if *q.Result != match.ClaimWin && *q.Result != match.ClaimDraw {
		return Response{}, Fail(ErrBadRequest, "result: unknown %s, want win or draw", Short(*q.Result))
	}
	return state(g.Match().Claim(p, *q.Result))
}

type offerRequest struct {
	Action *string `json:"action"`
}

// offer answers POST /api/games/{id}/draw, /takeback and /rematch:
// {"action": "offer" | "accept" | "decline"}. A rematch both players
// agree to is made by the host.
func offer(kind string) func(*Call) (Response, error) {
	return func(c *Call) (Response, error) {
		var q offerRequest
		g, p, err := player(c, &q, false)
		if err != nil {
			return Response{}, err
		}
		if q.Action == nil {
			return Response{}, Fail(ErrBadRequest, `missing "action": want offer, accept or decline`)
		}
		var st match.State
		var accepted bool
		switch *q.Action {
		case "offer":
			st, accepted, err = g.Match().Offer(kind, p)
		case "accept", "decline":
			st, accepted, err = g.Match().Answer(kind, p, *q.Action == "accept")
		default:
			return Response{}, Fail(ErrBadRequest, "action: unknown %s, want offer, accept or decline", Short(*q.Action))
		}
		if err == nil && accepted && kind == match.OfferRematch {
			st, err = g.Rematch(c.Ctx)
		}
		return state(st, err)
	}
}
