package server

import (
	"net/http/httptest"
	"slices"
	"testing"

	"oanquan/internal/api"
)

// TestBlocks: Nam blocks Lan (POST /api/me/blocks/Lan, listed by GET);
// then neither lists the other's seek, by GET or the lobby socket, nor
// may accept it (404, as if gone), and their quick-pairing tickets are
// not paired; once unblocked (DELETE), they are paired. Refusals: no
// session, no such player, oneself.
func TestBlocks(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	nam, lan := ratedPair(t, ts)
	anon := newBrowser(t, ts)
	wantError(t, anon.call("POST", "/api/me/blocks/Lan", ""), 401, "signed_out")
	wantError(t, nam.call("POST", "/api/me/blocks/Nobody", ""), 404, "not_found")
	wantSelf(t, nam.call("POST", "/api/me/blocks/Nam", ""))
	for range 2 { // blocking twice is one block
		if r := nam.call("POST", "/api/me/blocks/Lan", ""); r.status != 204 {
			t.Fatalf("blocking: %d %s", r.status, r.body)
		}
	}
	if l := must[api.BlockList](t, nam.call("GET", "/api/me/blocks", nil), 200); !slices.Equal(l.Blocks, []string{"Lan"}) {
		t.Errorf("blocks %v, want [Lan]", l.Blocks)
	}
	kn := nam.post(`{"clock":{"initial":300,"increment":0}}`)
	kl := lan.post(`{"clock":{"initial":300,"increment":0}}`)
	if listed(lan.seeks(), kn.ID) || listed(nam.seeks(), kl.ID) {
		t.Error("a blocked pair see each other's seeks")
	}
	ll := dialLobby(t, lan)
	if m := ll.until("the first list", func(m lobbyMsg) bool { return m.Type == "seeks" }); listed(m.Seeks, kn.ID) {
		t.Error("the blocked player's lobby socket lists the blocker's seek")
	}
	if !listed(anon.seeks(), kn.ID) {
		t.Error("another player does not see the seek")
	}
	wantError(t, lan.call("POST", "/api/seeks/"+kn.ID+"/accept", ""), 404, "not_found")
	// Nor read one by its id, either way; others may.
	wantError(t, lan.call("GET", "/api/seeks/"+kn.ID, nil), 404, "not_found")
	wantError(t, nam.call("GET", "/api/seeks/"+kl.ID, nil), 404, "not_found")
	must[api.SeekView](t, anon.call("GET", "/api/seeks/"+kn.ID, nil), 200)
	wantError(t, nam.call("POST", "/api/seeks/"+kl.ID+"/accept", ""), 404, "not_found")

	const pool = `{"clock":{"initial":180,"increment":2}}`
	must[api.Ticket](t, nam.call("POST", "/api/pairing", pool), 201)
	if tl := must[api.Ticket](t, lan.call("POST", "/api/pairing", pool), 201); tl.Game != nil {
		t.Fatal("quick pairing paired a blocked pair")
	}
	if r := nam.call("DELETE", "/api/me/blocks/Lan", nil); r.status != 204 {
		t.Fatalf("unblocking: %d %s", r.status, r.body)
	}
	if tl := must[api.Ticket](t, lan.call("POST", "/api/pairing", pool), 201); tl.Game == nil {
		t.Error("after unblocking, a new ticket is not paired")
	}
}

// TestBlocksLobbyAcrossServers: Nam's lobby socket is on server A; Lan,
// on server B sharing the store, posts a seek (held by Lan's socket on
// B) and A lists it to Nam. Lan blocks Nam through B: A's socket soon
// lists it no more, though nothing else changed in the lobby; Lan
// unblocks through B: it is listed again. Two servers on one PostgreSQL
// database (through its notices); on SQLite, the block and unblock are
// made through the socket's own server (SQLite gives no notices).
func TestBlocksLobbyAcrossServers(t *testing.T) {
	t.Run("postgres", func(t *testing.T) {
		sa, sb := postgresPair(t)
		_, ta := accountServerOn(t, sa, noLimits)
		_, tb := accountServerOn(t, sb, noLimits)
		blockAcross(t, ta, tb)
	})
	t.Run("sqlite", func(t *testing.T) {
		_, ts := accountServer(t, noLimits)
		blockAcross(t, ts, ts)
	})
}

// blockAcross: Nam's lobby socket on ta loses Lan's seek when Lan blocks
// Nam through tb, and lists it again when Lan unblocks.
func blockAcross(t *testing.T, ta, tb *httptest.Server) {
	nam, lan := newBrowser(t, ta), newBrowser(t, tb)
	nam.signUp("Nam", "gà trống gáy sáng")
	lan.signUp("Lan", "trâu ăn cỏ non")
	ln, ll := dialLobby(t, nam), dialLobby(t, lan)
	k := lan.post(`{"clock":{"initial":300,"increment":0}}`)
	ll.hold(k)
	ln.lists(k.ID, true)
	if r := lan.call("POST", "/api/me/blocks/Nam", ""); r.status != 204 {
		t.Fatalf("blocking: %d %s", r.status, r.body)
	}
	ln.lists(k.ID, false)
	if r := lan.call("DELETE", "/api/me/blocks/Nam", nil); r.status != 204 {
		t.Fatalf("unblocking: %d %s", r.status, r.body)
	}
	ln.lists(k.ID, true)
}
