package endgames

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"oanquan/rules"
)

// Progress is what Build reports while it works.
type Progress struct {
	Pass        int           // the pass under way, from 1
	Phase       int           // the phase under way, from 1 (see Phases)
	Phases      int           // the phases, one for each number of stones on the board (none, one, two), built in turn
	Done        float64       // share of the pass done, 0–1
	Exact       uint64        // entries of the pass so far whose bounds meet (final only at the end)
	Positions   uint64        // positions in the table
	Changed     uint64        // entries the previous pass changed (0 before the second)
	Elapsed     time.Duration // since this run of Build started
	PassLeft    time.Duration // estimated time to the end of the pass
	Left        time.Duration // estimated time to the end of the build, -1 when unknown
	Checkpoints int           // times the table was saved so far
}

// BuildOptions are Build's settings; the zero value builds with every core
// and reports nothing.
type BuildOptions struct {
	Threads  int            // workers; 0 means runtime.NumCPU()
	Progress func(Progress) // called about once a second, from one goroutine
	Every    time.Duration  // save a checkpoint this often (default 1 minute; at least 20 times a save's own time)
	// Nice, when positive, is the nice value of the workers' threads on
	// Linux (each locked to its own thread, which ends with it), so that
	// a build in the background yields the cores to the rest of the
	// process and the machine. Elsewhere, or 0: the caller's priority.
	Nice int
}

// start is every entry's bounds before the first pass: the tightest
// there are, lower bound above upper. Each pass loosens each entry to
// what its moves and the entries after them allow, until nothing
// changes (see the package documentation for why the result is true).
var start = Bounds{Limit, -Limit}

// builder holds a table being built: two entries per word, so that a
// worker stores whole words and readers load them atomically.
type builder struct {
	n       int
	words   []uint32
	entries uint64

	// changed and before mark the boards with an entry changed in this
	// pass and in the one before (a bit a board). After a phase's first
	// pass (full false), an entry none of whose moves leads to a board
	// marked in either is not read again: nothing it depends on has
	// changed since it was last worked out, so it would not change.
	changed, before []uint32
	full            bool
}

// marked reports whether board i is marked in changed or before.
func (b *builder) marked(i uint64) bool {
	w, bit := i/32, uint32(1)<<(i%32)
	return (atomic.LoadUint32(&b.changed[w])|atomic.LoadUint32(&b.before[w]))&bit != 0
}

// mark marks board i in changed.
func (b *builder) mark(i uint64) { atomic.OrUint32(&b.changed[i/32], 1<<(i%32)) }

// nextPass makes this pass's marks the ones before, and clears changed.
func (b *builder) nextPass() {
	b.before, b.changed = b.changed, b.before
	clear(b.changed)
}

// load returns entry i's bounds.
func (b *builder) load(i uint64) Bounds {
	w := atomic.LoadUint32(&b.words[i/2]) >> (16 * (i & 1))
	return decode(uint8(w), uint8(w>>8))
}

