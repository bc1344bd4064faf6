package players

import (
	"context"
	"sync"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/rating"
)

// The leaderboards (issue 21): per speed, the top leaderSize accounts
// with a rated game in the last leaderActive, not provisional.
const (
	leaderSize   = 100
	leaderActive = 30 * 24 * time.Hour
	// leaderFresh is how long a leaderboard is answered from memory: a
	// flood of requests from many addresses (each within its limit,
	// Limits.Profiles) costs one query a speed this often at most.
	leaderFresh = 10 * time.Second
)

// leaderCache keeps each speed's leaderboard as last read.
type leaderCache struct {
	mu    sync.Mutex
	board map[string]api.Leaderboard
	at    map[string]time.Time
}

// get returns speed's board if read within leaderFresh of now.
func (c *leaderCache) get(speed string, now time.Time) (api.Leaderboard, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.board[speed]
	return b, ok && now.Sub(c.at[speed]) < leaderFresh
}

// put keeps speed's board as read at now.
func (c *leaderCache) put(speed string, b api.Leaderboard, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.board == nil {
		c.board, c.at = map[string]api.Leaderboard{}, map[string]time.Time{}
	}
	c.board[speed], c.at[speed] = b, now
}

// Leaderboard returns the top players of speed ("bullet" … "correspondence"),
// from memory if read within leaderFresh.
func (p *Players) Leaderboard(ctx context.Context, speed string) (api.Leaderboard, error) {
	sp, err := rating.ParseSpeed(speed)
	if err != nil {
		return api.Leaderboard{}, api.Fail(api.ErrNotFound, "no such speed: want bullet, blitz, rapid, classical or correspondence")
	}
	now := time.Now()
	if b, ok := p.leaders.get(sp.String(), now); ok {
		return b, nil
	}
	// As saved, RD is as of each player's last game; it grows with time
	// since (System.AsOf): a few read beyond the board, for those that
	// grew provisional since to drop out.
	rows, err := p.store.Leaderboard(ctx, sp.String(), now.Add(-leaderActive), rating.ProvisionalRD, leaderSize+leaderSize/2)
	if err != nil {
		return api.Leaderboard{}, err
	}
	out := api.Leaderboard{Speed: sp.String(), Leaders: []api.Leader{}}
	for _, l := range rows {
		r := rating.System{}.AsOf(l.Rating, now)
		if r.Provisional() || len(out.Leaders) == leaderSize {
			continue
		}
		out.Leaders = append(out.Leaders, api.Leader{Rank: len(out.Leaders) + 1, Username: l.Username, Rating: ratingOf(r)})
	}
	p.leaders.put(sp.String(), out, now)
	return out, nil
}

// ratingOf is r as the API shows it.
func ratingOf(r rating.Rating) *api.Rating {
	return &api.Rating{Rating: r.Rating, RD: r.RD, Volatility: r.Volatility, Provisional: r.Provisional(), Games: r.Games}
}
