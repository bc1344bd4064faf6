package server

import (
	"context"

	"oanquan/internal/api"
	"oanquan/internal/players"
)

// Report saves the caller's report of player name (package players).
func (h host) Report(ctx context.Context, name string, q api.ReportRequest) error {
	if q.Game != "" && !validID(q.Game) {
		return &api.FieldError{Field: "game", Reason: "format", Problem: "not a game's id"}
	}
	reported, err := h.playerID(ctx, name)
	if err != nil {
		return err
	}
	acct, err := h.caller(ctx, false)
	if err != nil {
		return err
	}
	r := players.Report{Reporter: acct, Address: h.s.limits.Client(h.r), Reported: reported, ReportedName: name, Reason: q.Reason, Game: q.Game}
	return h.s.players.Report(ctx, r, func() error {
		return h.s.limits.AllowShared(ctx, h.r, "report", players.ReportRate)
	})
}
