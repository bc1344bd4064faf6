package storetest

import (
	"errors"
	"testing"
	"time"

	"oanquan/internal/rating"
	"oanquan/internal/store"
)

// Accounts is the contract of store.Accounts: accounts, sessions,
// passwords, rated games' endings, deletion, posters.
func Accounts(t *testing.T, open Opener) {
	tests := []struct {
		name string
		f    func(t *testing.T, s store.Accounts, g store.Store)
	}{
		{"Create", testCreateAccount},
		{"Sessions", testSessions},
		{"Password", testSetPassword},
		{"Delete", testDeleteAccount},
		{"EndRated", testEndRated},
		{"EndRatedRefused", testEndRatedRefused},
		{"EndRatedOnce", testEndRatedOnce},
		{"DeleteWithdrawsSeeks", testDeleteWithdrawsSeeks},
		{"Posters", testPosters},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := open(t, nil)
			tt.f(t, s.(store.Accounts), s)
		})
	}
}

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func newAccount(id, name string) (store.Account, store.Session) {
	return store.Account{ID: id, Username: name, Key: "key-" + name, Hash: "$argon2id$" + name, Created: t0},
		store.Session{Key: []byte("session-of-" + id), Account: id, Created: t0, Used: t0, Expires: t0.Add(30 * 24 * time.Hour)}
}

// MustAccount creates account id named name with a session, or fails t;
// it returns the session.
func MustAccount(t *testing.T, s store.Accounts, id, name string) store.Session {
	t.Helper()
	a, se := newAccount(id, name)
	if err := s.CreateAccount(ctx, a, se); err != nil {
		t.Fatalf("CreateAccount(%s) = %v", name, err)
	}
	return se
}

func testCreateAccount(t *testing.T, s store.Accounts, _ store.Store) {
	MustAccount(t, s, "a1", "Nam")
	a, se := newAccount("a2", "Nam") // the same key
	if err := s.CreateAccount(ctx, a, se); !errors.Is(err, store.ErrExists) {
		t.Fatalf("a second account with one key = %v, want ErrExists", err)
	}
	got, err := s.AccountByKey(ctx, "key-Nam")
	if err != nil || got.ID != "a1" || got.Username != "Nam" || got.Hash != "$argon2id$Nam" || !got.Created.Equal(t0) {
		t.Errorf("AccountByKey = %+v, %v", got, err)
	}
	if _, err := s.AccountByKey(ctx, "key-nobody"); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("AccountByKey(unknown) = %v, want ErrNoAccount", err)
	}
	if got, err := s.AccountByID(ctx, "a1"); err != nil || got.Username != "Nam" {
		t.Errorf("AccountByID = %+v, %v", got, err)
	}
}

