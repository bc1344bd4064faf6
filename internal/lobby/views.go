package lobby

import (
	"context"
	"crypto/subtle"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/rating"
	"oanquan/internal/store"
)

// What the lobby shows of a seek, and who may see and accept it.

// Posters reads the accounts that posted seeks, and those of more, with
// their ratings, in one read of the store.
func (l *Lobby) Posters(ctx context.Context, seeks []store.Seek, more ...string) (map[string]store.Poster, error) {
	seen := map[string]bool{"": true}
	var ids []string
	add := func(id string) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for _, k := range seeks {
		add(k.Account)
	}
	for _, id := range more {
		add(id)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return l.store.Posters(ctx, ids)
}

// RatingAmong returns account's rating in speed as it stands now, of
// posters (read by Lobby.Posters): a new player's for none, or for an
// account not there.
func RatingAmong(posters map[string]store.Poster, account, speed string) rating.Rating {
	r, ok := posters[account].Ratings[speed]
	if account == "" || !ok {
		return rating.New()
	}
	return rating.System{}.AsOf(r, time.Now())
}

// View returns k as the lobby shows it, its poster's name and rating
// of posters (read by Lobby.Posters): anonymous if its account is not
// there (deleted since).
func View(k store.Seek, posters map[string]store.Poster) api.SeekView {
	v := api.SeekView{ID: k.ID, Poster: "anonymous", Clock: api.ClockSetting{Initial: k.Initial, Increment: k.Increment, Days: k.Days},
		Rated: k.Rated, Speed: k.Speed, Created: k.Created.UTC()}
	if k.Min != 0 || k.Max != 0 {
		v.Range = &[2]int{k.Min, k.Max}
	}
	if p, ok := posters[k.Account]; ok && k.Account != "" {
		v.Poster, v.Rating = p.Username, ratingOf(RatingAmong(posters, k.Account, k.Speed))
	}
	return v
}

// InRange reports whether a player rated r may accept k.
func InRange(r rating.Rating, k store.Seek) bool {
	if k.Min == 0 && k.Max == 0 {
		return true
	}
	return r.Rating >= float64(k.Min) && r.Rating <= float64(k.Max)
}

// SamePoster reports whether k was posted by the player whose poster key
// hashes to poster, or whose account is account.
func SamePoster(k store.Seek, account string, poster []byte) bool {
	return (account != "" && k.Account == account) ||
		(len(poster) > 0 && subtle.ConstantTimeCompare(poster, k.Poster) == 1)
}

// ratingOf is r as the API shows it.
func ratingOf(r rating.Rating) *api.Rating {
	return &api.Rating{Rating: r.Rating, RD: r.RD, Volatility: r.Volatility, Provisional: r.Provisional(), Games: r.Games}
}
