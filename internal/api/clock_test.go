package api

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"oanquan/internal/match"
)

// TestClockSettings reads the time controls of new games, and refuses
// the bad ones naming their field.
func TestClockSettings(t *testing.T) {
	good := []struct {
		body string
		want match.TimeControl
	}{
		{`{"mode":"online","clock":{"initial":180,"increment":2}}`, match.TimeControl{Initial: 3 * time.Minute, Increment: 2 * time.Second}},
		{`{"mode":"online","clock":{"initial":15,"increment":0}}`, match.TimeControl{Initial: 15 * time.Second}},
		{`{"mode":"online","clock":{"initial":10800,"increment":180}}`, match.TimeControl{Initial: 3 * time.Hour, Increment: 180 * time.Second}},
		{`{"mode":"online","clock":{"days":14}}`, match.TimeControl{Days: 14}},
	}
	for _, g := range good {
		var q Settings
		if err := decode(strings.NewReader(g.body), &q, false); err != nil {
			t.Errorf("%s: %v", g.body, err)
			continue
		}
		cfg, err := q.Config()
		if err != nil || cfg.Clock == nil || *cfg.Clock != g.want {
			t.Errorf("%s: Config = %+v, %v; want %+v", g.body, cfg.Clock, err, g.want)
		}
	}
	var none Settings
	if err := decode(strings.NewReader(`{"mode":"online","clock":null}`), &none, false); err != nil || none.Clock != nil {
		t.Errorf("a null clock: %+v, %v", none.Clock, err)
	}
	bad := []struct{ body, field string }{
		{`{"mode":"local","clock":{"initial":180,"increment":2}}`, "clock: only with mode online"},
		{`{"clock":{"days":3}}`, "clock: only with mode online"},
		{`{"mode":"online","clock":{"initial":14,"increment":2}}`, "clock.initial must be 15 to 10800 seconds"},
		{`{"mode":"online","clock":{"initial":10801,"increment":2}}`, "clock.initial must be 15 to 10800 seconds"},
		{`{"mode":"online","clock":{"initial":60,"increment":181}}`, "clock.increment must be 0 to 180 seconds"},
		{`{"mode":"online","clock":{"initial":60,"increment":-1}}`, "clock.increment must be 0 to 180 seconds"},
		{`{"mode":"online","clock":{"initial":60.5,"increment":1}}`, "clock.initial must be a whole number of seconds"},
		{`{"mode":"online","clock":{"initial":"60","increment":1}}`, "clock.initial must be a whole number of seconds"},
		{`{"mode":"online","clock":{"initial":1e2,"increment":1}}`, "clock.initial must be a whole number of seconds"},
		{`{"mode":"online","clock":{"initial":60}}`, "clock.increment: missing"},
		{`{"mode":"online","clock":{"increment":2}}`, "clock.initial: missing"},
		{`{"mode":"online","clock":{"days":2}}`, "clock.days must be 1, 3, 7 or 14"},
		{`{"mode":"online","clock":{"days":0}}`, "clock.days must be 1, 3, 7 or 14"},
		{`{"mode":"online","clock":{"days":3,"initial":60}}`, "clock: days, or initial and increment, not both"},
		{`{"mode":"online","clock":{"minutes":3}}`, `clock: unknown field "minutes"`},
		{`{"mode":"online","clock":{}}`, "clock.initial: missing"},
		{`{"mode":"online","clock":180}`, "clock: want"},
		{`{"mode":"online","clock":[180,2]}`, "clock: want"},
	}
	for _, b := range bad {
		var q Settings
		err := decode(strings.NewReader(b.body), &q, false)
		if err == nil {
			_, err = q.Config()
		}
		status, body := Describe(err)
		if status != 400 || !strings.HasPrefix(body.Error.Message, b.field) {
			t.Errorf("%s: %d %q, want 400 starting %q", b.body, status, body.Error.Message, b.field)
		}
	}
}

// TestClockSettingRoundTrip: MarshalJSON writes what UnmarshalJSON reads.
func TestClockSettingRoundTrip(t *testing.T) {
	for _, c := range []ClockSetting{{Initial: 300, Increment: 3}, {Initial: 60}, {Days: 7}} {
		b, _ := json.Marshal(c)
		var back ClockSetting
		if err := json.Unmarshal(b, &back); err != nil || back != c {
			t.Errorf("%+v: %s read back as %+v, %v", c, b, back, err)
		}
		if got := ClockOf(c.control()); got != c {
			t.Errorf("ClockOf(control(%+v)) = %+v", c, got)
		}
	}
}

// TestClockRefusalFields: a refused clock's answer carries its field,
// the rule broken and the range or the values allowed as data, so that
// the page never reads them out of the English message.
func TestClockRefusalFields(t *testing.T) {
	cases := []struct{ body, want string }{
		{`{"initial":14,"increment":2}`, `"field":"clock.initial","reason":"out_of_range","min":15,"max":10800`},
		{`{"initial":60,"increment":181}`, `"field":"clock.increment","reason":"out_of_range","min":0,"max":180`},
		{`{"initial":60.5,"increment":1}`, `"field":"clock.initial","reason":"not_whole"}`},
		{`{"initial":60}`, `"field":"clock.increment","reason":"missing"}`},
		{`{"days":2}`, `"field":"clock.days","reason":"out_of_range","allowed":[1,3,7,14]}`},
		{`{"days":3,"initial":60}`, `"field":"clock","reason":"shape"}`},
		{`{"minutes":3}`, `"field":"clock","reason":"unknown_field"}`},
	}
	for _, c := range cases {
		var q Settings
		err := decode(strings.NewReader(`{"mode":"online","clock":`+c.body+`}`), &q, false)
		status, body := Describe(err)
		out, _ := json.Marshal(body)
		if status != 400 || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: %d %s, want %s", c.body, status, out, c.want)
		}
	}
}
