package server

import (
	"net/url"
	"testing"

	"oanquan/internal/api"
)

// TestPlayerGames: GET /api/players/{name}/games lists a player's games,
// newest first, with the seat, the opponent and the speed of a rated
// one, a page at a time (limit, then before=next); refusals name the
// field; an unknown player is 404.
func TestPlayerGames(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	nam, lan := ratedPair(t, ts)
	first, _ := ratedGame(t, nam, lan)
	second, _ := ratedGame(t, lan, nam)
	p := must[api.PlayerGames](t, nam.call("GET", "/api/players/nam/games?limit=1", nil), 200)
	if len(p.Games) != 1 || p.Games[0].ID != second || p.Next == "" {
		t.Fatalf("first page %+v, want %s and a next", p, second)
	}
	if g := p.Games[0]; g.Opponent == nil || *g.Opponent != "Lan" || g.Rated != "blitz" {
		t.Errorf("game %+v, want against Lan, rated blitz", g)
	}
	p = must[api.PlayerGames](t, nam.call("GET", "/api/players/Nam/games?limit=1&before="+url.QueryEscape(p.Next), nil), 200)
	if len(p.Games) != 1 || p.Games[0].ID != first {
		t.Fatalf("second page %+v, want %s", p, first)
	}
	p = must[api.PlayerGames](t, nam.call("GET", "/api/players/Nam/games?limit=1&before="+url.QueryEscape(p.Next), nil), 200)
	if len(p.Games) != 0 || p.Next != "" {
		t.Errorf("third page %+v, want empty and no next", p)
	}
	wantFieldError(t, nam.call("GET", "/api/players/Nam/games?limit=500", nil), "limit")
	wantFieldError(t, nam.call("GET", "/api/players/Nam/games?before=yesterday", nil), "before")
	wantError(t, nam.call("GET", "/api/players/Nobody/games", nil), 404, "not_found")
}
