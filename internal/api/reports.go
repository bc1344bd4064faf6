package api

import (
	"context"
	"slices"
	"strings"
)

// ReportReasons are the reasons a player may give for a report: a fixed
// list, never free text (a game children play has none).
var ReportReasons = []string{"cheating", "stalling", "offensive_name", "sandbagging", "other"}

// ReportRequest is the body of POST /api/players/{name}/report: a reason
// of ReportReasons, and the id of the game it is about, if any.
type ReportRequest struct {
	Reason string `json:"reason"`
	Game   string `json:"game,omitempty"`
}

// ReportHost is the part of a Host that keeps players' reports for the
// operators: the server's.
type ReportHost interface {
	// Report saves the caller's report of player name (ErrNotFound for
	// no such player, a *FieldError for a game not found), within the
	// limits per address and per account (ErrRate).
	Report(ctx context.Context, name string, q ReportRequest) error
}

func report(c *Call) (Response, error) {
	h, ok := c.Host.(ReportHost)
	if !ok {
		return Response{}, Fail(ErrNotOffline, "reports need the server")
	}
	var b struct {
		Reason *string `json:"reason"`
		Game   *string `json:"game"`
	}
	if err := decode(c.Body, &b, false); err != nil {
		return Response{}, err
	}
	if b.Reason == nil {
		return Response{}, &FieldError{"reason", "missing", "missing: one of " + strings.Join(ReportReasons, ", ")}
	}
	if !slices.Contains(ReportReasons, *b.Reason) {
		return Response{}, &FieldError{"reason", "unknown", "not a reason: want one of " + strings.Join(ReportReasons, ", ")}
	}
	q := ReportRequest{Reason: *b.Reason}
	if b.Game != nil {
		q.Game = *b.Game
	}
	if err := h.Report(c.Ctx, c.ID, q); err != nil {
		return Response{}, err
	}
	return Response{Status: 204}, nil
}
