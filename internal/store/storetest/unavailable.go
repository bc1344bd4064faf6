package storetest

import (
	"strings"
	"testing"
)

// UnavailableCase is an error and what Unavailable should say of it.
type UnavailableCase struct {
	Name   string
	Err    error
	Reason string // "": not unavailable
}

// CheckUnavailable runs the cases through unavailable: the reason quotes
// nothing of the error; a fault is not unavailable.
func CheckUnavailable(t *testing.T, unavailable func(error) (string, bool), cases []UnavailableCase) {
	t.Helper()
	for _, tt := range cases {
		reason, ok := unavailable(tt.Err)
		if ok != (tt.Reason != "") || !strings.Contains(reason, tt.Reason) {
			t.Errorf("%s: Unavailable(%v) = %q, %v; want a reason saying %q", tt.Name, tt.Err, reason, ok, tt.Reason)
		}
		if ok && tt.Err != nil && strings.Contains(reason, tt.Err.Error()) {
			t.Errorf("%s: the reason %q quotes the error", tt.Name, reason)
		}
	}
}
