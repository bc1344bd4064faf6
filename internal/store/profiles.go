package store

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"oanquan/internal/rating"
)

// Result is how a finished game ended, as the store keeps it (Finish,
// Accounts.EndRated) for players' profiles. Its values are saved: do
// not renumber them.
type Result int

// The results of a game.
const (
	NoResult Result = iota // it goes on, or it ended before results were kept (schema v10)
	Won0                   // seat 0 won
	Won1                   // seat 1 won
	Drawn
	Aborted // called off before it began: it counts for nobody
)

// resultOfScore is the result of a rated game in which seat 0 scored s.
func resultOfScore(s float64) Result {
	switch s {
	case 1:
		return Won0
	case 0:
		return Won1
	}
	return Drawn
}

// Tally counts a player's finished games by their result for it.
type Tally struct{ Wins, Draws, Losses int }

// RatingPoint is a player's rating in a speed right after one rated
// game: the history of a profile's graph.
type RatingPoint struct {
	Game   string
	At     time.Time     // when the game ended
	Rating rating.Rating // after it
}

// Profiles reads what a player's profile shows beside its ratings
// (issue 21). The SQLite, Postgres and Memory stores implement it with
// the same contract (profiles_test.go).
type Profiles interface {
	// Results counts account's online games against someone else (its
	// account on one seat, not both) that ended with a result for it:
	// won, drawn, lost. Aborted games, games going on and games with
	// NoResult are not counted.
	Results(ctx context.Context, account string) (Tally, error)
	// Unresulted returns the ids of at most limit online games of
	// account that are finished (Finish) with NoResult: ended before
	// results were kept. Whoever reads them works their results out
	// and records them with Finish.
	Unresulted(ctx context.Context, account string, limit int) ([]string, error)
	// RatingHistory returns account's rating after each of its rated
	// games, by speed, oldest first: the last perSpeed games of each
	// speed it has played. No rated game: an empty map.
	RatingHistory(ctx context.Context, account string, perSpeed int) (map[string][]RatingPoint, error)
}

var (
	_ Profiles = (*Memory)(nil)
	_ Profiles = (*SQLite)(nil)
	_ Profiles = (*Postgres)(nil)
)

// add adds to t the result r of a game in which the player held
// seat.
func (t *Tally) add(r Result, seat int) {
	switch {
	case r == Drawn:
		t.Draws++
	case r == Won0 && seat == 0, r == Won1 && seat == 1:
		t.Wins++
	case r == Won0 || r == Won1:
		t.Losses++
	}
}

