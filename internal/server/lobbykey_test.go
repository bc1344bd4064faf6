package server

import (
	"testing"

	"oanquan/internal/api"
)

// TestLobbyPosterKey: an anonymous browser that posted two seeks (its
// poster key in a cookie) sees neither listed, by GET or by its lobby
// socket, and may not accept the one whose secret it does not send (409
// own_seek); another browser sees and accepts it.
func TestLobbyPosterKey(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	k1 := a.post(`{"clock":{"initial":300,"increment":0}}`)
	k2 := a.post(`{"clock":{"initial":600,"increment":0}}`)
	if l := a.seeks("Authorization", "Bearer "+k2.Secret); listed(l, k1.ID) || listed(l, k2.ID) {
		t.Errorf("the poster's GET /api/seeks lists its own seeks: %+v", l)
	}
	la := dialLobby(t, a)
	m := la.until("the first list", func(m lobbyMsg) bool { return m.Type == "seeks" })
	if listed(m.Seeks, k1.ID) || listed(m.Seeks, k2.ID) {
		t.Errorf("the poster's lobby socket lists its own seeks: %+v", m.Seeks)
	}
	wantError(t, a.call("POST", "/api/seeks/"+k1.ID+"/accept", "", "Authorization", "Bearer "+k2.Secret), 409, "own_seek")
	if l := b.seeks(); !listed(l, k1.ID) || !listed(l, k2.ID) {
		t.Fatalf("another browser's list lacks the seeks: %+v", l)
	}
	must[api.Joined](t, b.call("POST", "/api/seeks/"+k1.ID+"/accept", ""), 200)
}

// TestPairingPosterKey: an anonymous browser joining a pool twice
// without its first ticket's secret (two tabs) is not paired with
// itself; another browser is paired with it.
func TestPairingPosterKey(t *testing.T) {
	_, ts := accountServer(t, noLimits)
	a, b := newBrowser(t, ts), newBrowser(t, ts)
	const pool = `{"clock":{"initial":180,"increment":2}}`
	t1 := must[api.Ticket](t, a.call("POST", "/api/pairing", pool), 201)
	t2 := must[api.Ticket](t, a.call("POST", "/api/pairing", pool), 201)
	if t1.ID == t2.ID || t2.Game != nil {
		t.Fatalf("the second tab's ticket %+v: want a new ticket, not paired with the first %s", t2, t1.ID)
	}
	tb := must[api.Ticket](t, b.call("POST", "/api/pairing", pool), 201)
	if tb.Game == nil {
		t.Fatalf("another browser's ticket %+v is not paired", tb)
	}
}