// Build computes the table for every position with at most n pebbles on
// the board into dir (file Name(n)), resuming from a checkpoint left
// there by an interrupted run. It stops when a pass over the table
// improves no entry, or when ctx ends (the checkpoint is then saved: every
// snapshot of the table is true, only weaker).
func Build(ctx context.Context, n int, dir string, opt BuildOptions) error {
	if n < 0 || n > maxLayer {
		return fmt.Errorf("pebbles %d: want 0 to %d", n, maxLayer)
	}
	threads := opt.Threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	every := opt.Every
	if every <= 0 {
		every = time.Minute
	}
	final := filepath.Join(dir, Name(n))
	part := final + ".part"
	if finished(final) {
		os.Remove(part) // a checkpoint left beside the table by another builder
		return nil
	}
	entries := (layerStart(n + 1)) * variants
	words, free := allocWords((entries + 1) / 2)
	defer free()
	boards := layerStart(n + 1)
	b := &builder{n: n, words: words, entries: entries,
		changed: make([]uint32, (boards+31)/32), before: make([]uint32, (boards+31)/32)}
	pass, err := b.resume(part)
	if err != nil {
		return err
	}
	b.full = true // nothing is known of what changed before
	start := time.Now()
	var lastSave time.Time
	var saveTime time.Duration
	saves := 0
	var changed, prevChanged uint64
	var passTimes []time.Duration
	phase, phaseStart := 0, time.Now()
	for ; ; pass++ {
		var done, exact, ch atomic.Uint64
		passStart := time.Now()
		var next atomic.Uint64
		const chunk = 1024
		var wg sync.WaitGroup
		for range threads {
			wg.Add(1)
			work := func() {
				if onWorker != nil {
					onWorker()
				}
				for ctx.Err() == nil {
					lo := next.Add(chunk) - chunk
					if lo >= boards {
						return
					}
					e, c := b.sweepBoards(lo, min(lo+chunk, boards), phases[phase])
					exact.Add(e)
					ch.Add(c)
					done.Add(min(lo+chunk, boards) - lo)
				}
			}
			go func() {
				defer wg.Done()
				if opt.Nice > 0 {
					onNiceThread(opt.Nice, work)
				} else {
					work()
				}
			}()
		}
		stop := make(chan struct{})
		reported := make(chan struct{})
		go func() {
			defer close(reported)
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
				}
				if opt.Progress == nil {
					continue
				}
				f := float64(done.Load()) / float64(boards)
				el := time.Since(passStart)
				p := Progress{Pass: pass, Phase: phase + 1, Phases: len(phases), Done: f, Exact: exact.Load(), Positions: entries, Changed: changed,
					Elapsed: time.Since(start), Left: -1, Checkpoints: saves}
				if f > 0 {
					p.PassLeft = time.Duration(float64(el) * (1 - f) / f)
				}
				if left := estimateLeft(p.PassLeft, passTimes, prevChanged, changed); left >= 0 {
					// Each later phase as long for its entries as this one.
					this := time.Since(phaseStart) + left
					for _, later := range phases[phase+1:] {
						left += time.Duration(float64(this) * float64(bits.OnesCount8(later)) / float64(bits.OnesCount8(phases[phase])))
					}
					p.Left = left
				}
				opt.Progress(p)
			}
		}()
		wg.Wait()
		close(stop)
		<-reported
		passTimes = append(passTimes, time.Since(passStart))
		if err := ctx.Err(); err != nil {
			if serr := b.save(part, pass-1); serr != nil {
				return serr
			}
			return err
		}
		prevChanged, changed = changed, ch.Load()
		b.full = false
		b.nextPass()
		if changed == 0 {
			b.full = true
			phase++
			if phase == len(phases) {
				break
			}
			prevChanged, passTimes, phaseStart = 0, nil, time.Now()
			continue
		}
		if finished(final) {
			// Another builder in dir finished first: its table is this
			// one (the build is deterministic).
			os.Remove(part)
			return nil
		}
		// A large table takes seconds to save: at most a twentieth of
		// the time goes to checkpoints.
		if time.Since(lastSave) >= max(every, 20*saveTime) {
			t := time.Now()
			if err := b.save(part, pass); err != nil {
				return err
			}
			lastSave, saveTime = time.Now(), time.Since(t)
			saves++
		}
	}
	// The table is written and checked beside final and renamed over it:
	// what another builder may have put there is the same table.
	if err := b.save(final, -1); err != nil {
		return err
	}
	if err := os.Remove(part); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// finished reports whether path is a finished table that this program
// reads, its checksum verified. Anything else there (nothing, a table of
// another format or damaged, a leftover) is built again and replaced.
func finished(path string) bool {
	t, err := OpenFile(path)
	if err != nil {
		return false
	}
	t.Close()
	return true
}

// onWorker, when set (by tests), is called by each of Build's workers as
// it starts, on the worker's thread.
var onWorker func()

// estimateLeft guesses the time left: the current pass, then as many
// passes as it takes the improvements to fall to nothing if they keep
// falling at the last rate, each as long as the last.
func estimateLeft(passLeft time.Duration, times []time.Duration, prev, last uint64) time.Duration {
	if len(times) < 2 || last == 0 || prev <= last {
		return -1
	}
	passes := math.Ceil(math.Log(float64(last)) / math.Log(float64(prev)/float64(last)))
	return passLeft + time.Duration(passes*float64(times[len(times)-1]))
}

