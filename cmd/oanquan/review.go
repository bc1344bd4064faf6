package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"time"

	"oanquan/ai"
	"oanquan/notation"
)

// maxRecordBytes bounds the record file read: a record of the longest
// game the rules allow (10,000 plies) is well under it.
const maxRecordBytes = 1 << 20

func runReview(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	movetime := fs.Int("movetime", int(ai.ReviewMoveTime/time.Millisecond), "milliseconds of search per position")
	dir := fs.String("endgames", "", "directory of an endgame table (oanquan endgames build) to answer from"+endgamesUsage)
	depth := fs.Int("depth", 0, "plies to search each position at most (0: no limit); with it the review is the same every run")
	if err := parseFlags(fs, args); err != nil {
		return usagef("review: %v", err)
	}
	if fs.NArg() != 1 {
		return usagef("review: want one RECORD_FILE (- for standard input)")
	}
	if *movetime <= 0 || *depth < 0 {
		return usagef("review: --movetime must be 1 or more and --depth 0 or more")
	}
	tb, err := openEndgames("review", *dir)
	if err != nil {
		return err
	}
	defer closeEndgames(tb)
	text, err := readRecordFile(fs.Arg(0))
	if err != nil {
		return err
	}
	rec, err := notation.ParseRecord(text)
	if err != nil {
		return usagef("review: %s: %v", fs.Arg(0), err)
	}
	if _, err := rec.Game(); err != nil {
		return usagef("review: %s: %v", fs.Arg(0), err)
	}
	lim := ai.ReviewLimits{MoveTime: time.Duration(*movetime) * time.Millisecond, Depth: *depth, Endgames: tb}
	enc := json.NewEncoder(stdout)
	_, err = ai.Review(ctx, rec.Rules, rec.Start, rec.Moves, lim, func(mr ai.MoveReview) error {
		return enc.Encode(mr) // ai.MoveReview's JSON: docs/AI.md, "Game review"
	})
	return err
}

// readRecordFile reads a record from path, or from standard input for
// "-", as a usage error when it cannot.
func readRecordFile(path string) (string, error) {
	var r io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return "", usagef("review: %v", err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxRecordBytes+1))
	switch {
	case err != nil:
		return "", usagef("review: %s: %v", path, err)
	case len(b) > maxRecordBytes:
		return "", usagef("review: %s: more than %d bytes: not a game record", path, maxRecordBytes)
	}
	return string(b), nil
}
