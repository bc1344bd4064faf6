package api

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"oanquan/timecontrol"
)

// ClockSetting is an online game's time control as POST /api/games has
// it: {"initial": SECONDS, "increment": SECONDS} (real time) or
// {"days": N} (correspondence). Its UnmarshalJSON checks it, naming the
// field that is wrong.
type ClockSetting struct {
	Initial, Increment int // seconds, in real time
	Days               int // days per move, in correspondence
}

// ClockOf returns the setting of a time control.
func ClockOf(tc timecontrol.Control) ClockSetting {
	return ClockSetting{Initial: tc.InitialSeconds(), Increment: tc.IncrementSeconds(), Days: tc.Days}
}

// control returns the time control the setting gives.
func (c ClockSetting) control() timecontrol.Control {
	return timecontrol.Seconds(c.Initial, c.Increment, c.Days)
}

// MarshalJSON writes the setting as UnmarshalJSON reads it.
func (c ClockSetting) MarshalJSON() ([]byte, error) {
	if c.Days > 0 {
		return json.Marshal(map[string]int{"days": c.Days})
	}
	return json.Marshal(map[string]int{"initial": c.Initial, "increment": c.Increment})
}

// RangeError refuses a field of a request (400 bad_request) with, beside
// its message, the field's name (Field: "clock", "clock.initial"…), the
// rule it broke (Reason: "shape", "unknown_field", "missing",
// "not_whole", "out_of_range"), and what it may be: Min to Max, or one of
// Allowed. ErrorBody carries them all.
type RangeError struct {
	Field, Reason, Msg string
	Min, Max           *int
	Allowed            []int
}

func (e *RangeError) Error() string { return e.Msg }
func (e *RangeError) Unwrap() error { return ErrBadRequest }

// clockRefusal returns a RangeError of field and reason, its message
// formatted as by fmt.Sprintf.
func clockRefusal(field, reason, format string, args ...any) *RangeError {
	return &RangeError{Field: field, Reason: reason, Msg: fmt.Sprintf(format, args...)}
}

// clockShapes says what a clock may be, for the refusals.
const clockShapes = `want {"initial": SECONDS, "increment": SECONDS} or {"days": N}`

// UnmarshalJSON reads a time control, refusing unknown fields, both
// shapes at once, values that are not whole numbers and values out of
// range, each naming its field.
func (c *ClockSetting) UnmarshalJSON(b []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil || fields == nil {
		return clockRefusal("clock", "shape", "clock: %s", clockShapes)
	}
	for name := range fields {
		if name != "initial" && name != "increment" && name != "days" {
			return clockRefusal("clock", "unknown_field", "clock: unknown field %s, %s", Short(name), clockShapes)
		}
	}
	_, days := fields["days"]
	_, initial := fields["initial"]
	_, increment := fields["increment"]
	var out ClockSetting
	var err error
	switch {
	case days && (initial || increment):
		return clockRefusal("clock", "shape", "clock: days, or initial and increment, not both")
	case days:
		if out.Days, err = clockField(fields, "days", 1, 14); err == nil && !slices.Contains(timecontrol.CorrespondenceDays, out.Days) {
			err = daysRefusal()
		}
	default:
		if out.Initial, err = clockField(fields, "initial", int(timecontrol.MinInitial/time.Second), int(timecontrol.MaxInitial/time.Second)); err == nil {
			out.Increment, err = clockField(fields, "increment", 0, int(timecontrol.MaxIncrement/time.Second))
		}
	}
	if err != nil {
		return err
	}
	*c = out
	return nil
}

// clockField reads the whole number name of fields, from lo to hi.
func clockField(fields map[string]json.RawMessage, name string, lo, hi int) (int, error) {
	unit := " seconds"
	if name == "days" {
		unit = " days"
	}
	raw, ok := fields[name]
	if !ok {
		return 0, clockRefusal("clock."+name, "missing", "clock.%s: missing, %s", name, clockShapes)
	}
	var n json.Number
	quoted := strings.HasPrefix(strings.TrimSpace(string(raw)), `"`) // json.Number would take "60"
	if err := json.Unmarshal(raw, &n); err != nil || quoted || strings.ContainsAny(n.String(), ".eE") {
		return 0, clockRefusal("clock."+name, "not_whole", "clock.%s must be a whole number of%s", name, unit)
	}
	v, err := n.Int64()
	if err != nil || v < int64(lo) || v > int64(hi) {
		if name == "days" {
			return 0, daysRefusal()
		}
		e := clockRefusal("clock."+name, "out_of_range", "clock.%s must be %d to %d%s", name, lo, hi, unit)
		e.Min, e.Max = &lo, &hi
		return 0, e
	}
	return int(v), nil
}

// daysRefusal refuses days per move that are not one of
// timecontrol.CorrespondenceDays.
func daysRefusal() error {
	e := clockRefusal("clock.days", "out_of_range", "clock.days must be 1, 3, 7 or 14")
	e.Allowed = slices.Clone(timecontrol.CorrespondenceDays)
	return e
}
