package rating

import (
	"errors"
	"testing"
	"time"

	"oanquan/timecontrol"
)

// TestPresets classifies the time controls issue 20 offers.
func TestPresets(t *testing.T) {
	for _, c := range []struct {
		tc       timecontrol.Control
		estimate time.Duration
		want     Speed
	}{
		{timecontrol.Seconds(60, 0, 0), 60 * time.Second, Bullet},
		{timecontrol.Seconds(180, 2, 0), 200 * time.Second, Blitz},
		{timecontrol.Seconds(300, 3, 0), 330 * time.Second, Blitz},
		{timecontrol.Seconds(600, 5, 0), 650 * time.Second, Rapid},
		{timecontrol.Seconds(900, 10, 0), 1000 * time.Second, Rapid},
		{timecontrol.Seconds(1800, 0, 0), 1800 * time.Second, Classical},
		{timecontrol.Seconds(0, 0, 1), 0, Correspondence},
		{timecontrol.Seconds(0, 0, 3), 0, Correspondence},
		{timecontrol.Seconds(0, 0, 7), 0, Correspondence},
		{timecontrol.Seconds(0, 0, 14), 0, Correspondence},
	} {
		got, err := SpeedOf(c.tc)
		if err != nil || got != c.want {
			t.Errorf("SpeedOf(%+v) = %v, %v; want %v", c.tc, got, err, c.want)
		}
		if e := Estimate(c.tc); e != c.estimate {
			t.Errorf("Estimate(%+v) = %v, want %v", c.tc, e, c.estimate)
		}
	}
}

// TestSpeedBoundaries checks each boundary from both sides, reached by
// the initial time alone and by increments (MovesPerPlayer of them).
func TestSpeedBoundaries(t *testing.T) {
	for _, c := range []struct {
		initial, increment int
		want               Speed
	}{
		{0, 1, Bullet},
		{179, 0, Bullet},
		{180, 0, Blitz},
		{0, 17, Bullet}, // 170 s
		{0, 18, Blitz},  // 180 s
		{479, 0, Blitz},
		{480, 0, Rapid},
		{420, 6, Rapid}, // 480 s
		{1499, 0, Rapid},
		{1500, 0, Classical},
		{1400, 10, Classical}, // 1500 s
		{0, 1 << 62, Classical},
		{1 << 62, 1 << 62, Classical},
	} {
		tc := timecontrol.Seconds(c.initial, c.increment, 0)
		if got, err := SpeedOf(tc); err != nil || got != c.want {
			t.Errorf("SpeedOf(%d+%d s) = %v, %v; want %v", c.initial, c.increment, got, err, c.want)
		}
	}
}

// TestSpeedErrors checks that bad time controls are refused naming the field.
func TestSpeedErrors(t *testing.T) {
	for _, c := range []struct {
		tc    timecontrol.Control
		field string
	}{
		{timecontrol.Seconds(0, 0, 0), "initial"},
		{timecontrol.Seconds(-1, 0, 0), "initial"},
		{timecontrol.Seconds(60, -2, 0), "increment"},
		{timecontrol.Seconds(0, 0, -3), "days"},
		{timecontrol.Seconds(60, 0, 1), "days"},
		{timecontrol.Seconds(0, 5, 1), "days"},
	} {
		s, err := SpeedOf(c.tc)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != c.field || !errors.Is(err, ErrInvalid) {
			t.Errorf("SpeedOf(%+v) = %v, %v; want an InputError for %q", c.tc, s, err, c.field)
		}
	}
}

// TestSpeedNames checks that every speed's name parses back to it.
func TestSpeedNames(t *testing.T) {
	want := []string{"bullet", "blitz", "rapid", "classical", "correspondence"}
	for i, s := range Speeds {
		if s.String() != want[i] {
			t.Errorf("Speeds[%d].String() = %q, want %q", i, s, want[i])
		}
		if p, err := ParseSpeed(want[i]); err != nil || p != s {
			t.Errorf("ParseSpeed(%q) = %v, %v; want %v", want[i], p, err, s)
		}
	}
	if _, err := ParseSpeed("Blitz"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseSpeed(\"Blitz\"): %v, want ErrInvalid", err)
	}
	if got := Speed(9).String(); got != "Speed(9)" {
		t.Errorf("Speed(9).String() = %q", got)
	}
}
