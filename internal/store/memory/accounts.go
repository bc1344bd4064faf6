package memory

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"oanquan/internal/rating"
	"oanquan/internal/store"
)

// memAccounts is what a DB keeps of accounts, under DB.mu.
type memAccounts struct {
	accounts map[string]*store.Account           // by id; deleted ones are removed
	sessions map[string]store.Session            // by string(key)
	ratings  map[string]map[string]rating.Rating // by account, by speed
	history  []historyRow
}

// historyRow is one player's rating before and after one rated game.
type historyRow struct {
	game, account, speed string
	seat                 int
	before, after        rating.Rating
	at                   time.Time // when the game ended (Ending.At)
}

// acc returns m's accounts; m.mu is held.
func (m *DB) acc() *memAccounts { return &m.accts }

func newMemAccounts() memAccounts {
	return memAccounts{accounts: map[string]*store.Account{}, sessions: map[string]store.Session{}, ratings: map[string]map[string]rating.Rating{}}
}

// playersLocked returns the usernames of g's seats' accounts.
func (a *memAccounts) playersLocked(g *store.Game) [2]string {
	var names [2]string
	for p, id := range g.Accounts {
		if x := a.accounts[id]; id != "" && x != nil {
			names[p] = x.Username
		}
	}
	return names
}

// byKeyLocked returns the account with the username key, or nil.
func (a *memAccounts) byKeyLocked(key string) *store.Account {
	for _, x := range a.accounts {
		if x.Key == key {
			return x
		}
	}
	return nil
}

// CreateAccount saves a and its first session s.
func (m *DB) CreateAccount(ctx context.Context, a store.Account, s store.Session) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ac := m.acc()
	if ac.accounts[a.ID] != nil || ac.byKeyLocked(a.Key) != nil {
		return fmt.Errorf("account %q: %w", a.Username, store.ErrExists)
	}
	ac.accounts[a.ID] = &a
	s.Key = slices.Clone(s.Key)
	ac.sessions[string(s.Key)] = s
	return nil
}

