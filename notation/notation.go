// Package notation reads and writes Ô Ăn Quan positions and moves in the
// text notation of shared/NOTATION.md, and whole games as records
// (see record.go).
//
// A position is one line of five fields separated by single spaces:
//
//	5/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 0
//
// the board (twelve cells in ring order, a mandarin cell's count followed
// by * while its stone is on it), the side to move, each player's store
// (pebbles,mandarins,debt) and the ply. A move is a square and a
// direction: "7R", "2L".
//
//	p, err := notation.ParsePosition(line)
//	m, err := notation.ParseMove("7R")
//	fmt.Println(notation.FormatPosition(p))
//
// Errors are *ParseError values naming the field at fault.
package notation

import (
	"fmt"
	"strconv"
	"strings"

	"oanquan/rules"
)

// ParseError says which field of a position, move or record is wrong and
// what was expected. Field is one of "position", "board", "side",
// "store0", "store1", "ply", "move", or for records "line N".
type ParseError struct {
	Field string
	Input string // the text of the field, as found
	Msg   string // what is wrong, saying what was expected
	Err   error  // the underlying error, if any
}

func (e *ParseError) Error() string {
	if e.Input == "" {
		return fmt.Sprintf("%s: %s", e.Field, e.Msg)
	}
	return fmt.Sprintf("%s %q: %s", e.Field, e.Input, e.Msg)
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// Start is the standard opening position in notation.
const Start = "5/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 0"

// maxCount bounds the counts of a position but the debts: no count can
// exceed the 70 points of the game; a bound keeps absurd input from
// overflowing.
const maxCount = 1000

// maxDebt bounds a debt: the most a player can owe when a game reaches its
// length bound (rules.MaxPlies), borrowing 5 pebbles at each of their
// turns. Debts only grow and the repetition rule ignores them, so real
// lines could pass 70 (under the old rule, borrowing lines reached 3,300);
// twice the bound still fits the 16 bits a debt is kept in, so a position
// read here cannot overflow before the game's end.
const maxDebt = rules.RowPebbles * rules.MaxPlies / 2

// ParsePosition reads a position and checks the rules' invariants
// (rules.Position.Validate). Surrounding white space is ignored; inside,
// fields are separated by exactly one space.
func ParsePosition(s string) (rules.Position, error) {
	var p rules.Position
	s = strings.TrimSpace(s)
	fields := strings.Split(s, " ")
	if len(fields) != 5 {
		return p, &ParseError{Field: "position", Input: s, Msg: fmt.Sprintf("has %d space-separated fields: want 5 (board, side, store0, store1, ply)", len(fields))}
	}
	if err := parseBoard(fields[0], &p); err != nil {
		return p, err
	}
	switch fields[1] {
	case "0":
		p.ToMove = rules.Player0
	case "1":
		p.ToMove = rules.Player1
	default:
		return p, &ParseError{Field: "side", Input: fields[1], Msg: "want 0 or 1"}
	}
	for i := range 2 {
		st, err := parseStore(fields[2+i])
		if err != nil {
			err.Field = fmt.Sprintf("store%d", i)
			return p, err
		}
		p.Stores[i] = st
	}
	ply, err := strconv.ParseUint(fields[4], 10, 32)
	if err != nil || !isDigits(fields[4]) {
		return p, &ParseError{Field: "ply", Input: fields[4], Msg: "want a whole number of turns played, 0 or more"}
	}
	p.Ply = uint32(ply)
	if err := p.Validate(); err != nil {
		ve := err.(*rules.ValidationError)
		return p, &ParseError{Field: ve.Field, Msg: ve.Msg, Err: err}
	}
	return p, nil
}

func parseBoard(s string, p *rules.Position) error {
	cells := strings.Split(s, "/")
	if len(cells) != rules.NumCells {
		return &ParseError{Field: "board", Input: s, Msg: fmt.Sprintf("has %d cells: want 12 separated by / (squares 0-4, left mandarin, squares 5-9, right mandarin)", len(cells))}
	}
	for i, c := range cells {
		name := cellName(i)
		digits := c
		if rules.IsMandarin(i) && strings.HasSuffix(c, "*") {
			digits = c[:len(c)-1]
			p.Stone[i/6] = true
		}
		n, err := strconv.Atoi(digits)
		if err != nil || !isDigits(digits) {
			want := "a pebble count (0 or more)"
			if rules.IsMandarin(i) {
				want = "a pebble count, followed by * if the mandarin stone is there"
			}
			return &ParseError{Field: "board", Input: c, Msg: fmt.Sprintf("%s: want %s", name, want)}
		}
		if n > rules.Total {
			return &ParseError{Field: "board", Input: c, Msg: fmt.Sprintf("%s holds %d pebbles: there are only %d points in the game", name, n, rules.Total)}
		}
		p.Cells[i] = uint8(n)
	}
	return nil
}

// cellName names ring cell i for messages: "square 7", "left mandarin".
func cellName(i int) string {
	switch i {
	case rules.LeftMandarin:
		return "left mandarin"
	case rules.RightMandarin:
		return "right mandarin"
	}
	return fmt.Sprintf("square %d", rules.CellSquare(i))
}

func parseStore(s string) (rules.Store, *ParseError) {
	var st rules.Store
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return st, &ParseError{Input: s, Msg: "want pebbles,mandarins,debt (three numbers separated by commas)"}
	}
	names := [3]string{"pebbles", "mandarins", "debt"}
	var v [3]int
	for i, part := range parts {
		limit := maxCount
		if i == 2 {
			limit = maxDebt
		}
		n, err := strconv.Atoi(part)
		if err != nil || !isDigits(part) || n > limit {
			return st, &ParseError{Input: s, Msg: fmt.Sprintf("%s %q: want a whole number from 0 to %d", names[i], part, limit)}
		}
		v[i] = n
	}
	if v[0] > rules.Total {
		return st, &ParseError{Input: s, Msg: fmt.Sprintf("%d pebbles: there are only %d points in the game", v[0], rules.Total)}
	}
	if v[1] > 2 {
		return st, &ParseError{Input: s, Msg: fmt.Sprintf("%d mandarins: want 0, 1 or 2", v[1])}
	}
	st.Pebbles, st.Mandarins, st.Debt = uint8(v[0]), uint8(v[1]), uint16(v[2])
	return st, nil
}

