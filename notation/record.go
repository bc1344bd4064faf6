package notation

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"oanquan/rules"
)

// A game record, in the spirit of chess's PGN (docs/RECORD.md):
//
//	[Event "Friendly game"]
//	[Date "2026.11.30"]
//	[Player0 "Lan"]
//	[Player1 "Computer (hard)"]
//	[Variant "young-mandarin"]
//	[Result "1-0"]
//	[Score "38-32"]
//
//	1. 7R 2L 2. 5R {a relay round the ring} 3L 3. 9L 1-0
//
// Tags come first, one per line; then the moves, numbered by full turn
// (player 0's move and player 1's reply share a number; a game that starts
// with player 1 begins "1..."), with {comments} anywhere between moves,
// and a result token at the end: "1-0" (player 0 won), "0-1", "1/2-1/2",
// or "*" (unfinished).

// Tag is one [Name "value"] pair of a record.
type Tag struct {
	Name, Value string
}

// Record is a parsed game record. Comments[i] is the comment after the
// i-th move (1-based); Comments[0] is one before the first move.
type Record struct {
	Tags     []Tag
	Rules    rules.Rules
	Start    rules.Position
	Moves    []rules.Move
	Comments map[int]string
	Result   string // "1-0", "0-1", "1/2-1/2" or "*"
}

