package e2e

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	. "oanquan/e2e/internal/browsertest"
	"oanquan/internal/wire"
	"oanquan/notation"
	"oanquan/rules"
)

var update = flag.Bool("update", false, "rewrite testdata/traces.json from the engine")

// The golden traces: turns played by the engine (rules), one for each
// kind of event and each way a turn or a game stops that random games
// meet, written in the server's JSON (docs/API.md) and replayed in the
// page's turn pipeline by TestTraceAnimations.
const tracesFile = "testdata/traces.json"

// traceState is the part of a GameState the page reads.
type traceState struct {
	ID         string        `json:"id"`
	Mode       string        `json:"mode"`
	Level      string        `json:"level"`
	Human      int           `json:"human"`
	First      int           `json:"first"`
	Variants   []string      `json:"variants"`
	Position   string        `json:"position"`
	Cells      [12]int       `json:"cells"`
	Stones     [2]bool       `json:"stones"`
	StoneValue int           `json:"stoneValue"`
	Stores     [2]wire.Store `json:"stores"`
	ToMove     int           `json:"toMove"`
	Ply        int           `json:"ply"`
	Legal      []string      `json:"legal"`
	Moves      []string      `json:"moves"`
	CanUndo    bool          `json:"canUndo"`
	Over       bool          `json:"over"`
	End        string        `json:"end"`
	Result     *wire.Result  `json:"result"`
}

type traceTurn struct {
	Ply    int          `json:"ply"`
	Player int          `json:"player"`
	Move   string       `json:"move"`
	By     string       `json:"by"`
	Events []wire.Event `json:"events"`
	State  traceState   `json:"state"`
}

// golden is one traced turn: what it shows (Covers), the state before it
// and the turn as the server would send it.
type golden struct {
	Covers []string   `json:"covers"`
	Before traceState `json:"before"`
	Turn   traceTurn  `json:"turn"`
}

func stateOf(id string, p rules.Position, legal []rules.Move, end rules.End) traceState {
	st := traceState{
		ID: id, Mode: "local", Level: "easy", Variants: []string{}, Position: notation.FormatPosition(p),
		Stones: p.Stone, StoneValue: rules.StoneValue, ToMove: int(p.ToMove), Ply: int(p.Ply), Legal: []string{}, Moves: []string{},
		Over: end != rules.EndNone, End: end.String(),
	}
	for i, n := range p.Cells {
		st.Cells[i] = int(n)
	}
	for i := range p.Stores {
		st.Stores[i] = wire.StoreOf(&p, rules.Player(i))
	}
	for _, m := range legal {
		st.Legal = append(st.Legal, notation.FormatMove(m))
	}
	if st.Over {
		st.Result = wire.ResultOf(p.Count(end))
	}
	return st
}

func eventsOf(tr *rules.Trace) []wire.Event {
	var out []wire.Event
	for _, e := range tr.Events {
		out = append(out, wire.EventOf(e))
	}
	return out
}