// Results counts account's finished games by result.
func (m *Memory) Results(ctx context.Context, account string) (Tally, error) {
	if err := ctx.Err(); err != nil {
		return Tally{}, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	var t Tally
	for _, g := range m.games {
		if g.Mode != "online" || account == "" || g.Accounts[0] == g.Accounts[1] {
			continue
		}
		switch account {
		case g.Accounts[0]:
			t.add(g.Result, 0)
		case g.Accounts[1]:
			t.add(g.Result, 1)
		}
	}
	return t, nil
}

// Unresulted returns account's finished games with no result.
func (m *Memory) Unresulted(ctx context.Context, account string, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := []string{}
	for id, g := range m.games {
		if _, over := m.finished[id]; over && g.Mode == "online" && g.Result == NoResult && account != "" &&
			(g.Accounts[0] == account || g.Accounts[1] == account) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out[:min(len(out), limit)], nil
}

// RatingHistory returns account's ratings after its rated games.
func (m *Memory) RatingHistory(ctx context.Context, account string, perSpeed int) (map[string][]RatingPoint, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := map[string][]RatingPoint{}
	for _, h := range m.accts.history {
		if h.account == account {
			out[h.speed] = append(out[h.speed], RatingPoint{Game: h.game, At: h.at, Rating: h.after})
		}
	}
	for speed, ps := range out {
		slices.SortStableFunc(ps, func(a, b RatingPoint) int {
			if c := a.At.Compare(b.At); c != 0 {
				return c
			}
			return cmp.Compare(a.Game, b.Game)
		})
		out[speed] = ps[max(0, len(ps)-perSpeed):]
	}
	return out, nil
}

// The SQL of Profiles, on PostgreSQL; SQLite's is the same but for
// the parameters (sqliteParams). Results 1 to 4 are Won0, Won1, Drawn,
// Aborted. The account is the first parameter.
const (
	sqlResults = `SELECT
		count(*) FILTER (WHERE (result = 1 AND account0 = $1) OR (result = 2 AND account1 = $1)),
		count(*) FILTER (WHERE result = 3),
		count(*) FILTER (WHERE (result = 2 AND account0 = $1) OR (result = 1 AND account1 = $1))
		FROM games WHERE (account0 = $1 OR account1 = $1) AND mode = 'online' AND result IN (1, 2, 3)
		AND coalesce(account0, '') <> coalesce(account1, '')`
	sqlUnresulted = `SELECT id FROM games WHERE (account0 = $1 OR account1 = $1) AND mode = 'online'
		AND finished IS NOT NULL AND result = 0 ORDER BY id LIMIT $2`
	// The last $2 of each speed, oldest first.
	sqlRatingHistory = `SELECT speed, game, at, after::text FROM (
		SELECT speed, game, at, after, row_number() OVER (PARTITION BY speed ORDER BY at DESC, game DESC) AS n
		FROM rating_history WHERE account = $1) AS h
		WHERE n <= $2 ORDER BY speed, at, game`
)

// sqliteParams writes PostgreSQL's parameters $1, $2… as SQLite's ?1,
// ?2…, and its casts to text as nothing (SQLite keeps JSON as text).
func sqliteParams(q string) string {
	return strings.ReplaceAll(strings.ReplaceAll(q, "$", "?"), "::text", "")
}

// The SQL of Profiles on SQLite.
var (
	sqliteResults       = sqliteParams(sqlResults)
	sqliteUnresulted    = sqliteParams(sqlUnresulted)
	sqliteRatingHistory = sqliteParams(sqlRatingHistory)
)

// Results counts account's finished games by result.
func (s *SQLite) Results(ctx context.Context, account string) (Tally, error) {
	var t Tally
	if err := s.rdb.QueryRowContext(ctx, sqliteResults, account).Scan(&t.Wins, &t.Draws, &t.Losses); err != nil {
		return Tally{}, fmt.Errorf("store: counting a player's results: %w", err)
	}
	return t, nil
}

// Unresulted returns account's finished games with no result.
func (s *SQLite) Unresulted(ctx context.Context, account string, limit int) ([]string, error) {
	rows, err := s.rdb.QueryContext(ctx, sqliteUnresulted, account, limit)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's games with no result: %w", err)
	}
	return collectIDs(rows, nil)
}

// RatingHistory returns account's ratings after its rated games.
func (s *SQLite) RatingHistory(ctx context.Context, account string, perSpeed int) (map[string][]RatingPoint, error) {
	rows, err := s.rdb.QueryContext(ctx, sqliteRatingHistory, account, perSpeed)
	if err != nil {
		return nil, fmt.Errorf("store: reading a rating history: %w", err)
	}
	defer rows.Close()
	out := map[string][]RatingPoint{}
	for rows.Next() {
		var speed, after string
		var p RatingPoint
		var at int64
		if err := rows.Scan(&speed, &p.Game, &at, &after); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(after), &p.Rating); err != nil {
			return nil, fmt.Errorf("store: rating history of game %q: %w", p.Game, err)
		}
		p.At = time.Unix(0, at)
		out[speed] = append(out[speed], p)
	}
	return out, rows.Err()
}

// Results counts account's finished games by result.
func (p *Postgres) Results(ctx context.Context, account string) (Tally, error) {
	var t Tally
	if err := p.pool.QueryRow(ctx, sqlResults, account).Scan(&t.Wins, &t.Draws, &t.Losses); err != nil {
		return Tally{}, fmt.Errorf("store: counting a player's results: %w", err)
	}
	return t, nil
}

// Unresulted returns account's finished games with no result.
func (p *Postgres) Unresulted(ctx context.Context, account string, limit int) ([]string, error) {
	rows, err := p.pool.Query(ctx, sqlUnresulted, account, limit)
	if err != nil {
		return nil, fmt.Errorf("store: listing a player's games with no result: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// RatingHistory returns account's ratings after its rated games.
func (p *Postgres) RatingHistory(ctx context.Context, account string, perSpeed int) (map[string][]RatingPoint, error) {
	rows, err := p.pool.Query(ctx, sqlRatingHistory, account, perSpeed)
	if err != nil {
		return nil, fmt.Errorf("store: reading a rating history: %w", err)
	}
	defer rows.Close()
	out := map[string][]RatingPoint{}
	for rows.Next() {
		var speed, after string
		var pt RatingPoint
		if err := rows.Scan(&speed, &pt.Game, &pt.At, &after); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(after), &pt.Rating); err != nil {
			return nil, fmt.Errorf("store: rating history of game %q: %w", pt.Game, err)
		}
		out[speed] = append(out[speed], pt)
	}
	return out, rows.Err()
}
