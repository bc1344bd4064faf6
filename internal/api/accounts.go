package api

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// Accounts (issue 21): sign-up, sign-in, sessions, the player's own
// account and the public profile of a player's ratings. Only the server
// keeps accounts: these routes are Online, and the engine in the browser
// answers them with ErrNotOffline. What a username or a password may be,
// how a password is hashed and how a session travels (a cookie) are the
// host's (package account, used by the server), for package api knows no
// HTTP.

// AccountHost is the part of a Host that keeps accounts: the server's.
// The session is the request's (its cookie); an operation that signs in
// gives the caller a new session, one that signs out ends the caller's.
type AccountHost interface {
	// SignUp makes a new account and signs the caller in to it. It
	// refuses a username or password the rules do not allow with a
	// *FieldError, and a username taken (by any spelling that has the
	// same key) with ErrUsernameTaken.
	SignUp(ctx context.Context, username string, password Password) (Player, error)
	// SignIn signs the caller in. Any wrong pair is ErrCredentials, and
	// costs the same whether the username exists or not.
	SignIn(ctx context.Context, username string, password Password) (Player, error)
	// SignOut ends the caller's session, or every session of its
	// account when everywhere; ErrSignedOut if it has none.
	SignOut(ctx context.Context, everywhere bool) error
	// Me returns the caller's account and ratings; ErrSignedOut if the
	// caller has no session.
	Me(ctx context.Context) (Player, error)
	// ChangePassword replaces the caller's password, if old is it, and
	// ends its account's other sessions.
	ChangePassword(ctx context.Context, old, new Password) error
	// DeleteAccount deletes the caller's account, if password is its
	// password: its games stay, their seats with no name.
	DeleteAccount(ctx context.Context, password Password) error
	// Player returns a player's public ratings; ErrNotFound for none.
	Player(ctx context.Context, name string) (Player, error)
	// Seats returns who plays game id's seats and, once a rated game
	// ended, their ratings before and after it.
	Seats(ctx context.Context, id string) (Seats, error)
}

// The refusals of accounts.
var (
	ErrCredentials   = Fail(errCredentials, "wrong username or password")
	errCredentials   = kind("bad credentials")
	ErrUsernameTaken = Fail(errUsernameTaken, "this username is taken")
	errUsernameTaken = kind("username taken")
	ErrSignedOut     = Fail(errSignedOut, "you are not signed in")
	errSignedOut     = kind("signed out")
)

// kind is a kind of refusal of the error table.
type kind string

func (k kind) Error() string { return string(k) }

// Password is a password as a request carries it. It prints, logs and
// marshals as "[redacted]", so that it reaches no log or answer by
// accident.
type Password string

const redacted = "[redacted]"

func (Password) String() string               { return redacted }
func (Password) GoString() string             { return redacted }
func (Password) LogValue() slog.Value         { return slog.StringValue(redacted) }
func (Password) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }
func (Password) MarshalText() ([]byte, error) { return []byte(redacted), nil }
func (Password) Format(f fmt.State, _ rune)   { f.Write([]byte(redacted)) }

// Player is an account as GET /api/players/{name} and GET /api/me show
// it: its username, its ratings by speed ("blitz", …), the speeds it
// has played rated games in, its results and when it joined.
type Player struct {
	Username string            `json:"username"`
	Ratings  map[string]Rating `json:"ratings"`
	Results  Results           `json:"results"`
	Joined   time.Time         `json:"joined"` // when the account was made
}

// Results counts a player's online games against someone else that
// ended, rated and casual, by their result for the player; aborted
// games are not counted.
type Results struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Rating is one rating of a player, as it stands now (its RD grown for
// the time since the last game): provisional ("?") while RD is above
// 110.
type Rating struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Volatility  float64 `json:"volatility"`
	Provisional bool    `json:"provisional"`
	Games       int     `json:"games"`
}

// FieldError refuses a field of a request (400 bad_request) with the
// rule it broke: Reason is a stable word (account's: "too_short",
// "reserved", "common", …) for the page to say in the player's language,
// Problem the same in English, never holding a password.
type FieldError struct {
	Field, Reason, Problem string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Problem }
func (e *FieldError) Unwrap() error { return ErrBadRequest }

// WrongPassword refuses a request that must give the account's
// password to change it or delete the account (401 bad_credentials),
// naming the field that held it ("old", "password") with the reason
// "wrong". A sign-in's wrong pair is ErrCredentials, which names no
// field: it tells nothing of which was wrong.
type WrongPassword struct{ Field string }

func (e *WrongPassword) Error() string { return e.Field + ": wrong password" }
func (e *WrongPassword) Unwrap() error { return errCredentials }

// accounts returns the caller's host of accounts.
func accounts(c *Call) (AccountHost, error) {
	if a, ok := c.Host.(AccountHost); ok {
		return a, nil
	}
	return nil, Fail(ErrNotOffline, "accounts need the server")
}

