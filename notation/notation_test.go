package notation

import (
	"errors"
	"strings"
	"testing"

	"oanquan/rules"
)

func TestStartRoundTrip(t *testing.T) {
	p, err := ParsePosition(Start)
	if err != nil {
		t.Fatal(err)
	}
	var r rules.Rules
	if p != r.Start() {
		t.Errorf("ParsePosition(Start) = %+v, want %+v", p, r.Start())
	}
	if got := FormatPosition(p); got != Start {
		t.Errorf("FormatPosition = %q, want %q", got, Start)
	}
}

// Each bad position must fail on the field it names, saying what was
// expected.
func TestParsePositionErrors(t *testing.T) {
	tests := []struct {
		name, in, field, says string
	}{
		{"empty", "", "position", "want 5"},
		{"four fields", "5/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0", "position", "want 5"},
		{"two spaces", "5/5/5/5/5/0*/5/5/5/5/5/0*  0 0,0,0 0,0,0 0", "position", "want 5"},
		{"eleven cells", "5/5/5/5/5/0*/5/5/5/5/0* 0 5,0,0 0,0,0 0", "board", "want 12"},
		{"letter", "5/5/x/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 0", "board", "square 2"},
		{"negative", "5/5/-5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 0", "board", "square 2"},
		{"star on a citizen square", "5*/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 0", "board", "square 0"},
		{"two stars", "5/5/5/5/5/0**/5/5/5/5/5/0* 0 0,0,0 0,0,0 0", "board", "left mandarin"},
		{"huge count", "5/5/5/5/5/0*/5/5/5/5/5/99999999999999999999 0 0,0,0 0,0,0 0", "board", "right mandarin"},
		{"69 points", "5/5/5/5/4/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 0", "board", "want 70"},
		{"side 2", "5/5/5/5/5/0*/5/5/5/5/5/0* 2 0,0,0 0,0,0 0", "side", "want 0 or 1"},
		{"store fields", "5/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0 0,0,0 0", "store0", "pebbles,mandarins,debt"},
		{"store letter", "5/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,a,0 0", "store1", "mandarins"},
		{"debt past the bound", "5/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0,25001 0,0,0 0", "store0", "debt \"25001\": want a whole number from 0 to 25000"},
		{"three mandarins", "5/5/5/5/5/0/5/5/5/5/5/0 0 0,3,0 0,0,0 0", "store0", "want 0, 1 or 2"},
		{"three stones", "5/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,1,0 0", "board", "only 2"},
		{"ply", "5/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 -1", "ply", "whole number"},
		{"ply plus", "5/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 +1", "ply", "whole number"},
		{"mover cannot move", "0/0/0/0/0/0*/10/10/10/10/5/0* 1 0,0,0 5,0,0 3", "board", "refill"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePosition(tt.in)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParsePosition(%q) = %v, want a *ParseError", tt.in, err)
			}
			if pe.Field != tt.field || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("ParsePosition(%q) = %q (field %q), want field %q saying %q", tt.in, err, pe.Field, tt.field, tt.says)
			}
		})
	}
}

// Game-over positions are accepted: after the final sweep, or when the
// side to move cannot be refilled.
func TestParseFinishedPositions(t *testing.T) {
	for _, s := range []string{
		"0/0/0/0/0/0/0/0/0/0/0/0 1 40,1,0 20,0,0 30",   // swept, both mandarin squares empty
		"0/0/0/0/0/40*/0/1/0/0/6/0* 1 2,0,0 1,0,0 31",  // player 1 cannot be refilled
		"0/0/0/0/0/20*/0/0/0/0/0/20* 0 5,0,0 5,0,0 41", // swept after a repetition
	} {
		p, err := ParsePosition(s)
		if err != nil {
			t.Errorf("ParsePosition(%q): %v", s, err)
			continue
		}
		if p.Status() == rules.EndNone {
			t.Errorf("ParsePosition(%q): Status() = none, want the game over", s)
		}
	}
}

func TestParseMove(t *testing.T) {
	for s, want := range map[string]rules.Move{
		"7R": rules.MakeMove(7, rules.Right),
		"0L": rules.MakeMove(0, rules.Left),
		"9L": rules.MakeMove(9, rules.Left),
	} {
		m, err := ParseMove(s)
		if err != nil || m != want || FormatMove(m) != s {
			t.Errorf("ParseMove(%q) = %v, %v; want %v", s, m, err, want)
		}
	}
	for _, s := range []string{"", "7", "R", "7r", "10R", "7RR", "-1L", "7 R", "AL"} {
		if _, err := ParseMove(s); err == nil {
			t.Errorf("ParseMove(%q): no error", s)
		} else if !strings.Contains(err.Error(), "want a square 0-9 followed by L or R") {
			t.Errorf("ParseMove(%q) = %q: does not say what is wanted", s, err)
		}
	}
}

func FuzzParsePosition(f *testing.F) {
	f.Add(Start)
	f.Add("3/3/0/3/3/1*/3/3/1/4/0/2* 1 14,0,0 10,0,0 1")
	f.Add("0/0/0/0/0/3/1/0/0/0/39/4* 0 1,1,0 2,0,0 30")
	f.Add("5/5/5/5/5/10/5/5/5/5/5/10 0 0,0,0 0,0,0 0")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Field == "" || strings.Contains(err.Error(), "\n") {
				t.Fatalf("ParsePosition(%q) = %q: want a one-line *ParseError naming its field", s, err)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("ParsePosition(%q) accepted an invalid position: %v", s, err)
		}
		text := FormatPosition(p)
		q, err := ParsePosition(text)
		if err != nil || q != p {
			t.Fatalf("round trip of %q: %q gives %+v, %v; want %+v", s, text, q, err, p)
		}
		// Every legal move keeps the position valid.
		var r rules.Rules
		for _, m := range p.LegalMoves(nil) {
			after := p
			after.Play(m, &r, nil)
			if after.Status() == rules.EndNone {
				if err := after.Validate(); err != nil {
					t.Fatalf("%q then %v: %v", text, m, err)
				}
			}
		}
	})
}

func FuzzParseMove(f *testing.F) {
	f.Add("7R")
	f.Add("0L")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err != nil {
			return
		}
		if FormatMove(m) != s {
			t.Fatalf("ParseMove(%q) = %v, formats as %q", s, m, FormatMove(m))
		}
	})
}
