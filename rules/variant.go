package rules

import (
	"fmt"
	"strings"
)

// Rules is the set of options a game is played under. The zero Rules is
// the standard game of shared/RULES.md: stones on the mandarin squares,
// player 0 first, no young mandarins, a mandarin square after the last
// pebble stops the turn only when occupied.
//
// Variants are data: each is a field here, set by name through Variants,
// and read in one place of the turn logic.
type Rules struct {
	// YoungPlies is how many turns from the start a mandarin square with
	// its stone and fewer than YoungMin pebbles cannot be captured
	// (young-mandarin: 10 turns, 5 pebbles). 0 turns the rule off.
	YoungPlies uint32
	YoungMin   uint8
	// StrictMandarinStop ends the turn at a mandarin square after the last
	// pebble even when it is empty.
	StrictMandarinStop bool
	// PebbleMandarins starts each mandarin square with 10 small pebbles
	// instead of a stone.
	PebbleMandarins bool
	// First is the player who moves first.
	First Player
}

// Variant is a named rule option, as given to `oanquan apply --variant`.
type Variant struct {
	Name string
	Doc  string
	set  func(*Rules)
}

// Variants lists the named options, in the order they are documented.
var Variants = []Variant{
	{"young-mandarin", "during the first 10 turns a mandarin square with its stone and fewer than 5 pebbles cannot be captured",
		func(r *Rules) { r.YoungPlies, r.YoungMin = 10, 5 }},
	{"strict-mandarin-stop", "a mandarin square after the last pebble ends the turn even when empty",
		func(r *Rules) { r.StrictMandarinStop = true }},
	{"pebble-mandarins", "each mandarin square starts with 10 small pebbles and no stone",
		func(r *Rules) { r.PebbleMandarins = true }},
}

// Enable turns on the variant called name, or returns an error listing the
// names there are.
func (r *Rules) Enable(name string) error {
	for _, v := range Variants {
		if v.Name == name {
			v.set(r)
			return nil
		}
	}
	names := make([]string, len(Variants))
	for i, v := range Variants {
		names[i] = v.Name
	}
	return fmt.Errorf("unknown variant %q: want one of %s", name, strings.Join(names, ", "))
}

// Names returns the names of the variants r has on, in Variants order.
func (r Rules) Names() []string {
	var names []string
	for _, v := range Variants {
		on := r
		v.set(&on)
		if on == r {
			names = append(names, v.Name)
		}
	}
	return names
}

// Start returns the opening position under r.
func (r Rules) Start() Position {
	var p Position
	for c := range p.Cells {
		p.Cells[c] = 5
	}
	if r.PebbleMandarins {
		p.Cells[LeftMandarin], p.Cells[RightMandarin] = 10, 10
	} else {
		p.Cells[LeftMandarin], p.Cells[RightMandarin] = 0, 0
		p.Stone = [2]bool{true, true}
	}
	p.ToMove = r.First
	return p
}