func testSessions(t *testing.T, s store.Accounts, _ store.Store) {
	se := MustAccount(t, s, "a1", "Nam")
	got, a, err := s.Session(ctx, se.Key, t0.Add(time.Minute))
	if err != nil || got.Account != "a1" || a.Username != "Nam" || !got.Expires.Equal(se.Expires) {
		t.Fatalf("Session = %+v, %+v, %v", got, a, err)
	}
	if _, _, err := s.Session(ctx, se.Key, se.Expires); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("an expired session = %v, want ErrNoAccount", err)
	}
	if _, _, err := s.Session(ctx, []byte("nope"), t0); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("an unknown session = %v, want ErrNoAccount", err)
	}
	// Marked used, at most once an hour.
	later := t0.Add(2 * time.Hour)
	if got, _, _ := s.Session(ctx, se.Key, later); !got.Used.Equal(later) {
		t.Errorf("used = %v, want %v", got.Used, later)
	}
	second := store.Session{Key: []byte("second"), Account: "a1", Created: t0, Used: t0, Expires: se.Expires}
	if err := s.CreateSession(ctx, second); err != nil {
		t.Fatal(err)
	}
	if err := s.EndSession(ctx, se.Key); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Session(ctx, se.Key, t0); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("an ended session = %v", err)
	}
	if _, _, err := s.Session(ctx, second.Key, t0); err != nil {
		t.Errorf("the other session after EndSession = %v", err)
	}
	if err := s.EndSessions(ctx, "a1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Session(ctx, second.Key, t0); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("a session after EndSessions = %v", err)
	}
	if err := s.CreateSession(ctx, store.Session{Key: []byte("x"), Account: "nobody", Expires: se.Expires}); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("a session of no account = %v, want ErrNoAccount", err)
	}
	// Expired sessions are deleted, at most limit a call.
	for i, exp := range []time.Time{t0, t0.Add(time.Hour), t0.Add(2 * time.Hour), se.Expires} {
		if err := s.CreateSession(ctx, store.Session{Key: []byte{byte(i)}, Account: "a1", Created: t0, Used: t0, Expires: exp}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.ExpireSessions(ctx, t0.Add(2*time.Hour), 2); n != 2 || err != nil {
		t.Errorf("ExpireSessions = %d, %v; want 2", n, err)
	}
	if n, err := s.ExpireSessions(ctx, t0.Add(2*time.Hour), 2); n != 1 || err != nil {
		t.Errorf("ExpireSessions again = %d, %v; want 1", n, err)
	}
	if _, _, err := s.Session(ctx, []byte{3}, t0); err != nil {
		t.Errorf("the session not expired = %v", err)
	}
}

func testSetPassword(t *testing.T, s store.Accounts, _ store.Store) {
	se := MustAccount(t, s, "a1", "Nam")
	other := store.Session{Key: []byte("other"), Account: "a1", Created: t0, Used: t0, Expires: se.Expires}
	if err := s.CreateSession(ctx, other); err != nil {
		t.Fatal(err)
	}
	if err := s.SetPassword(ctx, "a1", "new-hash", se.Key); err != nil {
		t.Fatal(err)
	}
	if a, _ := s.AccountByID(ctx, "a1"); a.Hash != "new-hash" {
		t.Errorf("hash = %q", a.Hash)
	}
	if _, _, err := s.Session(ctx, se.Key, t0); err != nil {
		t.Errorf("the session kept = %v", err)
	}
	if _, _, err := s.Session(ctx, other.Key, t0); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("another session after SetPassword = %v, want ErrNoAccount", err)
	}
	// Rehash: only from the hash given, sessions kept.
	if err := s.Rehash(ctx, "a1", "stale-hash", "x"); err != nil {
		t.Fatal(err)
	}
	if err := s.Rehash(ctx, "a1", "new-hash", "rehashed"); err != nil {
		t.Fatal(err)
	}
	if a, _ := s.AccountByID(ctx, "a1"); a.Hash != "rehashed" {
		t.Errorf("hash after Rehash = %q, want rehashed", a.Hash)
	}
	if _, _, err := s.Session(ctx, se.Key, t0); err != nil {
		t.Errorf("the session after Rehash = %v", err)
	}
}

// ratedGame saves a rated online game between accounts a1 and a2.
func ratedGame(t *testing.T, g store.Store, id string) {
	t.Helper()
	game := Sample(id)
	game.Mode, game.Status, game.Waiting = "online", "", store.Idle
	game.Accounts = [2]string{"a1", ""}
	game.Rated = "blitz"
	MustCreate(t, g, game)
	if err := g.(store.Accounts).SeatAccount(ctx, id, 1, "a2"); err != nil {
		t.Fatal(err)
	}
}

func testEndRated(t *testing.T, s store.Accounts, g store.Store) {
	MustAccount(t, s, "a1", "Nam")
	MustAccount(t, s, "a2", "Lan")
	ratedGame(t, g, "r1")
	if got := MustGet(t, g, "r1"); got.Players != [2]string{"Nam", "Lan"} || got.Accounts != [2]string{"a1", "a2"} || got.Rated != "blitz" {
		t.Fatalf("saved players %q, accounts %q, rated %q", got.Players, got.Accounts, got.Rated)
	}
	at := t0.Add(time.Hour)
	rc, err := s.EndRated(ctx, "r1", store.Ending{Index: 2, Move: "5R", Score0: 1, At: at})
	if err != nil {
		t.Fatal(err)
	}
	wantA, wantB, _ := rating.System{}.Game(rating.New(), rating.New(), 1, at)
	if rc.Speed != "blitz" || !near(rc.After[0], wantA) || !near(rc.After[1], wantB) || rc.Before[0].Rating != 1500 {
		t.Errorf("change = %+v, want after %+v and %+v", rc, wantA, wantB)
	}
	for i, id := range []string{"a1", "a2"} {
		r, err := s.Ratings(ctx, id)
		if err != nil || !near(r["blitz"], rc.After[i]) || r["blitz"].Games != 1 {
			t.Errorf("Ratings(%s) = %+v, %v; want %+v", id, r, err, rc.After[i])
		}
	}
	got := MustGet(t, g, "r1")
	if len(got.Moves) != 3 || got.RatingChange == nil || !near(got.RatingChange.After[1], wantB) {
		t.Errorf("game after = moves %q, change %+v", got.Moves, got.RatingChange)
	}
	// A second rated game starts from the first's ratings.
	ratedGame(t, g, "r2")
	at2 := at.Add(time.Hour)
	if _, err := s.EndRated(ctx, "r2", store.Ending{From: "", To: `{"resigned":1}`, Score0: 0.5, At: at2}); err != nil {
		t.Fatal(err)
	}
	wantA2, wantB2, _ := rating.System{}.Game(rc.After[0], rc.After[1], 0.5, at2)
	r1, _ := s.Ratings(ctx, "a1")
	r2, _ := s.Ratings(ctx, "a2")
	if !near(r1["blitz"], wantA2) || !near(r2["blitz"], wantB2) || r1["blitz"].Games != 2 {
		t.Errorf("after two games: %+v %+v, want %+v %+v", r1["blitz"], r2["blitz"], wantA2, wantB2)
	}
	if st := MustGet(t, g, "r2").Status; st != `{"resigned":1}` {
		t.Errorf("status = %q", st)
	}
}

