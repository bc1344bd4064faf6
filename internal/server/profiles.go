package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/match"
	"oanquan/internal/store"
	"oanquan/internal/wire"
)

// Profiles (issue 21): what GET /api/players/{name} shows beside the
// ratings (results, when the player joined), the history of its ratings,
// its games' results and the download of all its games' records.

// fillBatch bounds the games finished before the store kept results
// (schema v10) whose results one request works out: there are few, and
// each is worked out once.
const fillBatch = 100

// replayed rebuilds saved game g (not live) and returns its state.
func replayed(g store.Game) (match.State, error) {
	cfg, err := fromStored(g)
	if err != nil {
		return match.State{}, err
	}
	m, err := match.New(cfg)
	if err != nil {
		return match.State{}, err
	}
	defer m.Close()
	return m.State(), nil
}

// fillResults works out and records the results of account's games
// that ended before the store kept results.
func (s *Server) fillResults(ctx context.Context, acct string) error {
	ids, err := s.store.Unresulted(ctx, acct, fillBatch)
	if err != nil {
		return err
	}
	for _, id := range ids {
		g, err := s.store.Get(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue // expired meanwhile
		}
		if err != nil {
			return err
		}
		st, err := replayed(g)
		if err != nil {
			s.log.Warn("working out an old game's result", "id", id, "err", err)
			continue
		}
		if !st.Over() {
			continue
		}
		if err := s.store.Finish(ctx, id, resultFrom(st.Status.Outcome, st.Result.Winner)); err != nil {
			return err
		}
	}
	return nil
}

// allowProfile applies the client's limit of reads of players'
// profiles, histories and games, blocks and leaderboards (each a query
// of the store or more).
func (h host) allowProfile() error {
	return h.s.limits.Allow(h.r, "profile", h.s.limits.Config().Profiles)
}

// History returns player name's ratings after each rated game
// (package accounts).
func (h host) History(ctx context.Context, name string) (api.History, error) {
	if err := h.allowProfile(); err != nil {
		return api.History{}, err
	}
	acct, err := h.playerID(ctx, name)
	if err != nil {
		return api.History{}, err
	}
	return h.s.accounts.History(ctx, acct)
}

// recordsPage is how many games the records' download reads at a time.
const recordsPage = 100

// playerRecords answers GET /api/players/{name}/records: the records of
// all the player's finished games (docs/RECORD.md), newest first, one
// after another with a blank line between, streamed as they are made.
// Limited per address, over every server sharing the store: each costs
// the whole of a player's games.
func (s *Server) playerRecords(w http.ResponseWriter, r *http.Request) error {
	if err := s.limits.AllowShared(r.Context(), r, "records", s.limits.Config().Records); err != nil {
		return err
	}
	ctx := r.Context()
	a, err := s.accounts.ByName(ctx, r.PathValue("id"))
	if err != nil {
		return err
	}
	if err := s.fillResults(ctx, a.ID); err != nil {
		return err
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/plain; charset=utf-8")
	hd.Set("Content-Disposition", recordsDisposition(a.Username))
	if r.Method == http.MethodHead {
		return nil
	}
	rc := http.NewResponseController(w)
	before, wrote := time.Now().Add(time.Hour), false
	for {
		ids, err := s.store.GamesOf(ctx, a.ID, before, recordsPage)
		if err != nil {
			return s.recordsFailed(ctx, a.ID, wrote, err)
		}
		for _, id := range ids {
			g, err := s.store.Get(ctx, id)
			if errors.Is(err, store.ErrNotFound) {
				continue // expired meanwhile
			}
			if err != nil {
				return s.recordsFailed(ctx, a.ID, wrote, err)
			}
			before = g.Created
			if g.Result == store.NoResult {
				continue // going on
			}
			if g.Seats[0] == nil || g.Seats[1] == nil {
				// An invitation that ended with its seat free: its id
				// would let anyone take the seat (as in PlayerGames).
				continue
			}
			text, err := recordOf(g)
			if err != nil {
				s.log.Warn("a saved game's record", "id", id, "err", err)
				continue
			}
			if wrote {
				text = "\n" + text
			}
			if _, err := w.Write([]byte(text)); err != nil {
				return nil // the client has gone
			}
			wrote = true
		}
		rc.Flush()
		if len(ids) < recordsPage {
			return nil
		}
	}
}

// recordsFailed logs a failure of the records' download of account
// acct (unless its client has gone: ctx is done); once some were sent,
// the answer is cut short (its status went with the first) and there is
// no error to answer.
func (s *Server) recordsFailed(ctx context.Context, acct string, wrote bool, err error) error {
	if !wrote {
		return err
	}
	if ctx.Err() == nil {
		s.log.Error("downloading a player's records", "account", acct, "err", err)
	}
	return nil
}

// recordOf is the record of saved game g, which is over, with its id
// (tag Game), its players' names and the speed of a rated game (Rated).
func recordOf(g store.Game) (string, error) {
	st, err := replayed(g)
	if err != nil {
		return "", err
	}
	tags := map[string]string{"Game": g.ID}
	for p, name := range g.Players {
		if name != "" {
			tags[fmt.Sprintf("Player%d", p)] = name
		}
	}
	if g.Rated != "" {
		tags["Rated"] = g.Rated
	}
	text, err := wire.RecordTagged(&st, g.Created, tags)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(text, "\n") + "\n", nil
}

// recordsDisposition is the Content-Disposition of player name's
// records: an attachment named "<name>-games.txt"; a name beyond ASCII
// goes in filename* (RFC 6266), with "_" for its other letters in
// filename.
func recordsDisposition(name string) string {
	file := name + "-games.txt"
	ascii := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '_'
		}
		return r
	}, file)
	if ascii == file {
		return `attachment; filename="` + file + `"`
	}
	return `attachment; filename="` + ascii + `"; filename*=UTF-8''` + url.PathEscape(file)
}