// coverage names what a turn shows: its event kinds, a capture of a
// stone, its stop reasons and its end.
func coverage(evs []wire.Event) []string {
	var out []string
	for _, e := range evs {
		k := e.Kind
		switch {
		case e.Kind == "capture" && e.Stone:
			k = "capture-stone"
		case e.Reason != "":
			k = e.Kind + ":" + e.Reason
		}
		if !slices.Contains(out, e.Kind) {
			out = append(out, e.Kind)
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// makeTraces plays seeded random games from the start and keeps, for
// each thing a turn can show, the shortest turn that shows it.
func makeTraces(t *testing.T) []golden {
	t.Helper()
	best := map[string]golden{}
	r := rules.Rules{}
	tr := &rules.Trace{}
	for seed := uint64(1); seed <= 400; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		g, err := rules.NewGame(r, r.Start())
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			before := g.Position()
			legal := g.LegalMoves(nil)
			m := legal[rng.IntN(len(legal))]
			tr.Reset()
			end, err := g.Play(m, tr)
			if err != nil {
				t.Fatal(err)
			}
			evs := eventsOf(tr)
			for _, k := range coverage(evs) {
				if old, ok := best[k]; ok && len(old.Turn.Events) <= len(evs) {
					continue
				}
				id := "trace-" + strings.NewReplacer(":", "-").Replace(k)
				best[k] = golden{
					Before: stateOf(id, before, nil, rules.EndNone),
					Turn: traceTurn{Ply: int(before.Ply), Player: int(before.ToMove), Move: notation.FormatMove(m), By: "human",
						Events: evs, State: stateOf(id, g.Position(), g.LegalMoves(nil), end)},
				}
			}
		}
	}
	// One turn per thing, each turn once, in a fixed order.
	var keys []string
	for k := range best {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []golden
	seen := map[string]int{}
	for _, k := range keys {
		g := best[k]
		key := g.Before.Position + " " + g.Turn.Move
		if i, ok := seen[key]; ok {
			out[i].Covers = append(out[i].Covers, k)
			continue
		}
		seen[key] = len(out)
		g.Covers = []string{k}
		g.Before.ID = fmt.Sprintf("trace-%d", len(out))
		g.Turn.State.ID = g.Before.ID
		out = append(out, g)
	}
	return out
}

// TestGoldenTraces checks testdata/traces.json against the engine
// (-update rewrites it), and that it covers every kind of event.
func TestGoldenTraces(t *testing.T) {
	traces := makeTraces(t)
	got, err := json.MarshalIndent(traces, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.MkdirAll(filepath.Dir(tracesFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tracesFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(tracesFile)
	if err != nil {
		t.Fatalf("%v (go test -run TestGoldenTraces -update ./e2e/ writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the engine's traces differ from %s: rerun with -update and look at the diff", tracesFile)
	}
	covered := map[string]bool{}
	for _, g := range traces {
		for _, c := range g.Covers {
			covered[c] = true
		}
	}
	for _, k := range []string{"pickup", "drop", "relay", "capture", "capture-stone", "stop", "exchange", "borrow", "refill", "end",
		"stop:mandarin", "stop:double-empty", "stop:after-capture", "end:mandarins"} {
		if !covered[k] {
			t.Errorf("no golden trace shows %s", k)
		}
	}
}

// expectCells returns the counts each event leaves on the board, from the
// events alone: a pick-up, relay or capture empties its cell, a drop
// leaves the count it gives, a refill adds one to each square of a row.
func expectCells(start [12]int, evs []wire.Event) [][12]int {
	cells := start
	var out [][12]int
	for _, e := range evs {
		switch e.Kind {
		case "pickup", "relay", "capture":
			cells[e.Cell] = 0
		case "drop":
			cells[e.Cell] = e.Count
		case "refill":
			row := []int{6, 7, 8, 9, 10}
			if e.Player == 1 {
				row = []int{0, 1, 2, 3, 4}
			}
			for _, c := range row {
				cells[c]++
			}
		}
		out = append(out, cells)
	}
	return out
}

// shown is what the test's observer of the page's pipeline (turns.js,
// observe) records for an event: the counts drawn after it and how many
// things moved.
type shown struct {
	Kind  string `json:"kind"`
	Cell  int    `json:"cell"`
	Cells []int  `json:"cells"`
	Moved int    `json:"moved"`
	// Points are the stores' points shown after the event, stones the
	// mandarin stones still on the board, hand the pebbles in the hand.
	Points []int  `json:"points"`
	Stones []bool `json:"stones"`
	Hand   int    `json:"hand"`
}

// boardPoints is what cells and stones hold on the board, in points.
func boardPoints(cells []int, stones []bool) int {
	n := 0
	for _, c := range cells {
		n += c
	}
	for _, s := range stones {
		if s {
			n += rules.StoneValue
		}
	}
	return n
}

// TestTraceAnimations replays every golden trace in the page's turn
// pipeline at fast speed: each event is drawn (the board after it as the
// events say) and animated (something moves), and the turn ends on the
// engine's position.
func TestTraceAnimations(t *testing.T) {
	data, err := os.ReadFile(tracesFile)
	if err != nil {
		t.Fatal(err)
	}
	var traces []golden
	if err := json.Unmarshal(data, &traces); err != nil {
		t.Fatal(err)
	}
	p := NewPage(t, 1280, 800, `{"mode":"ai","level":"easy","anim":"fast","first":0}`)
	p.Wait(Ready, 20*time.Second)
	moves := map[string]bool{"pickup": true, "drop": true, "relay": true, "capture": true, "refill": true, "borrow": true, "exchange": true}
	animated := map[string]bool{}
	events := 0
	for _, g := range traces {
		before, _ := json.Marshal(g.Before)
		turn, _ := json.Marshal(g.Turn)
		rec := Eval[[]shown](p, fmt.Sprintf(`(async () => {
			const T = await import('/js/turns.js');
			const { S, snapshot } = await import('/js/state.js');
			if (!window.traced) {
				window.traced = [];
				T.observe((m) => {
					if (m.type !== 'event') return;
					const cells = [];
					for (const e of document.querySelectorAll('#game-board .cell')) cells[Number(e.dataset.cell)] = Number(e.querySelector('.count').dataset.v);
					const { model, hand } = snapshot();
					window.traced.push({ kind: m.event.kind, cell: m.event.cell, cells, moved: m.moved,
						points: model.stores.map((s) => s.points), stones: model.stones.slice(), hand });
				});
			}
			const result = document.getElementById('result');
			if (result.open) result.close();
			S.watching = false;
			T.show(%[1]s);
			window.traced.length = 0;
			T.receive({ type: 'turn', turn: %[2]s });
			while (snapshot().phase !== 'idle' || snapshot().waiting) await new Promise((r) => setTimeout(r, 20));
			await new Promise((r) => requestAnimationFrame(r));
			return window.traced;
		})()`, before, turn))
		want := expectCells(g.Before.Cells, g.Turn.Events)
		total := boardPoints(g.Before.Cells[:], g.Before.Stones[:]) + g.Before.Stores[0].Points + g.Before.Stores[1].Points
		events += len(rec)
		if len(rec) != len(g.Turn.Events) {
			t.Errorf("%v %s: %d events shown, want %d", g.Covers, g.Turn.Move, len(rec), len(g.Turn.Events))
			continue
		}
		for i, e := range g.Turn.Events {
			r := rec[i]
			if r.Kind != e.Kind || r.Cell != e.Cell {
				t.Errorf("%v: event %d shown as %s at %d, want %s at %d", g.Covers, i, r.Kind, r.Cell, e.Kind, e.Cell)
			}
			if !slices.Equal(r.Cells, want[i][:]) {
				t.Errorf("%v: after event %d (%s %d) the board shows %v, want %v", g.Covers, i, e.Kind, e.Cell, r.Cells, want[i])
			}
			if len(r.Points) != 2 || boardPoints(r.Cells, r.Stones)+r.Hand+r.Points[0]+r.Points[1] != total {
				t.Errorf("%v: after event %d (%s %d) the stores show %v points, the board %v %v, the hand %d: not the %d points there were", g.Covers, i, e.Kind, e.Cell, r.Points, r.Cells, r.Stones, r.Hand, total)
			}
			if moves[e.Kind] && r.Moved == 0 {
				t.Errorf("%v: event %d (%s at %d) moved nothing", g.Covers, i, e.Kind, e.Cell)
			}
			if r.Moved > 0 {
				animated[e.Kind] = true
			}
		}
		if last, st := rec[len(rec)-1], g.Turn.State; len(last.Points) == 2 && (last.Points[0] != st.Stores[0].Points || last.Points[1] != st.Stores[1].Points) {
			t.Errorf("%v: the turn's events left the stores at %v points, the engine has %d and %d", g.Covers, last.Points, st.Stores[0].Points, st.Stores[1].Points)
		}
		p.Screenshot(filepath.Join(ShotDir(t), fmt.Sprintf("trace-%s.png", strings.ReplaceAll(g.Covers[0], ":", "-"))))
		if st := g.Turn.State; st.Over {
			// The ending dialog, and why, when not by the mandarins.
			why := Eval[string](p, `document.getElementById('result').open && !document.getElementById('result-why').hidden ? document.getElementById('result-why').textContent : ''`)
			if (st.End == "mandarins") != (why == "") || (why != "" && !strings.Contains(why, "count for no one")) {
				t.Errorf("%v: a game ended by %s explained %q", g.Covers, st.End, why)
			}
		}
		if got := p.ShownCells(); !slices.Equal(got, g.Turn.State.Cells[:]) {
			t.Errorf("%v: after the turn the board shows %v, the engine has %v", g.Covers, got, g.Turn.State.Cells)
		}
	}
	t.Logf("%d golden turns, %d events drawn and checked; animated: %v", len(traces), events, animated)
	for k := range moves {
		if !animated[k] {
			t.Errorf("no %s event was animated", k)
		}
	}
}