// sweepBoards improves the entries of boards [lo, hi) (indices over all
// layers) once, and returns how many of them are exact and how many
// changed. A board whose mirror comes first is skipped: its entries are
// written with its mirror's (see mirror).
func (b *builder) sweepBoards(lo, hi uint64, which uint8) (exact, changed uint64) {
	k := 0
	for layerStart(k+1) <= lo {
		k++
	}
	var bs bars
	bs.unrank(lo-layerStart(k), k)
	end := layerStart(k + 1)
	var p rules.Position
	var m [rules.NumCells]uint8
	for i := lo; i < hi; i++ {
		if i == end {
			k++
			bs.unrank(0, k)
			end = layerStart(k + 1)
		} else if i != lo {
			bs.next()
		}
		bs.cells(&p.Cells)
		mirror(&m, &p.Cells)
		mr, _ := boardRank(&m)
		mi := layerStart(k) + mr
		if mi < i {
			continue
		}
		old := [2]uint32{atomic.LoadUint32(&b.words[2*i]), atomic.LoadUint32(&b.words[2*i+1])}
		var e [variants]uint32 // each variant's two bytes
		for v := range uint64(variants) {
			w := old[v/2] >> (16 * (v & 1)) & 0xffff
			e[v] = w
			cur := decode(uint8(w), uint8(w>>8))
			if which>>v&1 == 0 || cur == unknown {
				continue // as loose as bounds get
			}
			p.ToMove = 0
			p.Stone = [2]bool{v&1 != 0, v&2 != 0}
			setStores(&p, k)
			nb, ok := b.improve(&p, cur)
			if !ok {
				continue
			}
			if nb.Exact() {
				exact++
			}
			if nb == cur {
				continue
			}
			changed++
			lo8, hi8 := encode(nb)
			e[v] = uint32(lo8) | uint32(hi8)<<8
		}
		nw := [2]uint32{e[0] | e[1]<<16, e[2] | e[3]<<16}
		if nw == old {
			continue
		}
		atomic.StoreUint32(&b.words[2*i], nw[0])
		atomic.StoreUint32(&b.words[2*i+1], nw[1])
		b.mark(i)
		if mi != i {
			b.mark(mi)
			// The mirror's stones are swapped: its variant 1 (left stone
			// only) is this board's 2, and 2 is 1.
			atomic.StoreUint32(&b.words[2*mi], e[0]|e[2]<<16)
			atomic.StoreUint32(&b.words[2*mi+1], e[1]|e[3]<<16)
		}
	}
	return exact, changed
}

// phases are the variants each phase of the build works out, as bit
// masks: the stones are never put back, so a position leads only to
// positions with the same stones or fewer, and each phase's entries
// depend only on its own and the earlier phases'. A phase ends when a pass
// over its entries changes nothing; the earlier phases' entries are then
// final.
var phases = []uint8{
	1 << stoneBits(false, false),
	1<<stoneBits(true, false) | 1<<stoneBits(false, true),
	1 << stoneBits(true, true),
}

// setStores gives p's stores what the board leaves, all to player 0 as
// pebbles: the table's values do not depend on where it is (see the
// package documentation), and Play needs it to refill.
func setStores(p *rules.Position, k int) {
	board := k
	for _, s := range p.Stone {
		if s {
			board += rules.StoneValue
		}
	}
	p.Stores = [2]rules.Store{{Pebbles: uint8(rules.Total - board)}, {}}
	p.Ply = 100
}

// improve returns p's bounds computed from its moves' results and the
// table, no tighter than cur (the iteration only ever loosens them, from
// start); ok is false when p is not a position to play (the game is over,
// or the mover's row is empty).
func (b *builder) improve(p *rules.Position, cur Bounds) (Bounds, bool) {
	if p.Status() != rules.EndNone {
		return cur, false
	}
	// The moves are played first and their entries read after, all
	// together: in a large table each read waits on memory, and reads
	// with nothing between them wait at the same time.
	var outs [2 * 5]outcome
	var idxs [2 * 5]uint64
	ms := p.Moves()
	for j, m := range ms.Moves[:ms.N] {
		ch := play(p, m)
		outs[j] = ch.outcome()
		idxs[j] = noEntry
		if ch.end == rules.EndNone {
			if idx, k := entry(&ch.pos); k <= b.n {
				idxs[j] = idx
			}
		}
	}
	if !b.full {
		quiet := true
		for _, idx := range idxs[:ms.N] {
			if idx != noEntry && b.marked(idx/variants) {
				quiet = false
				break
			}
		}
		if quiet {
			return cur, true
		}
	}
	var after [2 * 5]Bounds
	for j := range ms.N {
		after[j] = unknown
		if idxs[j] != noEntry {
			after[j] = b.load(idxs[j])
		}
	}
	nb := Bounds{NegInf, NegInf}
	for j := range ms.N {
		mb := moveBounds(outs[j], after[j], mayRepeat)
		nb.Lo, nb.Hi = max(nb.Lo, mb.Lo), max(nb.Hi, mb.Hi)
	}
	nb.Lo, nb.Hi = min(nb.Lo, cur.Lo), max(nb.Hi, cur.Hi)
	return nb, true
}