// Tag returns the value of the tag called name, or "".
func (r *Record) Tag(name string) string {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// Tags the record format gives meaning to; others are kept as they are.
const (
	TagVariant = "Variant" // variant names separated by spaces; absent or "standard" for none
	TagFirst   = "First"   // "1" when player 1 moves first
	TagStart   = "Start"   // the start position, when it is not the variant's usual one
	TagResult  = "Result"  // the result token, repeated after the moves
	TagScore   = "Score"   // the final count, "38-32"
	// TagTermination says how the players ended a game that the rules had
	// not: TerminationResign, TerminationDraw or TerminationAbort. Absent
	// when the rules ended it or it goes on.
	TagTermination = "Termination"
	// TagTimeControl is a clocked game's time control: "180+2" (initial
	// seconds + increment seconds) or "3d" (days per move). Its clocks
	// after each move are {clock MS,MS} comments (ClockComment).
	TagTimeControl = "TimeControl"
)

// The values of the Termination tag, and the result token each goes with.
const (
	TerminationResign = "resign" // a player resigned: "1-0" or "0-1", the other won
	TerminationDraw   = "draw"   // the players agreed a draw: "1/2-1/2"
	TerminationAbort  = "abort"  // a player called the game off before it began, or a first move never came: "*"
	TerminationTime   = "time"   // a player ran out of time: "1-0" or "0-1", the other won
	// TerminationAbandon: a player left a real-time game and the other
	// claimed the win: "1-0" or "0-1".
	TerminationAbandon = "abandon"
)

// terminationResults lists the result tokens each termination allows.
var terminationResults = map[string][]string{
	TerminationResign:  {"1-0", "0-1"},
	TerminationDraw:    {"1/2-1/2"},
	TerminationAbort:   {"*"},
	TerminationTime:    {"1-0", "0-1"},
	TerminationAbandon: {"1-0", "0-1"},
}

// resultToken returns the PGN-style result of g.
func resultToken(g *rules.Game) string {
	if !g.Over() {
		return "*"
	}
	switch g.Result().Winner {
	case 0:
		return "1-0"
	case 1:
		return "0-1"
	}
	return "1/2-1/2"
}

// FormatGame writes g as a record with the given extra tags (such as
// Event, Date, Player0, Player1), written first in name order. The tags
// the format defines (Variant, First, Start, Result, Score, Termination)
// are derived from g and override any given.
func FormatGame(g *rules.Game, tags map[string]string) string {
	return formatGame(g, tags, "", resultToken(g))
}

// FormatEnded writes g, which its players ended before the rules did, as
// FormatGame does, with the Termination tag how (TerminationResign,
// TerminationDraw or TerminationAbort) and the result token result ("1-0"
// when player 1 resigned, "0-1" when player 0 did, "1/2-1/2" for a draw,
// "*" for an abort). It does not check that they go together; Record.Game
// does.
func FormatEnded(g *rules.Game, tags map[string]string, how, result string) string {
	return formatGame(g, tags, how, result)
}

// FormatCommented writes g as FormatEnded does (how "" and result "" for
// a game the players did not end), with comments[i] after the i-th move
// (1-based; 0 before the first): a clocked game's ClockComment after each
// move.
func FormatCommented(g *rules.Game, tags map[string]string, how, result string, comments map[int]string) string {
	if result == "" {
		result = resultToken(g)
	}
	return formatGameWith(g, tags, how, result, comments)
}

func formatGame(g *rules.Game, tags map[string]string, how, res string) string {
	return formatGameWith(g, tags, how, res, nil)
}

func formatGameWith(g *rules.Game, tags map[string]string, how, res string, comments map[int]string) string {
	var b strings.Builder
	names := make([]string, 0, len(tags))
	for n := range tags {
		switch n {
		case TagVariant, TagFirst, TagStart, TagResult, TagScore, TagTermination:
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		writeTag(&b, n, tags[n])
	}
	r := g.Rules()
	if v := r.Names(); len(v) > 0 {
		writeTag(&b, TagVariant, strings.Join(v, " "))
	}
	if r.First != rules.Player0 {
		writeTag(&b, TagFirst, r.First.String())
	}
	if g.Start() != r.Start() {
		writeTag(&b, TagStart, FormatPosition(g.Start()))
	}
	writeTag(&b, TagResult, res)
	if how != "" {
		writeTag(&b, TagTermination, how)
	}
	if g.Over() {
		s := g.Result().Score()
		writeTag(&b, TagScore, fmt.Sprintf("%d-%d", s[0], s[1]))
	}
	b.WriteByte('\n')
	b.WriteString(formatMoves(g.Start(), g.Moves(), comments, res))
	b.WriteByte('\n')
	return b.String()
}

// Format writes r back as text; ParseRecord(r.Format()) gives r again.
func (r *Record) Format() string {
	var b strings.Builder
	for _, t := range r.Tags {
		writeTag(&b, t.Name, t.Value)
	}
	b.WriteByte('\n')
	b.WriteString(formatMoves(r.Start, r.Moves, r.Comments, r.Result))
	b.WriteByte('\n')
	return b.String()
}

func writeTag(b *strings.Builder, name, value string) {
	fmt.Fprintf(b, "[%s %s]\n", name, strconv.Quote(value))
}

// formatMoves writes the numbered moves, comments and result token,
// wrapping lines near 80 columns.
func formatMoves(start rules.Position, moves []rules.Move, comments map[int]string, result string) string {
	var words []string
	if c, ok := comments[0]; ok {
		words = append(words, "{"+c+"}")
	}
	side, turn := start.ToMove, 1
	for i, m := range moves {
		switch {
		case side == rules.Player0:
			words = append(words, fmt.Sprintf("%d.", turn))
		case i == 0 || comments[i] != "":
			words = append(words, fmt.Sprintf("%d...", turn))
		}
		words = append(words, m.String())
		if c, ok := comments[i+1]; ok {
			words = append(words, "{"+c+"}")
		}
		if side == rules.Player1 {
			turn++
		}
		side = side.Other()
	}
	if result == "" {
		result = "*"
	}
	words = append(words, result)
	var b strings.Builder
	col := 0
	for i, w := range words {
		if i > 0 {
			if col+1+len(w) > 79 {
				b.WriteByte('\n')
				col = 0
			} else {
				b.WriteByte(' ')
				col++
			}
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}

// ParseRecord reads a game record. It checks that every tag is well
// formed, that the variant names exist, and that the move numbers and
// moves are in order; whether the moves are legal is for Record.Game.
// Errors are *ParseError values whose Field names the line.
func ParseRecord(text string) (*Record, error) {
	r := &Record{Comments: map[int]string{}}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	i := 0
	for ; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "[") {
			break
		}
		t, err := parseTag(line)
		if err != nil {
			err.Field = fmt.Sprintf("line %d", i+1)
			return nil, err
		}
		r.Tags = append(r.Tags, t)
	}
	if err := r.applyTags(); err != nil {
		return nil, err
	}
	if err := r.parseMoves(lines, i); err != nil {
		return nil, err
	}
	if tr := r.Tag(TagResult); tr != "" && tr != r.Result {
		return nil, &ParseError{Field: "Result", Input: tr, Msg: fmt.Sprintf("the tag says %s but the moves end with %s", tr, r.Result)}
	}
	return r, nil
}

func parseTag(line string) (Tag, *ParseError) {
	bad := func(msg string) (Tag, *ParseError) {
		return Tag{}, &ParseError{Input: line, Msg: msg}
	}
	if !strings.HasSuffix(line, "]") {
		return bad(`a tag ends with ]: want [Name "value"]`)
	}
	inner := line[1 : len(line)-1]
	sp := strings.IndexByte(inner, ' ')
	if sp <= 0 {
		return bad(`want [Name "value"]`)
	}
	name := inner[:sp]
	for _, c := range name {
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return bad("a tag name is letters, digits and _")
		}
	}
	value, err := strconv.Unquote(strings.TrimSpace(inner[sp+1:]))
	if err != nil || !strings.HasPrefix(strings.TrimSpace(inner[sp+1:]), `"`) {
		return bad(`the value must be a double-quoted string: want [Name "value"]`)
	}
	return Tag{name, value}, nil
}

// applyTags reads the tags the format defines into r.Rules and r.Start.
func (r *Record) applyTags() error {
	if v := r.Tag(TagVariant); v != "" && v != "standard" {
		for _, name := range strings.Fields(v) {
			if err := r.Rules.Enable(name); err != nil {
				return &ParseError{Field: TagVariant, Input: name, Msg: err.Error()}
			}
		}
	}
	switch f := r.Tag(TagFirst); f {
	case "", "0":
	case "1":
		r.Rules.First = rules.Player1
	default:
		return &ParseError{Field: TagFirst, Input: f, Msg: "want 0 or 1"}
	}
	if tc := r.Tag(TagTimeControl); tc != "" {
		if _, err := ParseTimeControl(tc); err != nil {
			return err
		}
	}
	r.Start = r.Rules.Start()
	if s := r.Tag(TagStart); s != "" {
		p, err := ParsePosition(s)
		if err != nil {
			return &ParseError{Field: TagStart, Msg: err.Error(), Err: err}
		}
		r.Start = p
	}
	return nil
}

// parseMoves reads the move text from lines[from:].
func (r *Record) parseMoves(lines []string, from int) error {
	side, turn := r.Start.ToMove, 1
	for n := from; n < len(lines); n++ {
		line := lines[n]
		field := fmt.Sprintf("line %d", n+1)
		for pos := 0; pos < len(line); {
			c := line[pos]
			switch {
			case c == ' ' || c == '\t':
				pos++
				continue
			case c == '{':
				end := strings.IndexByte(line[pos:], '}')
				if end < 0 {
					return &ParseError{Field: field, Input: line[pos:], Msg: "a comment opened with { must close with } on the same line"}
				}
				k := len(r.Moves)
				if prev, ok := r.Comments[k]; ok {
					r.Comments[k] = prev + " " + line[pos+1:pos+end]
				} else {
					r.Comments[k] = line[pos+1 : pos+end]
				}
				pos += end + 1
				continue
			}
			end := pos
			for end < len(line) && line[end] != ' ' && line[end] != '\t' && line[end] != '{' {
				end++
			}
			word := line[pos:end]
			pos = end
			if r.Result != "" {
				return &ParseError{Field: field, Input: word, Msg: "nothing may follow the result token"}
			}
			switch word {
			case "1-0", "0-1", "1/2-1/2", "*":
				r.Result = word
				continue
			}
			if num, ok := strings.CutSuffix(word, "."); ok {
				dots := strings.HasSuffix(num, "..")
				num = strings.TrimRight(num, ".")
				want := turn
				if k, err := strconv.Atoi(num); err != nil || k != want || (dots != (side == rules.Player1)) {
					form := fmt.Sprintf("%d.", want)
					if side == rules.Player1 {
						form = fmt.Sprintf("%d...", want)
					}
					return &ParseError{Field: field, Input: word, Msg: "want the move number " + form}
				}
				continue
			}
			m, err := ParseMove(word)
			if err != nil {
				return &ParseError{Field: field, Input: word, Msg: "want a move such as 7R, a move number such as 3., a {comment} or a result (1-0, 0-1, 1/2-1/2, *)"}
			}
			r.Moves = append(r.Moves, m)
			if side == rules.Player1 {
				turn++
			}
			side = side.Other()
		}
	}
	if r.Result == "" {
		r.Result = "*"
	}
	return nil
}

// Game replays the record's moves under its rules and returns the game,
// or an error naming the first move that cannot be played.
func (r *Record) Game() (*rules.Game, error) {
	g, err := rules.NewGame(r.Rules, r.Start)
	if err != nil {
		return nil, &ParseError{Field: TagStart, Msg: err.Error(), Err: err}
	}
	for i, m := range r.Moves {
		if _, err := g.Play(m, nil); err != nil {
			return nil, &ParseError{Field: fmt.Sprintf("move %d", i+1), Input: m.String(), Msg: err.Error(), Err: err}
		}
	}
	if err := r.checkEnd(g); err != nil {
		return nil, err
	}
	return g, nil
}

// checkEnd checks that the record's result token agrees with g, its moves
// replayed: the rules' result when they ended the game (or "*"), and one
// its Termination tag allows when the players ended it.
func (r *Record) checkEnd(g *rules.Game) error {
	how := r.Tag(TagTermination)
	if g.Over() || how == "" {
		if want := resultToken(g); r.Result != "*" && r.Result != want {
			return &ParseError{Field: "result", Input: r.Result, Msg: fmt.Sprintf("the moves give %s", want)}
		}
		if how != "" {
			return &ParseError{Field: TagTermination, Input: how, Msg: "the rules ended the game: want no Termination tag"}
		}
		return nil
	}
	allowed, ok := terminationResults[how]
	if !ok {
		return &ParseError{Field: TagTermination, Input: how, Msg: "want resign, draw, abort, time or abandon"}
	}
	if !slices.Contains(allowed, r.Result) {
		return &ParseError{Field: "result", Input: r.Result, Msg: fmt.Sprintf("a game ended by %s has the result %s", how, strings.Join(allowed, " or "))}
	}
	return nil
}