// AccountByKey returns the account with the username key.
func (m *DB) AccountByKey(ctx context.Context, key string) (store.Account, error) {
	if err := ctx.Err(); err != nil {
		return store.Account{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.acc().byKeyLocked(key); a != nil {
		return *a, nil
	}
	return store.Account{}, store.ErrNoAccount
}

// AccountByID returns account id.
func (m *DB) AccountByID(ctx context.Context, id string) (store.Account, error) {
	if err := ctx.Err(); err != nil {
		return store.Account{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.acc().accounts[id]; a != nil {
		return *a, nil
	}
	return store.Account{}, store.ErrNoAccount
}

// SetPassword replaces the hash and ends the other sessions.
func (m *DB) SetPassword(ctx context.Context, id, hash string, keep []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ac := m.acc()
	a := ac.accounts[id]
	if a == nil {
		return store.ErrNoAccount
	}
	a.Hash = hash
	for k, s := range ac.sessions {
		if s.Account == id && k != string(keep) {
			delete(ac.sessions, k)
		}
	}
	return nil
}

// Rehash replaces the hash if it is old.
func (m *DB) Rehash(ctx context.Context, id, old, new string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.acc().accounts[id]; a != nil && a.Hash == old {
		a.Hash = new
	}
	return nil
}

// DeleteAccount deletes account id, its sessions and ratings.
func (m *DB) DeleteAccount(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ac := m.acc()
	if ac.accounts[id] == nil {
		return store.ErrNoAccount
	}
	delete(ac.accounts, id)
	delete(ac.ratings, id)
	maps.DeleteFunc(ac.sessions, func(_ string, s store.Session) bool { return s.Account == id })
	ac.history = slices.DeleteFunc(ac.history, func(h historyRow) bool { return h.account == id })
	// Its open seeks and tickets go with it (those accepted stay).
	maps.DeleteFunc(m.seeks, func(_ string, k store.Seek) bool { return k.Account == id && k.Game == "" })
	return nil
}

// CreateSession saves s.
func (m *DB) CreateSession(ctx context.Context, s store.Session) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ac := m.acc()
	if ac.accounts[s.Account] == nil {
		return store.ErrNoAccount
	}
	s.Key = slices.Clone(s.Key)
	ac.sessions[string(s.Key)] = s
	return nil
}

// Session returns the live session with key and its account.
func (m *DB) Session(ctx context.Context, key []byte, now time.Time) (store.Session, store.Account, error) {
	if err := ctx.Err(); err != nil {
		return store.Session{}, store.Account{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ac := m.acc()
	s, ok := ac.sessions[string(key)]
	if !ok || !now.Before(s.Expires) || ac.accounts[s.Account] == nil {
		return store.Session{}, store.Account{}, store.ErrNoAccount
	}
	if now.Sub(s.Used) >= time.Hour {
		s.Used = now
		ac.sessions[string(key)] = s
	}
	s.Key = slices.Clone(s.Key)
	return s, *ac.accounts[s.Account], nil
}

// EndSession ends one session.
func (m *DB) EndSession(ctx context.Context, key []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.acc().sessions, string(key))
	return nil
}

// EndSessions ends every session of account id.
func (m *DB) EndSessions(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	maps.DeleteFunc(m.acc().sessions, func(_ string, s store.Session) bool { return s.Account == id })
	return nil
}

// ExpireSessions deletes sessions expired at now.
func (m *DB) ExpireSessions(ctx context.Context, now time.Time, limit int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for k, s := range m.acc().sessions {
		if n < limit && !now.Before(s.Expires) {
			delete(m.accts.sessions, k)
			n++
		}
	}
	return n, nil
}

// Ratings returns account id's ratings by speed.
func (m *DB) Ratings(ctx context.Context, id string) (map[string]rating.Rating, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ac := m.acc()
	if ac.accounts[id] == nil {
		return nil, store.ErrNoAccount
	}
	return maps.Clone(ac.ratings[id]), nil
}

// SeatAccount records the account of a seat.
func (m *DB) SeatAccount(ctx context.Context, id string, seat int, account string) error {
	if seat != 0 && seat != 1 {
		return fmt.Errorf("seat %d: want 0 or 1", seat)
	}
	return m.change(ctx, id, func(g *store.Game) error {
		g.Accounts[seat] = account
		return nil
	})
}

// EndRated applies e and rates the game (store.EndRating), under the
// lock.
func (m *DB) EndRated(ctx context.Context, id string, e store.Ending) (store.RatingChange, error) {
	if err := ctx.Err(); err != nil {
		return store.RatingChange{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.games[id]
	if !ok {
		return store.RatingChange{}, fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	ac := m.acc()
	if ac.accounts[g.Accounts[0]] == nil || ac.accounts[g.Accounts[1]] == nil {
		return store.RatingChange{}, store.NotRated(id)
	}
	rg := store.RatedGame{ID: id, Speed: g.Rated, Accounts: g.Accounts, Status: g.Status, Moves: len(g.Moves), Rated: g.RatingChange != nil}
	rc, err := store.EndRating(rg, e, func(seat int) (rating.Rating, error) {
		if r, ok := ac.ratings[g.Accounts[seat]][g.Rated]; ok {
			return r, nil
		}
		return rating.New(), nil
	})
	if err != nil {
		return store.RatingChange{}, err
	}
	applyEnding(g, e)
	g.Updated = m.now()
	g.RatingChange = &rc
	if _, ok := m.finished[id]; !ok {
		m.finished[id] = m.now()
	}
	if g.Result == store.NoResult {
		g.Result = store.ResultOfScore(e.Score0)
	}
	for p := range 2 {
		a := g.Accounts[p]
		if ac.ratings[a] == nil {
			ac.ratings[a] = map[string]rating.Rating{}
		}
		ac.ratings[a][g.Rated] = rc.After[p]
		ac.history = append(ac.history, historyRow{game: id, account: a, speed: g.Rated, seat: p, before: rc.Before[p], after: rc.After[p], at: e.At})
	}
	return rc, nil
}

// applyEnding makes the change e to g (checked by store.EndRating).
func applyEnding(g *store.Game, e store.Ending) {
	if e.Move == "" {
		g.Status = e.To
		return
	}
	g.Moves = append(g.Moves, e.Move)
	g.Waiting = e.Waiting
	if e.Clock.State != "" || !e.Clock.Deadline.IsZero() {
		g.Clock = store.Clock{State: e.Clock.State, Deadline: e.Clock.Deadline}
	}
	if e.Clock.Move != "" || g.MoveClocks != nil {
		g.MoveClocks = append(g.MoveClocks, make([]string, len(g.Moves)-1-len(g.MoveClocks))...)
		g.MoveClocks = append(g.MoveClocks, e.Clock.Move)
	}
}