// credentials is the body of a sign-up or sign-in.
type credentials struct {
	Username *string   `json:"username"`
	Password *Password `json:"password"`
}

// readCredentials decodes c's body, requiring both fields.
func readCredentials(c *Call) (string, Password, error) {
	var q credentials
	if err := decode(c.Body, &q, false); err != nil {
		return "", "", err
	}
	if q.Username == nil {
		return "", "", &FieldError{"username", "missing", "missing"}
	}
	if q.Password == nil {
		return "", "", &FieldError{"password", "missing", "missing"}
	}
	return *q.Username, *q.Password, nil
}

func signUp(c *Call) (Response, error) {
	a, err := accounts(c)
	if err != nil {
		return Response{}, err
	}
	if err := c.Host.Allow("sign-up"); err != nil {
		return Response{}, err
	}
	name, pw, err := readCredentials(c)
	if err != nil {
		return Response{}, err
	}
	p, err := a.SignUp(c.Ctx, name, pw)
	if err != nil {
		return Response{}, err
	}
	return Response{Status: 201, Body: p, Header: map[string]string{"Location": "/api/me"}}, nil
}

func signIn(c *Call) (Response, error) {
	a, err := accounts(c)
	if err != nil {
		return Response{}, err
	}
	if err := c.Host.Allow("sign-in"); err != nil {
		return Response{}, err
	}
	name, pw, err := readCredentials(c)
	if err != nil {
		return Response{}, err
	}
	p, err := a.SignIn(c.Ctx, name, pw)
	if err != nil {
		return Response{}, err
	}
	return ok(p)
}

// signOut ends the caller's session (everywhere: every session of its
// account).
func signOut(everywhere bool) func(*Call) (Response, error) {
	return func(c *Call) (Response, error) {
		a, err := accounts(c)
		if err != nil {
			return Response{}, err
		}
		if err := a.SignOut(c.Ctx, everywhere); err != nil {
			return Response{}, err
		}
		return Response{Status: 204}, nil
	}
}

func me(c *Call) (Response, error) {
	a, err := accounts(c)
	if err != nil {
		return Response{}, err
	}
	p, err := a.Me(c.Ctx)
	if err != nil {
		return Response{}, err
	}
	return ok(p)
}

type passwordChange struct {
	Old *Password `json:"old"`
	New *Password `json:"new"`
}

func changePassword(c *Call) (Response, error) {
	a, err := accounts(c)
	if err != nil {
		return Response{}, err
	}
	if _, err := a.Me(c.Ctx); err != nil { // signed in, before the body
		return Response{}, err
	}
	var q passwordChange
	if err := decode(c.Body, &q, false); err != nil {
		return Response{}, err
	}
	if q.Old == nil {
		return Response{}, &FieldError{"old", "missing", "missing"}
	}
	if q.New == nil {
		return Response{}, &FieldError{"new", "missing", "missing"}
	}
	if err := a.ChangePassword(c.Ctx, *q.Old, *q.New); err != nil {
		return Response{}, err
	}
	return Response{Status: 204}, nil
}

type deletion struct {
	Password *Password `json:"password"`
}

func deleteAccount(c *Call) (Response, error) {
	a, err := accounts(c)
	if err != nil {
		return Response{}, err
	}
	if _, err := a.Me(c.Ctx); err != nil {
		return Response{}, err
	}
	var q deletion
	if err := decode(c.Body, &q, false); err != nil {
		return Response{}, err
	}
	if q.Password == nil {
		return Response{}, &FieldError{"password", "missing", "missing"}
	}
	if err := a.DeleteAccount(c.Ctx, *q.Password); err != nil {
		return Response{}, err
	}
	return Response{Status: 204}, nil
}

func playerProfile(c *Call) (Response, error) {
	a, err := accounts(c)
	if err != nil {
		return Response{}, err
	}
	p, err := a.Player(c.Ctx, c.ID)
	if err != nil {
		return Response{}, err
	}
	return ok(p)
}

// Seats is who plays a game's seats (GET /api/games/{id}/players): each
// seat's username (null for a player with no account, or whose account
// was deleted) and, once a rated game has ended, their ratings before
// and after it. Rated is the speed of a rated game; absent for a casual
// one.
type Seats struct {
	Rated   string     `json:"rated,omitempty"`
	Players [2]SeatOne `json:"players"`
}

// SeatOne is one seat of Seats.
type SeatOne struct {
	Username *string `json:"username"`
	Before   *Rating `json:"before,omitempty"`
	After    *Rating `json:"after,omitempty"`
}

func seats(c *Call) (Response, error) {
	a, err := accounts(c)
	if err != nil {
		return Response{}, err
	}
	s, err := a.Seats(c.Ctx, c.ID)
	if err != nil {
		return Response{}, err
	}
	return ok(s)
}
