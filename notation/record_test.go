package notation

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"oanquan/rules"
)

// playGame plays a whole game by a fixed rule of thumb: the last legal
// move, or the first every third turn.
func playGame(t *testing.T, r rules.Rules) *rules.Game {
	t.Helper()
	g, err := rules.NewGame(r, r.Start())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; !g.Over(); i++ {
		moves := g.LegalMoves(nil)
		m := moves[len(moves)-1]
		if i%3 == 0 {
			m = moves[0]
		}
		if _, err := g.Play(m, nil); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func TestFormatGameRoundTrip(t *testing.T) {
	for _, variants := range [][]string{nil, {"young-mandarin", "pebble-mandarins"}, {"strict-mandarin-stop"}} {
		var r rules.Rules
		for _, v := range variants {
			r.Enable(v)
		}
		r.First = rules.Player(len(variants) % 2)
		g := playGame(t, r)
		text := FormatGame(g, map[string]string{"Event": "Test", "Player0": "Lan", "Player1": "Computer (hard)", "Date": "2026.11.30"})
		rec, err := ParseRecord(text)
		if err != nil {
			t.Fatalf("ParseRecord of\n%s\n: %v", text, err)
		}
		g2, err := rec.Game()
		if err != nil {
			t.Fatalf("Game() of\n%s\n: %v", text, err)
		}
		if g2.Position() != g.Position() || g2.Result() != g.Result() || g2.Rules() != g.Rules() {
			t.Errorf("replayed game differs: %+v vs %+v", g2.Result(), g.Result())
		}
		if rec.Tag("Player0") != "Lan" || rec.Tag(TagScore) == "" {
			t.Errorf("tags lost: %+v", rec.Tags)
		}
		if again := rec.Format(); again != text {
			t.Errorf("Format() of the parsed record:\n%s\nwant\n%s", again, text)
		}
	}
}

func TestParseRecordComments(t *testing.T) {
	text := "[Event \"x\"]\n\n{opening} 1. 7R {a relay} 3L 2. 5R *\n"
	rec, err := ParseRecord(text)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{0: "opening", 1: "a relay"}
	if !reflect.DeepEqual(rec.Comments, want) {
		t.Errorf("Comments = %v, want %v", rec.Comments, want)
	}
	if len(rec.Moves) != 3 || rec.Result != "*" {
		t.Errorf("Moves = %v, Result = %q", rec.Moves, rec.Result)
	}
	if _, err := rec.Game(); err != nil {
		t.Errorf("Game(): %v", err)
	}
}

func TestParseRecordErrors(t *testing.T) {
	tests := []struct{ name, text, field, says string }{
		{"unclosed tag", "[Event \"x\"\n1. 7R *", "line 1", "ends with ]"},
		{"unquoted value", "[Event x]\n1. 7R *", "line 1", "double-quoted"},
		{"unknown variant", "[Variant \"giant-mandarin\"]\n1. 7R *", "Variant", "unknown variant"},
		{"bad move", "1. 7R 2X *", "line 1", "want a move"},
		{"wrong number", "1. 7R 2L 3. 5R *", "line 1", "want the move number 2."},
		{"open comment", "1. 7R {oops\n2L *", "line 1", "close with }"},
		{"after the result", "1. 7R * 2L", "line 1", "nothing may follow"},
		{"result tag disagrees", "[Result \"1-0\"]\n1. 7R *", "Result", "the tag says 1-0"},
		{"bad start", "[Start \"5/5\"]\n*", "Start", "want 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRecord(tt.text)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseRecord = %v, want a *ParseError", err)
			}
			if pe.Field != tt.field || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("ParseRecord = %q (field %q), want field %q saying %q", err, pe.Field, tt.field, tt.says)
			}
		})
	}
}

func TestRecordGameErrors(t *testing.T) {
	rec, err := ParseRecord("1. 7R 7L *") // square 7 is player 0's, and player 1 is to move
	if err != nil {
		t.Fatal(err)
	}
	_, err = rec.Game()
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Field != "move 2" {
		t.Errorf("Game() = %v, want an error for move 2", err)
	}
}

func FuzzRecord(f *testing.F) {
	f.Add("[Event \"x\"]\n\n1. 7R {c} 2L 2. 5R *\n")
	f.Add("[First \"1\"]\n[Variant \"young-mandarin\"]\n1... 2L 2. 7R 1-0")
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := ParseRecord(text)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("ParseRecord(%q) = %q: want a one-line *ParseError", text, err)
			}
			return
		}
		out := rec.Format()
		rec2, err := ParseRecord(out)
		if err != nil {
			t.Fatalf("ParseRecord(Format()) of %q: %v\n%s", text, err, out)
		}
		if !reflect.DeepEqual(rec.Moves, rec2.Moves) || !reflect.DeepEqual(rec.Tags, rec2.Tags) ||
			rec.Result != rec2.Result || rec.Start != rec2.Start || !reflect.DeepEqual(rec.Comments, rec2.Comments) {
			t.Fatalf("round trip of %q changed the record:\n%+v\n%+v", text, rec, rec2)
		}
		rec.Game() // must not panic, legal or not
	})
}

