package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"runtime"
	"time"

	"oanquan/rules"
)

// lcg is a 64-bit linear congruential generator (Knuth's MMIX
// constants): a multiply and an add a number, seeded for repeatable runs.
// Only its high 32 bits are used, which are random enough to choose one of
// at most ten moves.
type lcg struct{ state uint64 }

// next32 returns the next 32 random bits.
func (l *lcg) next32() uint64 {
	l.state = l.state*6364136223846793005 + 1442695040888963407
	return l.state >> 32
}

// playout plays one game from start (r.Start()) to its end under r with
// uniformly random legal moves from rng, reusing g, and returns its number
// of turns.
func playout(g *rules.Game, r rules.Rules, start rules.Position, rng *lcg) int {
	g.Reset(r, start)
	turns := 0
	for !g.Over() {
		ms := g.MoveSet()
		// Multiply and shift picks uniformly enough from N moves
		// without a division.
		g.PlayLegal(ms.Moves[rng.next32()*uint64(ms.N)>>32], nil)
		turns++
	}
	return turns
}

type benchResult struct {
	Playouts       int     `json:"playouts"`
	Turns          int     `json:"turns"`
	Seconds        float64 `json:"seconds"`
	PlayoutsPerSec float64 `json:"playouts_per_sec"`
	TurnsPerSec    float64 `json:"turns_per_sec"`
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	seconds := fs.Float64("seconds", 5, "how long to run")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 || !(*seconds > 0 && *seconds <= 3600) {
		return usagef("bench: want [--seconds S] with 0 < S <= 3600")
	}
	// One goroutine on one thread: the figures are for one core.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var r rules.Rules
	first := r.Start()
	g, _ := rules.NewGame(r, first)
	rng := &lcg{1}
	var res benchResult
	deadline := time.Duration(*seconds * float64(time.Second))
	start := time.Now()
	var elapsed time.Duration
	for elapsed < deadline && ctx.Err() == nil {
		for range 1000 {
			res.Turns += playout(g, r, first, rng)
		}
		res.Playouts += 1000
		elapsed = time.Since(start)
	}
	res.Seconds = elapsed.Seconds()
	res.PlayoutsPerSec = float64(res.Playouts) / res.Seconds
	res.TurnsPerSec = float64(res.Turns) / res.Seconds
	return json.NewEncoder(stdout).Encode(res)
}
