package api

import (
	"context"
	"encoding/json"
	"time"

	"oanquan/internal/wire"
)

// The lobby (issue 21, docs/API.md "Lobby"): seeks that anyone may
// accept. Only the server keeps them: these routes are Online, and the
// engine in the browser answers them with ErrNotOffline.

// SeekHost is the part of a Host that keeps the lobby: the server's. The
// caller is known by its session (a cookie) and the secret it sends (a
// poster's).
type SeekHost interface {
	// PostSeek saves a new seek of the caller's. A rated seek needs a
	// session (ErrSignedOut).
	PostSeek(ctx context.Context, q SeekRequest) (SeekPosted, error)
	// OpenSeeks returns the open seeks the caller may accept: not its
	// own, and whose rating range holds its rating.
	OpenSeeks(ctx context.Context) ([]SeekView, error)
	// Seek returns seek id; to its poster, once accepted, the game it
	// made and the poster's seat. ErrNotFound for none.
	Seek(ctx context.Context, id string) (SeekView, error)
	// CancelSeek removes seek id, if the caller posted it (ErrSeat
	// otherwise); ErrNotFound for none.
	CancelSeek(ctx context.Context, id string) error
	// AcceptSeek makes the seek's game, and gives the caller its seat
	// and a secret. Of many accepting one seek at once, one gets it; the
	// others ErrSeekTaken.
	AcceptSeek(ctx context.Context, id string) (Joined, error)
	// JoinPool puts a ticket of the caller's in the pool of quick
	// pairing for q's clock (q.Range unused), paired at once if it can
	// be. A rated ticket needs a session (ErrSignedOut).
	JoinPool(ctx context.Context, q SeekRequest) (Ticket, error)
}

// Ticket answers POST /api/pairing: the ticket's id and secret (which
// leaves the pool, by DELETE /api/seeks/{id}, and acts for the player's
// seat of the game it makes); when paired at once, the game and the
// player's seat.
type Ticket struct {
	ID     string     `json:"id"`
	Secret string     `json:"secret"`
	Speed  string     `json:"speed"`
	Game   *wire.Game `json:"game,omitempty"`
	Seat   *int       `json:"seat,omitempty"`
}

// joinPool answers POST /api/pairing {"clock", "rated"}.
func joinPool(c *Call) (Response, error) {
	h, err := seekHost(c)
	if err != nil {
		return Response{}, err
	}
	var b seekBody
	if err := decode(c.Body, &b, false); err != nil {
		return Response{}, err
	}
	if b.Clock == nil {
		return Response{}, &FieldError{"clock", "missing", `missing: the pool of a clock, {"initial": SECONDS, "increment": SECONDS} or {"days": N}`}
	}
	if b.Range != nil {
		return Response{}, &FieldError{"range", "unknown", "quick pairing takes no range: it widens with the wait"}
	}
	q := SeekRequest{Clock: *b.Clock}
	if b.Rated != nil {
		q.Rated = *b.Rated
	}
	t, err := h.JoinPool(c.Ctx, q)
	if err != nil {
		return Response{}, err
	}
	return Response{Status: 201, Body: t, Header: map[string]string{"Location": "/api/seeks/" + t.ID}}, nil
}

// The refusals of the lobby.
var (
	ErrSeekTaken  = Fail(errSeekTaken, "this seek was taken by someone else")
	errSeekTaken  = kind("seek taken")
	ErrOwnSeek    = Fail(errOwnSeek, "this seek is yours: someone else must accept it")
	errOwnSeek    = kind("own seek")
	ErrOutOfRange = Fail(errOutOfRange, "your rating is outside the seek's range")
	errOutOfRange = kind("out of range")
)

// SeekRequest is the body of POST /api/seeks: a time control (required),
// rated or casual, and the range of the ratings of who may accept it
// (nil: anyone).
type SeekRequest struct {
	Clock ClockSetting
	Rated bool
	Range *[2]int
}

// The bounds of a seek's rating range.
const (
	MinRange = 0
	MaxRange = 4000
)

// SeekView is a seek as the lobby shows it.
type SeekView struct {
	ID string `json:"id"`
	// Poster is the poster's username, or "anonymous".
	Poster string `json:"poster"`
	// Rating is the poster's rating in the seek's speed (a new player's
	// if it has none); nil for an anonymous poster.
	Rating  *Rating      `json:"rating,omitempty"`
	Clock   ClockSetting `json:"clock"`
	Rated   bool         `json:"rated"`
	Speed   string       `json:"speed"`
	Range   *[2]int      `json:"range,omitempty"`
	Created time.Time    `json:"created"`
	// Game and Seat are shown to the poster alone, once the seek is
	// accepted: the game it made and the poster's seat in it (whose
	// secret is the seek's).
	Game string `json:"game,omitempty"`
	Seat *int   `json:"seat,omitempty"`
}

