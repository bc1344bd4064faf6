package server

import (
	"container/list"
	"strings"
	"sync"

	"oanquan/ai"
	"oanquan/notation"
	"oanquan/rules"
)

// reviewCacheSize is how many reviewed moves a server keeps: a few
// hundred games' worth, some hundreds of bytes each.
const reviewCacheSize = 8192

// reviewKey names a reviewed move by all its review depends on: the
// rules, and the record up to and including the move (the start and the
// moves before it make the history that repetition looks at).
type reviewKey struct {
	rules  rules.Rules
	record string
}

// newReviewKey is the key of move ply of the game that plays moves from
// start under r.
func newReviewKey(r rules.Rules, start rules.Position, moves []rules.Move, ply int) reviewKey {
	var b strings.Builder
	b.WriteString(notation.FormatPosition(start))
	for _, m := range moves[:ply+1] {
		b.WriteByte(' ')
		b.WriteString(m.String())
	}
	return reviewKey{r, b.String()}
}

// reviewCache keeps the reviews of the moves reviewed lately, the most
// recent first, so that a game reviewed again (by its other player,
// its watchers, or after a reload) costs no search.
type reviewCache struct {
	mu    sync.Mutex
	order *list.List // of *reviewEntry, the most recently used first
	byKey map[reviewKey]*list.Element
	size  int
}

type reviewEntry struct {
	key    reviewKey
	review ai.MoveReview
}

func newReviewCache(size int) *reviewCache {
	return &reviewCache{order: list.New(), byKey: make(map[reviewKey]*list.Element), size: size}
}

// get returns the review kept for k, if any.
func (c *reviewCache) get(k reviewKey) (ai.MoveReview, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[k]
	if !ok {
		return ai.MoveReview{}, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*reviewEntry).review, true
}

// put keeps mr as the review of k, forgetting the least recently used
// review past the cache's size.
func (c *reviewCache) put(k reviewKey, mr ai.MoveReview) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[k]; ok {
		e.Value.(*reviewEntry).review = mr
		c.order.MoveToFront(e)
		return
	}
	c.byKey[k] = c.order.PushFront(&reviewEntry{k, mr})
	if c.order.Len() > c.size {
		old := c.order.Remove(c.order.Back()).(*reviewEntry)
		delete(c.byKey, old.key)
	}
}
