package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"oanquan/internal/store"

	"oanquan/internal/store/sqlite"
)

// TestReportsCommand: `oanquan reports --db FILE` lists the reports kept
// in a SQLite file, newest first, one JSON line each, without addresses;
// --days leaves out the older ones.
func TestReportsCommand(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "oanquan.db")
	st, err := sqlite.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i, id := range []string{"old", "r1", "r2"} {
		at := now.Add(time.Duration(i) * time.Minute)
		if id == "old" {
			at = now.AddDate(0, 0, -40)
		}
		if err := st.CreateReport(ctx, store.Report{ID: id, Reporter: "a", ReporterName: "Nam", Address: "192.0.2.7",
			Reported: "b", ReportedName: "Lan", Reason: "stalling", Game: "g" + id, Created: at}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	var out, errOut bytes.Buffer
	if err := runReports(ctx, []string{"--db", path}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || strings.Contains(out.String(), "192.0.2.7") {
		t.Fatalf("output:\n%s\nwant r2 and r1 only, no address", out.String())
	}
	var first reportLine
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first.ID != "r2" || first.Reported != "Lan" || first.Reporter != "Nam" || first.Reason != "stalling" || first.Game != "gr2" {
		t.Errorf("first line %+v, %v", first, err)
	}
	if err := runReports(ctx, []string{"--db", path, "--days", "0"}, &out, &errOut); err == nil {
		t.Error("--days 0 accepted")
	}
}
