package server

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"oanquan/internal/api"
	"oanquan/internal/store/memory"
	"oanquan/internal/wire"
)

// TestRetention: the job deletes an invitation nobody opened, a finished
// game and an unfinished one each when its time is up, and only then; a
// game deleted while live is closed; a game ended by its players counts
// as finished.
func TestRetention(t *testing.T) {
	var logged bytes.Buffer
	s := newServer(t, Config{Store: memory.New(), Log: slog.New(slog.NewTextHandler(&logged, nil))})
	invite := must[api.Created](t, do(t, s, "POST", "/api/games", map[string]any{"mode": "online"}), 201)
	ended, a, _ := onlineGame(t, s, `{"mode":"online"}`)
	must[wire.Game](t, a.act(t, s, "POST", "/api/games/"+ended+"/resign", ""), 200)
	playing := create(t, s, map[string]any{"mode": "local"})
	must[wire.Turn](t, do(t, s, "POST", "/api/games/"+playing.ID+"/moves", map[string]any{"move": playing.Legal[0]}), 200)
	time.Sleep(time.Millisecond) // every game is now older than a microsecond

	gone := func(ids ...string) {
		t.Helper()
		for _, id := range ids {
			if r := do(t, s, "GET", "/api/games/"+id, nil); r.status != 404 {
				t.Errorf("game %s after it was due: %s, want 404", id, r)
			}
		}
	}
	kept := func(ids ...string) {
		t.Helper()
		for _, id := range ids {
			get(t, s, id)
		}
	}
	for _, step := range []struct {
		keep       Retention
		deleted    int
		gone, kept []string
	}{
		{Retention{Invitations: time.Microsecond, Unfinished: time.Hour, Finished: time.Hour}, 1, []string{invite.ID}, []string{ended, playing.ID}},
		{Retention{Invitations: -1, Unfinished: -1, Finished: time.Microsecond}, 1, []string{ended}, []string{playing.ID}},
		{Retention{Invitations: -1, Unfinished: time.Hour, Finished: -1}, 0, nil, []string{playing.ID}},
		{Retention{Invitations: -1, Unfinished: time.Microsecond, Finished: -1}, 1, []string{playing.ID}, nil},
	} {
		s.cfg.Retention = step.keep
		if n := s.expire(); n != step.deleted {
			t.Errorf("keeping %+v: %d games deleted, want %d", step.keep, n, step.deleted)
		}
		gone(step.gone...)
		kept(step.kept...)
	}
	if !strings.Contains(logged.String(), `msg="deleted games past their time" games=1`) {
		t.Errorf("the deletions are not logged:\n%s", logged.String())
	}
}