// isDigits reports whether s is one or more ASCII digits, so that "+5",
// " 5" and "" are refused even where strconv would take them.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// FormatPosition writes p in notation.
func FormatPosition(p rules.Position) string {
	var b strings.Builder
	for i, n := range p.Cells {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(strconv.Itoa(int(n)))
		if rules.IsMandarin(i) && p.Stone[i/6] {
			b.WriteByte('*')
		}
	}
	fmt.Fprintf(&b, " %d", p.ToMove)
	for _, st := range p.Stores {
		fmt.Fprintf(&b, " %d,%d,%d", st.Pebbles, st.Mandarins, st.Debt)
	}
	fmt.Fprintf(&b, " %d", p.Ply)
	return b.String()
}

// ParseMove reads a move such as "7R" or "2L": a square 0–9 and R (right,
// toward higher numbers) or L. It does not check that the move is legal in
// any position (see rules.Position.Legal).
func ParseMove(s string) (rules.Move, error) {
	if len(s) != 2 || s[0] < '0' || s[0] > '9' || (s[1] != 'L' && s[1] != 'R') {
		return rules.NoMove, &ParseError{Field: "move", Input: s, Msg: "want a square 0-9 followed by L or R, such as 7R"}
	}
	d := rules.Left
	if s[1] == 'R' {
		d = rules.Right
	}
	return rules.MakeMove(int(s[0]-'0'), d), nil
}

// FormatMove writes m in notation: "7R".
func FormatMove(m rules.Move) string { return m.String() }
