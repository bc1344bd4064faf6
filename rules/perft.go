package rules

// Perft counts the lines of play depth turns long from p under r, as chess
// engines do to check move generation: every legal move sequence of
// exactly depth moves is counted once, even where two lead to the same
// position, and a game that ends earlier contributes nothing more. p
// counts as the first occurrence of itself for the repetition rule.
func Perft(r Rules, p Position, depth int) uint64 {
	var h history
	h.reset()
	h.push(&p)
	if p.Status() != EndNone {
		if depth == 0 {
			return 1
		}
		return 0
	}
	return perft(&r, &p, depth, &h)
}

func perft(r *Rules, p *Position, depth int, h *history) uint64 {
	if depth == 0 {
		return 1
	}
	ms := p.Moves()
	if depth == 1 {
		return uint64(ms.N) // every legal move is one line, however it ends
	}
	var n uint64
	for _, m := range ms.Moves[:ms.N] {
		q := *p
		end := q.Play(m, r, nil)
		reps, undo := h.push(&q)
		if end == EndNone && reps < Repetitions {
			n += perft(r, &q, depth-1, h)
		}
		h.pop(undo)
	}
	return n
}