func near(a, b rating.Rating) bool {
	d := func(x, y float64) bool { return x-y < 1e-6 && y-x < 1e-6 }
	return d(a.Rating, b.Rating) && d(a.RD, b.RD) && d(a.Volatility, b.Volatility) && a.Games == b.Games
}

// testEndRatedRefused: an ending that does not fit, or a game not rated,
// changes nothing: no move, no rating.
func testEndRatedRefused(t *testing.T, s store.Accounts, g store.Store) {
	MustAccount(t, s, "a1", "Nam")
	MustAccount(t, s, "a2", "Lan")
	ratedGame(t, g, "r1")
	if _, err := s.EndRated(ctx, "r1", store.Ending{Index: 1, Move: "5R", Score0: 1, At: t0}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a move at a taken index = %v, want ErrConflict", err)
	}
	if _, err := s.EndRated(ctx, "r1", store.Ending{From: "x", To: "y", Score0: 1, At: t0}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a status from another = %v, want ErrConflict", err)
	}
	if _, err := s.EndRated(ctx, "nope", store.Ending{Move: "5R", Index: 2, At: t0}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("no game = %v, want ErrNotFound", err)
	}
	casual := Sample("c")
	casual.Mode, casual.Status = "online", ""
	MustCreate(t, g, casual)
	if _, err := s.EndRated(ctx, "c", store.Ending{Index: 2, Move: "5R", Score0: 1, At: t0}); !errors.Is(err, store.ErrUnrated) {
		t.Errorf("a casual game = %v, want ErrUnrated", err)
	}
	if got := MustGet(t, g, "r1"); len(got.Moves) != 2 || got.RatingChange != nil {
		t.Errorf("refused endings changed the game: %+v", got)
	}
	if r, _ := s.Ratings(ctx, "a1"); len(r) != 0 {
		t.Errorf("refused endings rated: %+v", r)
	}
}