// noEntry marks a move whose result has no entry in the table.
const noEntry = ^uint64(0)

// encode packs bounds in two bytes: NegInf as -128, PosInf as 127.
func encode(b Bounds) (lo, hi uint8) {
	l, h := int8(-128), int8(127)
	if b.Lo != NegInf {
		l = int8(b.Lo)
	}
	if b.Hi != PosInf {
		h = int8(b.Hi)
	}
	return uint8(l), uint8(h)
}

func decode(lo, hi uint8) Bounds {
	b := Bounds{int(int8(lo)), int(int8(hi))}
	if b.Lo == -128 {
		b.Lo = NegInf
	}
	if b.Hi == 127 {
		b.Hi = PosInf
	}
	return b
}

// save writes the table to path: a checkpoint after pass, or with pass -1
// the finished table, which is read back and verified before it is put in
// place. Either is written whole or not at all (writeFile).
func (b *builder) save(path string, pass int) error {
	hdr := header(b.n, b.entries, pass)
	fill := func(f *os.File) error {
		if _, err := f.Write(hdr); err != nil {
			return err
		}
		sum := crc32.Checksum(hdr[:sumAt], castagnoli)
		left := 2 * b.entries // the last word may hold one entry only
		buf := make([]byte, 0, 1<<20)
		for i, w := range b.words {
			buf = binary.LittleEndian.AppendUint32(buf, w)
			if len(buf) >= 1<<20 || i == len(b.words)-1 {
				chunk := buf[:min(uint64(len(buf)), left)]
				sum = crc32.Update(sum, castagnoli, chunk)
				if _, err := f.Write(chunk); err != nil {
					return err
				}
				left -= uint64(len(chunk))
				buf = buf[:0]
			}
		}
		var s [4]byte
		binary.LittleEndian.PutUint32(s[:], sum)
		_, err := f.WriteAt(s[:], sumAt)
		return err
	}
	var check func(string) error
	if pass == -1 {
		check = func(tmp string) error {
			t, err := openFile(tmp, false)
			if err != nil {
				return fmt.Errorf("the table written does not read back: %w", err)
			}
			return t.Close()
		}
	}
	return writeFile(path, fill, check)
}

// resume loads the checkpoint at path if there is one and returns the
// pass to start with; without one it starts every entry unknown.
func (b *builder) resume(path string) (int, error) {
	// Mapped, not read: a large table's checkpoint would otherwise be in
	// memory twice.
	data, unmap, err := mapFile(path)
	if err == nil {
		defer unmap()
	}
	var h fileHeader
	if err == nil {
		h, err = parseHeader(data, path)
		if errors.Is(err, ErrFormat) {
			// Left by a program of another format: its work does not
			// carry over.
			err = os.ErrNotExist
		}
	}
	if errors.Is(err, os.ErrNotExist) {
		lo, hi := encode(start)
		e := uint32(lo) | uint32(hi)<<8
		for i := range b.words {
			b.words[i] = e | e<<16
		}
		return 1, nil
	}
	if err == nil {
		err = verify(data, h, path)
	}
	if err != nil {
		return 0, fmt.Errorf("%w (the build's checkpoint: remove it to start the build over)", err)
	}
	if h.n != b.n || h.entries != b.entries {
		return 0, fmt.Errorf("%s: a checkpoint for %d pebbles, want %d: remove it", path, h.n, b.n)
	}
	body := data[headerSize:]
	for i := range b.words {
		var w [4]byte
		copy(w[:], body[4*i:])
		b.words[i] = binary.LittleEndian.Uint32(w[:])
	}
	return max(h.pass, 0) + 1, nil
}
