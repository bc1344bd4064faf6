package notation

import (
	"errors"
	"strings"
	"testing"

	"oanquan/rules"
	"oanquan/timecontrol"
)

// TestTimeControl reads and writes the TimeControl tag, and refuses the
// malformed.
func TestTimeControl(t *testing.T) {
	for s, want := range map[string]timecontrol.Control{"180+2": timecontrol.Seconds(180, 2, 0), "60+0": timecontrol.Seconds(60, 0, 0), "3d": timecontrol.Seconds(0, 0, 3)} {
		got, err := ParseTimeControl(s)
		if err != nil || got != want || got.String() != s {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want %+v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "180", "+2", "180+", "0+2", "0d", "d", "-1+2", "3 d", "1e3+0", "180+2+1"} {
		var pe *ParseError
		if _, err := ParseTimeControl(s); !errors.As(err, &pe) || pe.Field != TagTimeControl {
			t.Errorf("ParseTimeControl(%q) = %v, want a ParseError of the tag", s, err)
		}
	}
}

// TestRecordClocks: a clocked game's record carries its time control
// and the clocks after each move, reads back, and a game lost on time
// checks; a bad TimeControl tag is refused; an old record (no clock)
// still reads.
func TestRecordClocks(t *testing.T) {
	g, err := rules.NewGame(rules.Rules{}, rules.Rules{}.Start())
	if err != nil {
		t.Fatal(err)
	}
	comments := map[int]string{}
	for i := range 3 {
		g.Play(g.LegalMoves(nil)[0], nil)
		comments[i+1] = ClockComment([2]int64{60000 - int64(i)*100, 59000})
		if i == 2 {
			comments[i+1] = ClockTookComment([2]int64{60000 - int64(i)*100, 59000}, 4200)
		}
	}
	text := FormatCommented(g, map[string]string{TagTimeControl: "60+0"}, TerminationTime, "0-1", comments)
	if !strings.Contains(text, `[TimeControl "60+0"]`) || !strings.Contains(text, `[Termination "time"]`) || !strings.Contains(text, "{clock 59900,59000}") {
		t.Fatalf("record:\n%s", text)
	}
	rec, err := ParseRecord(text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Game(); err != nil {
		t.Errorf("Game() of a game lost on time: %v", err)
	}
	if c, ok := rec.Clock(2); !ok || c != [2]int64{59900, 59000} {
		t.Errorf("Clock(2) = %v, %v", c, ok)
	}
	if c, ok := rec.Clock(3); !ok || c != [2]int64{59800, 59000} {
		t.Errorf("Clock(3), with the time taken = %v, %v", c, ok)
	}
	if took, ok := rec.Took(3); !ok || took != 4200 || !strings.Contains(text, "{clock 59800,59000 took 4200}") {
		t.Errorf("Took(3) = %v, %v; record:\n%s", took, ok, text)
	}
	if _, ok := rec.Took(2); ok {
		t.Error("Took(2) of a comment without the time taken")
	}
	if _, ok := rec.Clock(4); ok {
		t.Error("Clock(4) of a record of three moves")
	}
	if _, err := ParseRecord(strings.Replace(text, "60+0", "sixty", 1)); err == nil {
		t.Error("a bad TimeControl tag was read")
	}
	if _, err := ParseRecord(strings.Replace(text, `"0-1"`, `"1/2-1/2"`, 1)); err == nil {
		t.Error("a draw read as a game lost on time")
	}
	old, err := ParseRecord("[Event \"x\"]\n\n1. 7R 2L *\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := old.Clock(1); ok || old.Tag(TagTimeControl) != "" {
		t.Error("an old record has clocks")
	}
}
