package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"runtime"
	"time"

	"oanquan/internal/plainrules"
	"oanquan/rules"
)

// lcg is a 64-bit linear congruential generator (Knuth's MMIX
// constants): a multiply and an add a number, seeded for repeatable runs.
// Only its top eight bits are used (an LCG's low bits are its weakest),
// enough to choose one of at most ten moves.
type lcg struct{ state uint64 }

// next32 returns the next 32 random bits.
func (l *lcg) next32() uint64 {
	l.state = l.state*6364136223846793005 + 1442695040888963407
	return l.state >> 32
}

// nextByte returns the next random byte: the generator's top eight bits.
func (l *lcg) nextByte() uint8 { return uint8(l.next32() >> 24) }

// pick returns the index of one of n moves from a random byte, as
// rules.Game.RandomMove chooses them: byte·n/256.
func (l *lcg) pick(n int) int { return int(l.nextByte()) * n >> 8 }

// playout plays one game from start (r.Start()) to its end under r with
// random legal moves, each chosen by a byte from rng (Game.RandomMove),
// reusing g, and returns its number of turns.
func playout(g *rules.Game, r rules.Rules, start rules.Position, rng *lcg) int {
	g.Reset(r, start)
	turns := 0
	for !g.Over() {
		g.PlayLegal(g.RandomMove(rng.nextByte()), nil)
		turns++
	}
	return turns
}

// plainPlayer plays the playouts of playout with the plain implementation
// (internal/plainrules), the yardstick: from the same random numbers it
// plays the same games, since both list the legal moves in the same order.
type plainPlayer struct {
	g     *plainrules.Game
	start plainrules.Position
	moves []plainrules.Move
}

func newPlainPlayer() *plainPlayer {
	var r plainrules.Rules
	start := plainrules.Start(r)
	return &plainPlayer{g: plainrules.NewGame(r, start), start: start}
}

// playout plays one game from the start and returns its number of turns.
func (p *plainPlayer) playout(rng *lcg) int {
	p.g.Reset(p.g.Rules, p.start)
	turns := 0
	for {
		p.moves = p.g.LegalMoves(p.moves[:0])
		if len(p.moves) == 0 {
			return turns
		}
		p.g.Play(p.moves[rng.pick(len(p.moves))])
		turns++
	}
}

// benchResult is the JSON line of `oanquan bench`. The first five fields
// are the engine's (package rules), on the clock; the plain_ fields are
// the same figures for the plain implementation measured in the same run.
// CPUSeconds is the CPU time the thread spent in each one's slices (absent
// where it cannot be read): on a busy machine the clock also counts the
// time other programs held the core, CPU time does not. Ratio is the
// engine's playouts per CPU second over the plain one's, or per second of
// the clock where CPU time is not known.
type benchResult struct {
	Playouts       int     `json:"playouts"`
	Turns          int     `json:"turns"`
	Seconds        float64 `json:"seconds"`
	PlayoutsPerSec float64 `json:"playouts_per_sec"`
	TurnsPerSec    float64 `json:"turns_per_sec"`

	PlainPlayouts       int     `json:"plain_playouts"`
	PlainTurns          int     `json:"plain_turns"`
	PlainSeconds        float64 `json:"plain_seconds"`
	PlainPlayoutsPerSec float64 `json:"plain_playouts_per_sec"`
	PlainTurnsPerSec    float64 `json:"plain_turns_per_sec"`

	CPUSeconds             float64 `json:"cpu_seconds,omitempty"`
	PlayoutsPerCPUSec      float64 `json:"playouts_per_cpu_sec,omitempty"`
	PlainCPUSeconds        float64 `json:"plain_cpu_seconds,omitempty"`
	PlainPlayoutsPerCPUSec float64 `json:"plain_playouts_per_cpu_sec,omitempty"`
	Ratio                  float64 `json:"ratio"`
}

// benchSlice is how long one implementation runs before the other takes
// its turn: short, so that a change in the machine's load falls on both.
const benchSlice = 100 * time.Millisecond

// benchBatch is how many playouts run between two reads of the clock.
const benchBatch = 64

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	seconds := fs.Float64("seconds", 5, "how long each implementation runs on the clock (the engine, then the plain one, alternating every 0.1 s; the run takes twice as long)")
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
	plain := newPlainPlayer()
	engine := func(rng *lcg) int { return playout(g, r, first, rng) }
	// The same seed for both: the first games each plays are the same.
	rngs := [2]lcg{{1}, {1}}
	var playouts, turns [2]int
	var spent, cpu [2]time.Duration
	cpuKnown := true
	budget := time.Duration(*seconds * float64(time.Second))
	for i := 0; spent[0] < budget || spent[1] < budget; i ^= 1 {
		if ctx.Err() != nil {
			break
		}
		if spent[i] >= budget {
			continue
		}
		play := engine
		if i == 1 {
			play = plain.playout
		}
		slice := min(benchSlice, budget-spent[i])
		cpu0, ok0 := threadCPUTime()
		start := time.Now()
		var elapsed time.Duration
		for elapsed < slice {
			for range benchBatch {
				turns[i] += play(&rngs[i])
			}
			playouts[i] += benchBatch
			elapsed = time.Since(start)
		}
		spent[i] += elapsed
		cpu1, ok1 := threadCPUTime()
		cpu[i] += cpu1 - cpu0
		cpuKnown = cpuKnown && ok0 && ok1
	}
	res := benchResult{
		Playouts: playouts[0], Turns: turns[0], Seconds: spent[0].Seconds(),
		PlainPlayouts: playouts[1], PlainTurns: turns[1], PlainSeconds: spent[1].Seconds(),
	}
	if res.Seconds > 0 && res.PlainSeconds > 0 {
		res.PlayoutsPerSec = float64(res.Playouts) / res.Seconds
		res.TurnsPerSec = float64(res.Turns) / res.Seconds
		res.PlainPlayoutsPerSec = float64(res.PlainPlayouts) / res.PlainSeconds
		res.PlainTurnsPerSec = float64(res.PlainTurns) / res.PlainSeconds
		res.Ratio = res.PlayoutsPerSec / res.PlainPlayoutsPerSec
	}
	if cpuKnown && cpu[0] > 0 && cpu[1] > 0 {
		res.CPUSeconds, res.PlainCPUSeconds = cpu[0].Seconds(), cpu[1].Seconds()
		res.PlayoutsPerCPUSec = float64(res.Playouts) / res.CPUSeconds
		res.PlainPlayoutsPerCPUSec = float64(res.PlainPlayouts) / res.PlainCPUSeconds
		res.Ratio = res.PlayoutsPerCPUSec / res.PlainPlayoutsPerCPUSec
	}
	return json.NewEncoder(stdout).Encode(res)
}