// testEndRatedOnce: a rated game is rated once. Its last move, saved
// through one server, leaves its status as it was; a resignation sent
// through another server at the same moment comes from that status, and
// must be refused as a conflict (the game changed meanwhile), not rate
// the game a second time nor fail as a fault of the store.
func testEndRatedOnce(t *testing.T, s store.Accounts, g store.Store) {
	MustAccount(t, s, "a1", "Nam")
	MustAccount(t, s, "a2", "Lan")
	ratedGame(t, g, "r1")
	rc, err := s.EndRated(ctx, "r1", store.Ending{Index: 2, Move: "5R", Score0: 1, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.EndRated(ctx, "r1", store.Ending{From: "", To: `{"resigned":0}`, Score0: 0, At: t0.Add(time.Second)})
	if !errors.Is(err, store.ErrConflict) {
		t.Errorf("a resignation after the rated end = %v, want ErrConflict", err)
	}
	for i, id := range []string{"a1", "a2"} {
		if r, _ := s.Ratings(ctx, id); !near(r["blitz"], rc.After[i]) || r["blitz"].Games != 1 {
			t.Errorf("Ratings(%s) = %+v, want %+v (rated once)", id, r["blitz"], rc.After[i])
		}
	}
	if got := MustGet(t, g, "r1"); got.Status != "" || got.RatingChange == nil || !near(got.RatingChange.After[0], rc.After[0]) {
		t.Errorf("game after = status %q, change %+v; want the first ending's", got.Status, got.RatingChange)
	}
}

// testDeleteWithdrawsSeeks: DeleteAccount withdraws the account's open
// seeks and tickets: a
// seek of an account that is gone would stay in the lobby (a rated one
// making a game called rated that could only end unrated), and its
// tickets would still be paired. Its seeks accepted already stay, and
// others' seeks are untouched.
func testDeleteWithdrawsSeeks(t *testing.T, s store.Accounts, g store.Store) {
	MustAccount(t, s, "a1", "Nam")
	MustAccount(t, s, "a2", "Lan")
	ks := g.(store.Seeks)
	now := time.Now()
	seek := func(id, acct string, pool bool) store.Seek {
		k := NewSeek(id, now.Add(-time.Minute))
		k.Account, k.Pool = acct, pool
		if err := ks.CreateSeek(ctx, k); err != nil {
			t.Fatal(err)
		}
		return k
	}
	seek("nam-open", "a1", false)
	seek("nam-ticket", "a1", true)
	seek("nam-taken", "a1", false)
	seek("lan-open", "a2", false)
	if err := ks.AcceptSeek(ctx, "nam-taken", "game1", 0, "a2", now, now.Add(10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteAccount(ctx, "a1"); err != nil {
		t.Fatal(err)
	}
	open, err := ks.OpenSeeks(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 1 || open[0].ID != "lan-open" {
		ids := []string{}
		for _, k := range open {
			ids = append(ids, k.ID)
		}
		t.Errorf("open seeks after Nam's account was deleted: %q, want only lan-open", ids)
	}
	if k, err := ks.Seek(ctx, "nam-taken"); err != nil || k.Game != "game1" {
		t.Errorf("Nam's seek accepted before = %+v, %v; want it kept with its game", k, err)
	}
}

func testDeleteAccount(t *testing.T, s store.Accounts, g store.Store) {
	se := MustAccount(t, s, "a1", "Nam")
	MustAccount(t, s, "a2", "Lan")
	ratedGame(t, g, "r1")
	if _, err := s.EndRated(ctx, "r1", store.Ending{Index: 2, Move: "5R", Score0: 1, At: t0}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteAccount(ctx, "a1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Session(ctx, se.Key, t0); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("a deleted account's session = %v", err)
	}
	if _, err := s.AccountByKey(ctx, "key-Nam"); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("a deleted account by key = %v", err)
	}
	if got := MustGet(t, g, "r1"); got.Players != [2]string{"", "Lan"} || len(got.Moves) != 3 {
		t.Errorf("the game after the deletion: players %q, moves %q", got.Players, got.Moves)
	}
	if err := s.DeleteAccount(ctx, "a1"); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("deleting twice = %v", err)
	}
	MustAccount(t, s, "a3", "Nam") // the name is free again
}

// CheckMigratedV6 checks a store migrated from schema v6 (before
// accounts): its game "old" has no accounts and is casual, and accounts
// can be made.
func CheckMigratedV6(t *testing.T, s store.Store) {
	t.Helper()
	if g := MustGet(t, s, "old"); g.Accounts != [2]string{} || g.Rated != "" || g.RatingChange != nil {
		t.Errorf("a v6 game read with accounts %q, rated %q", g.Accounts, g.Rated)
	}
	a := s.(store.Accounts)
	MustAccount(t, a, "a1", "Nam")
	if err := a.SeatAccount(ctx, "old", 0, "a1"); err != nil {
		t.Fatal(err)
	}
	if g := MustGet(t, s, "old"); g.Players[0] != "Nam" {
		t.Errorf("players after migrating = %q", g.Players)
	}
}

// testPosters: Posters reads many accounts' names and ratings at once,
// as Ratings has them one by one: a rated player's speeds, a new
// player's none; deleted accounts and unknown ids are absent.
func testPosters(t *testing.T, s store.Accounts, g store.Store) {
	MustAccount(t, s, "a1", "Nam")
	MustAccount(t, s, "a2", "Lan")
	MustAccount(t, s, "a3", "Mai")
	MustAccount(t, s, "a4", "Hoa")
	ratedGame(t, g, "r1")
	if _, err := s.EndRated(ctx, "r1", store.Ending{Index: 2, Move: "5R", Score0: 1, At: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteAccount(ctx, "a4"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Posters(ctx, []string{"a1", "a2", "a3", "a4", "nobody"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got["a1"].Username != "Nam" || got["a2"].Username != "Lan" || got["a3"].Username != "Mai" {
		t.Fatalf("Posters = %+v, want Nam, Lan and Mai", got)
	}
	for _, id := range []string{"a1", "a2", "a3"} {
		want, err := s.Ratings(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		rs := got[id].Ratings
		if len(rs) != len(want) {
			t.Errorf("Posters[%s].Ratings = %+v, want %+v", id, rs, want)
		}
		for speed, w := range want {
			if r := rs[speed]; !near(r, w) || r.Games != w.Games || !r.Updated.Equal(w.Updated) {
				t.Errorf("Posters[%s].Ratings[%s] = %+v, want %+v", id, speed, r, w)
			}
		}
	}
	if len(got["a1"].Ratings) != 1 || len(got["a3"].Ratings) != 0 {
		t.Errorf("Posters: a1's ratings %+v (want blitz), a3's %+v (want none)", got["a1"].Ratings, got["a3"].Ratings)
	}
	if none, err := s.Posters(ctx, nil); err != nil || len(none) != 0 {
		t.Errorf("Posters(none) = %v, %v", none, err)
	}
}
