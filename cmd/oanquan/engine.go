package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"oanquan/notation"
	"oanquan/rules"
)

// variantFlag collects repeated --variant options into rules.
type variantFlag struct{ r *rules.Rules }

func (v variantFlag) String() string { return "" }

func (v variantFlag) Set(name string) error { return v.r.Enable(name) }

// parseFlags parses args with fs, turning its errors into usage errors.
// The flag package's own messages go nowhere: run reports the error once.
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return &helpRequest{fs}
		}
		return usagef("%v", err)
	}
	return nil
}

// helpRequest is what parseFlags returns for -h or --help: run prints the
// command's usage and its flags, and exits 0.
type helpRequest struct{ fs *flag.FlagSet }

func (h *helpRequest) Error() string { return "help requested" }

// parsePosition reads a POSITION argument, as a usage error if it is wrong.
func parsePosition(s string) (rules.Position, error) {
	p, err := notation.ParsePosition(s)
	if err != nil {
		return p, usagef("position: %v", err)
	}
	return p, nil
}

// applyLine is one line of `oanquan apply`'s output (NOTATION.md).
type applyLine struct {
	Move     string          `json:"move"`
	Position string          `json:"position"`
	Over     bool            `json:"over"`
	Score    *[2]int         `json:"score,omitempty"`
	Winner   json.RawMessage `json:"winner,omitempty"`
	End      string          `json:"end,omitempty"`
}

func runApply(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var r rules.Rules
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	fs.Var(variantFlag{&r}, "variant", "a rule variant")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() < 1 {
		return usagef("apply: want POSITION MOVE...")
	}
	start, err := parsePosition(fs.Arg(0))
	if err != nil {
		return err
	}
	g, err := rules.NewGame(r, start)
	if err != nil {
		return usagef("position: %v", err)
	}
	enc := json.NewEncoder(stdout)
	for _, arg := range fs.Args()[1:] {
		m, err := notation.ParseMove(arg)
		if err != nil {
			return usagef("%v", err)
		}
		end, err := g.Play(m, nil)
		if err != nil {
			return usagef("%v", err)
		}
		line := applyLine{Move: m.String(), Position: notation.FormatPosition(g.Position())}
		if end != rules.EndNone {
			res := g.Result()
			score := res.Score()
			line.Over, line.Score, line.End = true, &score, end.String()
			line.Position = notation.FormatPosition(g.Final())
			line.Winner = json.RawMessage("null")
			if res.Winner >= 0 {
				line.Winner = json.RawMessage(strconv.Itoa(res.Winner))
			}
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return nil
}

func runShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 {
		return usagef("show: want one POSITION (quote it: it has spaces)")
	}
	p, err := parsePosition(args[0])
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, drawBoard(p))
	return err
}

// drawBoard draws p for a terminal:
//
//	             4     3     2     1     0
//	         +-----+-----+-----+-----+-----+
//	         |   5 |   5 |   5 |   5 |   5 |     player 1: 0 pebbles, 0 mandarins
//	( M  0 ) +-----+-----+-----+-----+-----+ ( M  0 )
//	         |   5 |   5 |   5 |   5 |   5 |     player 0: 0 pebbles, 0 mandarins
//	         +-----+-----+-----+-----+-----+
//	             5     6     7     8     9
func drawBoard(p rules.Position) string {
	var b strings.Builder
	row := func(squares []int) {
		b.WriteString("           |")
		for _, s := range squares {
			fmt.Fprintf(&b, " %3d |", p.Cells[rules.SquareCell(s)])
		}
	}
	numbers := func(squares []int) {
		var l strings.Builder
		l.WriteString("               ") // the digits stand above and below the counts
		for _, s := range squares {
			fmt.Fprintf(&l, "%d     ", s)
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	mandarin := func(c int) string {
		stone := " "
		if p.Stone[c/6] {
			stone = "M"
		}
		return fmt.Sprintf("( %s %2d )", stone, p.Cells[c])
	}
	store := func(pl rules.Player) string {
		s := p.Stores[pl]
		text := fmt.Sprintf("     player %d: %d pebbles, %d mandarins", pl, s.Pebbles, s.Mandarins)
		if s.Debt > 0 {
			text += fmt.Sprintf(", owes %d", s.Debt)
		}
		if p.ToMove == pl {
			text += "  <- to move"
		}
		return text + "\n"
	}
	line := "+-----+-----+-----+-----+-----+"
	numbers([]int{4, 3, 2, 1, 0})
	b.WriteString("           " + line + "\n")
	row([]int{4, 3, 2, 1, 0})
	b.WriteString(store(rules.Player1))
	fmt.Fprintf(&b, "  %s %s %s\n", mandarin(rules.LeftMandarin), line, mandarin(rules.RightMandarin))
	row([]int{5, 6, 7, 8, 9})
	b.WriteString(store(rules.Player0))
	b.WriteString("           " + line + "\n")
	numbers([]int{5, 6, 7, 8, 9})
	fmt.Fprintf(&b, "ply %d", p.Ply)
	if st := p.Status(); st != rules.EndNone {
		fmt.Fprintf(&b, ", game over (%v)", st)
	}
	b.WriteString("\n")
	return b.String()
}

// maxPerftDepth keeps perft to what finishes in reasonable time; depth 10
// from the start is about 10^10 lines.
const maxPerftDepth = 12

func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var r rules.Rules
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.Var(variantFlag{&r}, "variant", "a rule variant")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("perft: want POSITION DEPTH")
	}
	p, err := parsePosition(fs.Arg(0))
	if err != nil {
		return err
	}
	depth, err := strconv.Atoi(fs.Arg(1))
	if err != nil || depth < 0 || depth > maxPerftDepth {
		return usagef("depth %q: want a whole number from 0 to %d", fs.Arg(1), maxPerftDepth)
	}
	_, err = fmt.Fprintln(stdout, rules.Perft(r, p, depth))
	return err
}
