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

// TestPlayerGamesHideInvitations: a game waiting for the friend its
// creator invited (a seat free) is not in the creator's list of games:
// its id there would let any stranger take the seat meant for the
// friend. Once the friend has joined, it is listed; the pages go on
// past the games left out.
func TestPlayerGamesHideInvitations(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	nam, lan := ratedPair(t, ts)
	played, _ := ratedGame(t, nam, lan)
	invite := must[api.Created](t, nam.call("POST", "/api/games", `{"mode":"online","clock":{"initial":180,"increment":2},"rated":true}`), 201)
	stranger := newBrowser(t, ts)
	p := must[api.PlayerGames](t, stranger.call("GET", "/api/players/Nam/games", nil), 200)
	for _, g := range p.Games {
		if g.ID == invite.ID {
			t.Fatalf("the list shows the invitation %s, its seat free", invite.ID)
		}
	}
	if len(p.Games) != 1 || p.Games[0].ID != played {
		t.Errorf("games %+v, want only %s", p.Games, played)
	}
	// A page that holds only an invitation still leads to the next.
	p = must[api.PlayerGames](t, stranger.call("GET", "/api/players/Nam/games?limit=1", nil), 200)
	if len(p.Games) != 0 || p.Next == "" {
		t.Fatalf("first page of one %+v, want no game and a next", p)
	}
	p = must[api.PlayerGames](t, stranger.call("GET", "/api/players/Nam/games?limit=1&before="+url.QueryEscape(p.Next), nil), 200)
	if len(p.Games) != 1 || p.Games[0].ID != played {
		t.Errorf("second page %+v, want %s", p, played)
	}
	must[api.Joined](t, lan.call("POST", "/api/games/"+invite.ID+"/join", ""), 200)
	p = must[api.PlayerGames](t, stranger.call("GET", "/api/players/Nam/games", nil), 200)
	if len(p.Games) != 2 || p.Games[0].ID != invite.ID {
		t.Errorf("after the friend joined: %+v, want %s first", p.Games, invite.ID)
	}
}
