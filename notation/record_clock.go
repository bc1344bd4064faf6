package notation

import (
	"fmt"
	"strconv"
	"strings"

	"oanquan/timecontrol"
)

// ParseTimeControl reads a TimeControl tag's value: real time in whole
// seconds, "180+2" (initial and increment), or correspondence, "3d"
// (days per move). Control.String writes it.
func ParseTimeControl(s string) (timecontrol.Control, error) {
	bad := &ParseError{Field: TagTimeControl, Input: s, Msg: `want SECONDS+SECONDS ("180+2") or DAYSd ("3d")`}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := wholeNumber(days)
		if err != nil || n == 0 {
			return timecontrol.Control{}, bad
		}
		return timecontrol.Seconds(0, 0, n), nil
	}
	initial, inc, ok := strings.Cut(s, "+")
	if !ok {
		return timecontrol.Control{}, bad
	}
	i, err1 := wholeNumber(initial)
	n, err2 := wholeNumber(inc)
	if err1 != nil || err2 != nil || i == 0 {
		return timecontrol.Control{}, bad
	}
	return timecontrol.Seconds(i, n, 0), nil
}

// wholeNumber reads a number of at most twelve digits, no sign.
func wholeNumber(s string) (int, error) {
	if s == "" || len(s) > 12 || strings.TrimLeft(s, "0123456789") != "" {
		return 0, strconv.ErrSyntax
	}
	return strconv.Atoi(s)
}

// clockPrefix starts a clock comment.
const clockPrefix = "clock "

// ClockComment is the comment after a move of a clocked game: each
// side's time left after it, in milliseconds ("clock 59600,60000").
func ClockComment(ms [2]int64) string {
	return fmt.Sprintf("%s%d,%d", clockPrefix, ms[0], ms[1])
}

// tookWord starts the part of a clock comment that gives the time the
// move took.
const tookWord = " took "

// ClockTookComment is ClockComment with the time the move took, in
// milliseconds ("clock 59600,60000 took 4200").
func ClockTookComment(ms [2]int64, took int64) string {
	return fmt.Sprintf("%s%s%d", ClockComment(ms), tookWord, took)
}

// Clock returns the clocks after the i-th move (1-based) of a clocked
// game's record, from its comment, and whether it has them.
func (r *Record) Clock(i int) ([2]int64, bool) {
	text, ok := strings.CutPrefix(r.Comments[i], clockPrefix)
	if !ok {
		return [2]int64{}, false
	}
	text, _, _ = strings.Cut(text, tookWord)
	a, b, ok := strings.Cut(text, ",")
	x, err1 := wholeNumber(strings.TrimSpace(a))
	y, err2 := wholeNumber(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return [2]int64{}, false
	}
	return [2]int64{int64(x), int64(y)}, true
}

// Took returns the time the i-th move (1-based) of a clocked game's
// record took, in milliseconds, from its clock comment, and whether the
// comment gives it.
func (r *Record) Took(i int) (int64, bool) {
	if _, ok := r.Clock(i); !ok {
		return 0, false
	}
	_, took, ok := strings.Cut(r.Comments[i], tookWord)
	n, err := wholeNumber(strings.TrimSpace(took))
	if !ok || err != nil {
		return 0, false
	}
	return int64(n), true
}