// A record of a borrowing loop: the start comes round for the third time
// after eight moves, the debts being left out of the repetition rule, so
// the game is over there with the debts as they stand (15), and a ninth
// move is refused.
func TestRecordBorrowingLoop(t *testing.T) {
	const start = "1/1/1/1/1/0*/1/0/0/0/1/0 1 43,1,0 0,0,5 20"
	text := "[Start \"" + start + "\"]\n\n1... 3R 2. 9L 1L 3. 8R 3R 4. 9L 1L 5. 8R 1-0\n"
	rec, err := ParseRecord(text)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rec.Game()
	if err != nil {
		t.Fatalf("Game(): %v", err)
	}
	if g.End() != rules.EndRepetition || g.Result().Score() != [2]int{70, -10} {
		t.Errorf("the loop ended %v with %v, want a repetition at 70 to -10", g.End(), g.Result().Score())
	}
	if got := FormatGame(g, nil); got != "[Start \""+start+"\"]\n[Result \"1-0\"]\n[Score \"70--10\"]\n\n1... 3R 2. 9L 1L 3. 8R 3R 4. 9L 1L 5. 8R 1-0\n" {
		t.Errorf("FormatGame:\n%s", got)
	}
	rec, err = ParseRecord(strings.Replace(text, "8R 1-0", "8R 3R *", 1))
	if err != nil {
		t.Fatal(err)
	}
	var pe *ParseError
	if _, err := rec.Game(); !errors.As(err, &pe) || pe.Field != "move 9" || !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("a move after the third repetition: %v, want move 9 refused as the game is over", err)
	}
}

// FuzzParseRecord: whatever ParseRecord accepts formats to a record that
// parses back to the same moves, tags, comments and result, and formats
// the same again; whatever it refuses gets a one-line *ParseError naming
// where.
func FuzzParseRecord(f *testing.F) {
	f.Add("[Event \"x\"]\n\n{opening} 1. 7R {a relay} 3L 2. 5R *\n")
	f.Add("[Start \"1/1/1/1/1/0*/1/0/0/0/1/0 1 43,1,0 0,0,5 20\"]\n\n1... 3R 2. 9L 1L 3. 8R 1-0\n")
	f.Add("[Variant \"young-mandarin\"]\n[First \"1\"]\n\n1... 2L 2. 7R *")
	f.Add("[TimeControl \"180+2\"]\n[Termination \"time\"]\n\n1. 7R {clock 180000,180000} 2L {clock 180000,180000} 0-1\n")
	f.Add("[TimeControl \"180+2\"]\n\n1. 7R {clock 180000,180000 took 4200} 2L {clock 180000,180000 took} *\n")
	f.Fuzz(func(t *testing.T, s string) {
		r1, err := ParseRecord(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Field == "" || strings.Contains(err.Error(), "\n") {
				t.Fatalf("ParseRecord(%q) = %q: want a one-line *ParseError naming where", s, err)
			}
			return
		}
		for i := range len(r1.Moves) + 2 {
			if took, ok := r1.Took(i); ok && took < 0 {
				t.Fatalf("Took(%d) = %d of %q", i, took, s)
			}
		}
		text := r1.Format()
		r2, err := ParseRecord(text)
		if err != nil {
			t.Fatalf("ParseRecord(%q) accepted, but its Format %q: %v", s, text, err)
		}
		if !reflect.DeepEqual(r1.Moves, r2.Moves) || !reflect.DeepEqual(r1.Tags, r2.Tags) || r1.Result != r2.Result || r1.Start != r2.Start || r1.Rules != r2.Rules {
			t.Fatalf("round trip of %q through %q: %+v, want %+v", s, text, r2, r1)
		}
		if again := r2.Format(); again != text {
			t.Fatalf("Format is not stable: %q then %q", text, again)
		}
	})
}

// TestFormatEnded: a game its players ended is written with how and the
// result, reads back, and replays; a record whose Termination and result
// do not go together, or that has a Termination where the rules ended the
// game, is refused.
func TestFormatEnded(t *testing.T) {
	var r rules.Rules
	g, err := rules.NewGame(r, r.Start())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Play(g.LegalMoves(nil)[0], nil); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ how, result string }{
		{TerminationResign, "0-1"}, {TerminationResign, "1-0"}, {TerminationDraw, "1/2-1/2"}, {TerminationAbort, "*"},
		{TerminationTime, "1-0"}, {TerminationAbandon, "0-1"},
	} {
		text := FormatEnded(g, map[string]string{"Event": "Test", TagTermination: "ignored"}, tt.how, tt.result)
		rec, err := ParseRecord(text)
		if err != nil {
			t.Fatalf("ParseRecord of\n%s\n: %v", text, err)
		}
		if rec.Result != tt.result || rec.Tag(TagResult) != tt.result || rec.Tag(TagTermination) != tt.how {
			t.Errorf("FormatEnded(%s, %s): result %q, tags %+v", tt.how, tt.result, rec.Result, rec.Tags)
		}
		if _, err := rec.Game(); err != nil {
			t.Errorf("Game() of\n%s\n: %v", text, err)
		}
	}
	over := FormatGame(playGame(t, r), nil)
	for _, tt := range []struct{ name, text, field, says string }{
		{"draw won", "[Termination \"draw\"]\n1. 7R 1-0", "result", "ended by draw has the result 1/2-1/2"},
		{"resign drawn", "[Termination \"resign\"]\n1. 7R 1/2-1/2", "result", "1-0 or 0-1"},
		{"unknown", "[Termination \"timeout\"]\n1. 7R 1-0", TagTermination, "want resign, draw, abort, time or abandon"},
		{"no termination", "1. 7R 1-0", "result", "the moves give *"},
		{"over by the rules", strings.Replace(over, "\n\n", "\n[Termination \"resign\"]\n\n", 1), TagTermination, "the rules ended the game"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := ParseRecord(tt.text)
			if err != nil {
				t.Fatalf("ParseRecord: %v", err)
			}
			_, err = rec.Game()
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Field != tt.field || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("Game() = %v, want a *ParseError on %q saying %q", err, tt.field, tt.says)
			}
		})
	}
}
