package ai

import (
	"sync"
	"sync/atomic"

	"oanquan/rules"
)

// Bounds a table entry can hold.
const (
	boundNone  = 0
	boundLower = 1 // the score is at least the stored one (a beta cutoff)
	boundUpper = 2 // the score is at most the stored one (no move reached alpha)
	boundExact = 3
)

// Proofs a score can carry, as bits: what is known of the true value of
// the game (every line followed to its end), whatever the depth.
const (
	provedLo    = 1 // the true value is at least the score
	provedHi    = 2 // the true value is at most the score
	provedExact = provedLo | provedHi
)

// flipProof turns a proof from the child's view into the parent's:
// negating the score swaps the bounds.
func flipProof(p uint8) uint8 { return p>>1&1 | p<<1&2 }

// entry is one decoded transposition-table entry: a score with the bound
// the search gave it at depth, and independently what is proven of it.
type entry struct {
	score int
	depth int
	bound int
	move  rules.Move
	proof uint8
	gen   uint8 // the search that wrote it (modulo 64)
}

// weight is how much a slot is worth keeping: its depth, or more than any
// depth once its score is proven exact.
func (e entry) weight() int {
	if e.proof == provedExact {
		return 256
	}
	return e.depth
}

// table is a transposition table shared by the threads of a search.
//
// Each slot is two words: the data and the key XORed with the data, both
// read and written atomically (Hyatt and Mann's lockless hashing). A slot
// torn by two threads writing at once fails the key check and reads as a
// miss. Slots come in pairs: the first keeps the deeper entry, the second
// takes whatever the first refuses.
//
// A table kept between searches (Table) marks each entry with the search
// that wrote it: a deep entry left by an earlier search no longer holds
// the first slot against newer ones.
type table struct {
	slots []atomic.Uint64 // 2 words a slot, 2 slots a bucket
	mask  uint64          // buckets − 1
	gen   atomic.Uint32   // the current search's generation
}

func newTable(mb int) *table {
	buckets := uint64(1)
	for buckets*2*32 <= uint64(mb)<<20 {
		buckets *= 2
	}
	return &table{slots: make([]atomic.Uint64, buckets*4), mask: buckets - 1}
}

// pack lays out an entry's data: score (25 bits, signed: more than ±inf),
// depth (8), bound (2), move (8), proof (2), generation (6).
func pack(e entry) uint64 {
	return uint64(e.score)&(1<<25-1) | uint64(e.depth)<<25 | uint64(e.bound)<<33 | uint64(e.move)<<35 | uint64(e.proof)<<43 | uint64(e.gen&63)<<45
}

func unpack(d uint64) entry {
	return entry{score: int(int64(d<<39) >> 39), depth: int(d >> 25 & 0xff), bound: int(d >> 33 & 3), move: rules.Move(d >> 35 & 0xff), proof: uint8(d >> 43 & 3), gen: uint8(d >> 45 & 63)}
}

// probe returns the entry stored for key h, if any.
func (t *table) probe(h uint64) (entry, bool) {
	b := (h & t.mask) * 4
	for i := b; i < b+4; i += 2 {
		d := t.slots[i+1].Load()
		if t.slots[i].Load()^d == h {
			return unpack(d), true
		}
	}
	return entry{}, false
}

// store records e for key h.
func (t *table) store(h uint64, e entry) {
	b := (h & t.mask) * 4
	e.gen = uint8(t.gen.Load() & 63)
	d := pack(e)
	first := unpack(t.slots[b+1].Load())
	if t.slots[b].Load()^t.slots[b+1].Load() == h || e.weight() >= first.weight() || first.gen != e.gen {
		t.slots[b].Store(h ^ d)
		t.slots[b+1].Store(d)
		return
	}
	t.slots[b+2].Store(h ^ d)
	t.slots[b+3].Store(d)
}

// Table is a transposition table kept between searches, so that a search
// starts from what the earlier ones found: give the same Table in
// Limits.Table to every search of one player in a game (the opponent's
// replies are usually in it already). The zero Table is ready to use and
// is allocated at the first search. Searches may use one Table at the same
// time (its entries are read and written atomically and keyed by the whole
// position); a search that brings other rules, evaluation weights or table
// size than the previous one clears it first.
//
// A search that finds entries from earlier searches may choose
// differently from one that starts empty: Search is deterministic for a
// seed only without a Table.
type Table struct {
	mu    sync.Mutex
	t     *table
	rules rules.Rules
	w     Weights
	mb    int
}

// get returns the table for a search under r with weights w and mb MiB,
// starting a new generation.
func (t *Table) get(r rules.Rules, w Weights, mb int) *table {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.t == nil || t.rules != r || t.w != w || t.mb != mb {
		t.t, t.rules, t.w, t.mb = newTable(mb), r, w, mb
	}
	t.t.gen.Add(1)
	return t.t
}
