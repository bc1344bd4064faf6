package accounts

import (
	"context"
	"errors"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/rating"
	"oanquan/internal/store"
)

// Profiles (issue 21): what GET /api/players/{name} shows beside the
// ratings (results, when the player joined), the history of its ratings
// and its games' results.

// Rating is r as the API shows it.
func Rating(r rating.Rating) *api.Rating {
	return &api.Rating{Rating: r.Rating, RD: r.RD, Volatility: r.Volatility, Provisional: r.Provisional(), Games: r.Games}
}

// Profile returns a's username and ratings as they stand now.
func (k *Accounts) Profile(ctx context.Context, a store.Account) (api.Player, error) {
	rs, err := k.store.Ratings(ctx, a.ID)
	if err != nil {
		return api.Player{}, err
	}
	p := api.Player{Username: a.Username, Ratings: make(map[string]api.Rating, len(rs)), Joined: a.Created.UTC()}
	if p.Results, err = k.results(ctx, a.ID); err != nil {
		return api.Player{}, err
	}
	now := time.Now()
	for speed, r := range rs {
		r = rating.System{}.AsOf(r, now)
		p.Ratings[speed] = *Rating(r)
	}
	return p, nil
}

// PlayerByName returns player name's profile (Profile), or
// api.ErrNotFound.
func (k *Accounts) PlayerByName(ctx context.Context, name string) (api.Player, error) {
	a, err := k.ByName(ctx, name)
	if err != nil {
		return api.Player{}, err
	}
	return k.Profile(ctx, a)
}

// results returns account acct's results.
func (k *Accounts) results(ctx context.Context, acct string) (api.Results, error) {
	if err := k.cfg.Fill(ctx, acct); err != nil {
		return api.Results{}, err
	}
	t, err := k.store.Results(ctx, acct)
	return api.Results{Wins: t.Wins, Draws: t.Draws, Losses: t.Losses}, err
}

// History returns account acct's ratings after each rated game.
func (k *Accounts) History(ctx context.Context, acct string) (api.History, error) {
	pts, err := k.store.RatingHistory(ctx, acct, api.MaxHistory)
	if err != nil {
		return api.History{}, err
	}
	out := api.History{History: make(map[string][]api.HistoryPoint, len(pts))}
	for speed, ps := range pts {
		hs := make([]api.HistoryPoint, len(ps))
		for i, p := range ps {
			hs[i] = api.HistoryPoint{Game: p.Game, At: p.At.UTC(), Rating: p.Rating.Rating, RD: p.Rating.RD}
		}
		out.History[speed] = hs
	}
	return out, nil
}

// gameResult is the result of game g for the player on seat, as a
// player's list of games shows it ("" while it goes on).
func gameResult(g store.Game, seat int) string {
	switch {
	case g.Result == store.Drawn:
		return api.ResultDraw
	case g.Result == store.Aborted:
		return api.ResultAborted
	case g.Result == store.Won0 && seat == 0, g.Result == store.Won1 && seat == 1:
		return api.ResultWin
	case g.Result == store.Won0, g.Result == store.Won1:
		return api.ResultLoss
	}
	return ""
}

// ratingDiff is the change game g made to the rating of the player on
// seat, once it ended rated; nil otherwise.
func ratingDiff(g store.Game, seat int) *float64 {
	rc := g.RatingChange
	if rc == nil || rc.Speed == "" {
		return nil
	}
	d := rc.After[seat].Rating - rc.Before[seat].Rating
	return &d
}

// PlayerGames returns a page of account acct's games, newest first:
// at most limit created before before.
func (k *Accounts) PlayerGames(ctx context.Context, acct string, before time.Time, limit int) (api.PlayerGames, error) {
	if err := k.cfg.Fill(ctx, acct); err != nil {
		return api.PlayerGames{}, err
	}
	ids, err := k.store.GamesOf(ctx, acct, before, limit)
	if err != nil {
		return api.PlayerGames{}, err
	}
	out := api.PlayerGames{Games: []api.PlayerGame{}}
	var last time.Time // the creation of the last game read: the next page's before
	for _, id := range ids {
		g, err := k.store.Get(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue // expired meanwhile
		}
		if err != nil {
			return api.PlayerGames{}, err
		}
		last = g.Created
		if g.Seats[0] == nil || g.Seats[1] == nil {
			// An invitation, its seat free for the friend invited: its
			// id would let anyone reading this list take that seat.
			continue
		}
		out.Games = append(out.Games, playerGame(g, acct))
	}
	if len(ids) == limit && !last.IsZero() {
		out.Next = last.UTC().Format(time.RFC3339Nano)
	}
	return out, nil
}

// playerGame is saved game g as account acct's list of games shows it.
func playerGame(g store.Game, acct string) api.PlayerGame {
	seat := 0
	if g.Accounts[1] == acct {
		seat = 1
	}
	v := api.PlayerGame{ID: g.ID, Created: g.Created.UTC(), Rated: g.Rated, Seat: seat, Moves: len(g.Moves)}
	if o := g.Players[1-seat]; o != "" {
		v.Opponent = &o
	}
	v.Result, v.RatingDiff = gameResult(g, seat), ratingDiff(g, seat)
	return v
}
