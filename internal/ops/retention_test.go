package ops

import (
	"testing"
	"time"
)

// TestRetentionDefaults: the zero Retention is DefaultRetention; a
// negative duration keeps for ever.
func TestRetentionDefaults(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	e := Retention{Finished: -1}.OrDefault().Expiry(now)
	if !e.Invitations.Equal(now.Add(-DefaultRetention.Invitations)) || !e.Unfinished.Equal(now.Add(-DefaultRetention.Unfinished)) || !e.Finished.IsZero() || e.Limit != ExpireBatch {
		t.Errorf("expiry of the defaults but finished kept for ever: %+v", e)
	}
}
