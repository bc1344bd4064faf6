package storetest

import (
	"context"
	"testing"
	"time"

	"oanquan/internal/store"
)

// Reports: reports are kept whole, listed newest first since a time
// and up to a limit, and counted per reporting account.
func Reports(t *testing.T, s store.Full) {
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"r1", "r2", "r3"} {
		r := store.Report{ID: id, Reporter: "a", ReporterName: "Nam", Address: "192.0.2.1", Reported: "b", ReportedName: "Lan",
			Reason: "stalling", Game: "g" + id, Created: t0.Add(time.Duration(i) * time.Minute)}
		if id == "r3" {
			r.Reporter, r.ReporterName = "", ""
		}
		if err := s.CreateReport(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Reports(ctx, t0.Add(time.Minute), 10)
	if err != nil || len(got) != 2 || got[0].ID != "r3" || got[1].ID != "r2" {
		t.Fatalf("Reports since r2 = %+v, %v, want r3, r2", got, err)
	}
	if r := got[1]; r.ReporterName != "Nam" || r.ReportedName != "Lan" || r.Reason != "stalling" || r.Game != "gr2" || !r.Created.Equal(t0.Add(time.Minute)) {
		t.Errorf("r2 read back as %+v", r)
	}
	if got, _ := s.Reports(ctx, t0, 1); len(got) != 1 || got[0].ID != "r3" {
		t.Errorf("Reports limit 1 = %+v, want r3", got)
	}
	if n, err := s.CountReports(ctx, "a", t0.Add(30*time.Second)); err != nil || n != 1 {
		t.Errorf("CountReports(a) = %d, %v, want 1", n, err)
	}
}
