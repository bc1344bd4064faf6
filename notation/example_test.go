package notation_test

import (
	"errors"
	"fmt"

	"oanquan/notation"
	"oanquan/rules"
)

// A position read from its text, a move played on it, and the position
// after it written back.
func Example() {
	p, err := notation.ParsePosition(notation.Start)
	if err != nil {
		panic(err)
	}
	m, err := notation.ParseMove("7R")
	if err != nil {
		panic(err)
	}
	var r rules.Rules
	p.Play(m, &r, nil)
	fmt.Println(notation.FormatMove(m), "from", notation.FormatPosition(r.Start()))
	fmt.Println("gives", notation.FormatPosition(p))
	// Output:
	// 7R from 5/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 0
	// gives 6/6/0/6/6/1*/6/6/0/0/6/1* 1 6,0,0 0,0,0 1
}

// A parse error names the field at fault and what was expected.
func ExampleParsePosition_error() {
	_, err := notation.ParsePosition("5/5/5/5/5/0*/5/5/5/5/5/0* 2 0,0,0 0,0,0 0")
	var pe *notation.ParseError
	if errors.As(err, &pe) {
		fmt.Println("field:", pe.Field, "input:", pe.Input)
	}
	fmt.Println(err)
	_, err = notation.ParseMove("10R")
	fmt.Println(err)
	// Output:
	// field: side input: 2
	// side "2": want 0 or 1
	// move "10R": want a square 0-9 followed by L or R, such as 7R
}

// A game written as a record, read back, and replayed.
func ExampleFormatGame() {
	var r rules.Rules
	g, _ := rules.NewGame(r, r.Start())
	for _, s := range []string{"7R", "1L", "6L"} {
		m, _ := notation.ParseMove(s)
		if _, err := g.Play(m, nil); err != nil {
			panic(err)
		}
	}
	text := notation.FormatGame(g, map[string]string{"Player0": "Lan", "Player1": "Computer (hard)"})
	fmt.Print(text)

	rec, err := notation.ParseRecord(text)
	if err != nil {
		panic(err)
	}
	replay, err := rec.Game()
	if err != nil {
		panic(err)
	}
	fmt.Println("---")
	fmt.Println(rec.Tag("Player1"), rec.Moves, rec.Result)
	fmt.Println(notation.FormatPosition(replay.Position()) == notation.FormatPosition(g.Position()))
	// Output:
	// [Player0 "Lan"]
	// [Player1 "Computer (hard)"]
	// [Result "*"]
	//
	// 1. 7R 1L 2. 6L *
	// ---
	// Computer (hard) [7R 1L 6L] *
	// true
}
