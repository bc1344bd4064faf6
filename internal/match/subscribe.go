package match

// UpdateKind says what an Update carries.
type UpdateKind int

// The kinds of update.
const (
	StateUpdate    UpdateKind = iota // State: on subscribing, after an undo or a level change
	TurnUpdate                       // Turn: a move was played, by a human or the computer
	ThinkingUpdate                   // Thinking: the computer started choosing a move
	PresenceUpdate                   // Presence: who is connected changed
)

// Update is what a subscriber receives. The values it points to are
// shared between subscribers: do not modify them.
type Update struct {
	Kind     UpdateKind
	State    *State    // for StateUpdate
	Turn     *Turn     // for TurnUpdate
	Thinking bool      // for ThinkingUpdate: always true (a turn ends the thinking)
	Presence *Presence // for PresenceUpdate
}

// Subscription receives a match's updates on C, in order, the current
// state first. A subscriber that falls more than a few dozen updates
// behind is dropped: C is closed, and it may subscribe again for a fresh
// state. C is also closed by Close and when the match closes.
type Subscription struct {
	C <-chan Update
	c chan Update
	m *Match
}

// Subscribe returns a subscription whose first update is the current
// state.
func (m *Match) Subscribe() (*Subscription, error) { return m.SubscribeSeen(-1) }

// SubscribeSeen is Subscribe for a subscriber that shows the game at ply
// seen already (a page that has the game's state). If the last thing
// that happened is the turn played at that ply, the subscriber's first
// updates are that turn, then the current state: it sees the move
// played — the computer's opening move, say, made between the game's
// creation and the subscription — rather than only its result. With
// any other seen (-1: none), the first update is the current state.
func (m *Match) SubscribeSeen(seen int) (*Subscription, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, refuse(ErrClosed, "the game has been closed")
	}
	c := make(chan Update, subBuffer)
	s := &Subscription{C: c, c: c, m: m}
	st := m.stateLocked()
	if t := m.last; t != nil && seen >= 0 && t.Ply == seen && t.State.Position.Ply == st.Position.Ply {
		c <- Update{Kind: TurnUpdate, Turn: t}
	}
	c <- Update{Kind: StateUpdate, State: &st}
	m.subs[s] = struct{}{}
	return s, nil
}

// Close ends the subscription and closes C. It is idempotent.
func (s *Subscription) Close() {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	if _, ok := s.m.subs[s]; ok {
		s.m.dropLocked(s)
	}
}

// Idle reports whether nobody is subscribed and the computer is not
// thinking: whether the match can be closed without anyone noticing.
func (m *Match) Idle() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.subs) == 0 && !m.thinkingLocked()
}

// broadcastLocked sends u to every subscriber that has room for it, and
// drops the others: the match never waits for a slow reader.
func (m *Match) broadcastLocked(u Update) {
	switch u.Kind {
	case TurnUpdate:
		m.last = u.Turn
	case StateUpdate:
		m.last = nil // an undo, a level changed, a game changed elsewhere
	}
	for s := range m.subs {
		select {
		case s.c <- u:
		default:
			m.dropLocked(s)
		}
	}
}

func (m *Match) dropLocked(s *Subscription) {
	delete(m.subs, s)
	close(s.c)
}
