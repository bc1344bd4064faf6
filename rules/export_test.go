package rules

// ReferencePerft is refPerft (reference_test.go) for the external tests:
// perft by the plain implementation of a turn and a plain list of earlier
// positions, with p as the first occurrence of itself.
func ReferencePerft(r Rules, p Position, depth int) uint64 {
	return refPerft(r, p, depth, []Position{refKey(p)})
}
