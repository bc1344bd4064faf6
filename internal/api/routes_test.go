package api

import (
	"net/url"
	"reflect"
	"testing"
)

// ParseQuery reads a query as url.ParseQuery does, where that takes it.
func TestParseQuery(t *testing.T) {
	for _, q := range []string{"", "ply=3", "ply=%33&x=y", "ply=1&ply=2", "a+b=c+d", "ply", "=5", "x=%7e%41"} {
		want, err := url.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		if got := ParseQuery(q); !reflect.DeepEqual(map[string][]string(got), map[string][]string(want)) {
			t.Errorf("ParseQuery(%q) = %v, want %v", q, got, want)
		}
	}
}