// SeekPosted answers POST /api/seeks: the seek, and the poster's secret,
// which cancels it and acts for the poster's seat of the game it makes.
type SeekPosted struct {
	SeekView
	Secret string `json:"secret"`
}

// seekHost returns the caller's lobby.
func seekHost(c *Call) (SeekHost, error) {
	if a, ok := c.Host.(SeekHost); ok {
		return a, nil
	}
	return nil, Fail(ErrNotOffline, "the lobby needs the server")
}

// seekBody is the JSON of a SeekRequest, every field optional in the
// decoding so that a missing one is named.
type seekBody struct {
	Clock *ClockSetting    `json:"clock"`
	Rated *bool            `json:"rated"`
	Range *json.RawMessage `json:"range"`
}

// readSeek decodes and checks the body of POST /api/seeks.
func readSeek(c *Call) (SeekRequest, error) {
	var b seekBody
	if err := decode(c.Body, &b, false); err != nil {
		return SeekRequest{}, err
	}
	if b.Clock == nil {
		return SeekRequest{}, &FieldError{"clock", "missing", `missing: a seek needs a clock, {"initial": SECONDS, "increment": SECONDS} or {"days": N}`}
	}
	q := SeekRequest{Clock: *b.Clock}
	if b.Rated != nil {
		q.Rated = *b.Rated
	}
	if b.Range != nil && string(*b.Range) != "null" {
		var r []json.Number
		if err := json.Unmarshal(*b.Range, &r); err != nil || len(r) != 2 {
			return SeekRequest{}, &FieldError{"range", "shape", "want [MIN, MAX], two whole numbers"}
		}
		var lh [2]int
		for i, n := range r {
			v, err := n.Int64()
			if err != nil || v < MinRange || v > MaxRange {
				return SeekRequest{}, &FieldError{"range", "bounds", "want [MIN, MAX], whole numbers from 0 to 4000"}
			}
			lh[i] = int(v)
		}
		if lh[0] > lh[1] {
			return SeekRequest{}, &FieldError{"range", "order", "want [MIN, MAX] with MIN no more than MAX"}
		}
		q.Range = &lh
	}
	return q, nil
}

func postSeek(c *Call) (Response, error) {
	h, err := seekHost(c)
	if err != nil {
		return Response{}, err
	}
	q, err := readSeek(c)
	if err != nil {
		return Response{}, err
	}
	p, err := h.PostSeek(c.Ctx, q)
	if err != nil {
		return Response{}, err
	}
	return Response{Status: 201, Body: p, Header: map[string]string{"Location": "/api/seeks/" + p.ID}}, nil
}

// SeekList is the answer of GET /api/seeks.
type SeekList struct {
	Seeks []SeekView `json:"seeks"`
}

func listSeeks(c *Call) (Response, error) {
	h, err := seekHost(c)
	if err != nil {
		return Response{}, err
	}
	l, err := h.OpenSeeks(c.Ctx)
	if err != nil {
		return Response{}, err
	}
	if l == nil {
		l = []SeekView{}
	}
	return ok(SeekList{Seeks: l})
}

func getSeek(c *Call) (Response, error) {
	h, err := seekHost(c)
	if err != nil {
		return Response{}, err
	}
	v, err := h.Seek(c.Ctx, c.ID)
	if err != nil {
		return Response{}, err
	}
	return ok(v)
}

func cancelSeek(c *Call) (Response, error) {
	h, err := seekHost(c)
	if err != nil {
		return Response{}, err
	}
	if err := h.CancelSeek(c.Ctx, c.ID); err != nil {
		return Response{}, err
	}
	return Response{Status: 204}, nil
}

func acceptSeek(c *Call) (Response, error) {
	h, err := seekHost(c)
	if err != nil {
		return Response{}, err
	}
	var q struct{}
	if err := decode(c.Body, &q, true); err != nil {
		return Response{}, err
	}
	j, err := h.AcceptSeek(c.Ctx, c.ID)
	if err != nil {
		return Response{}, err
	}
	return ok(j)
}
